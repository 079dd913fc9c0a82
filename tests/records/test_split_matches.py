"""A .mat of many matches is split in linear work, each match keeping the file's line
numbers (a denial of service: each match used to start with one newline per line above it)."""

from __future__ import annotations

import pytest

from notation.records.formats import read_records, split_matches
from referee.adjudication import check_record
from referee.adjudication.formats import record_texts

MATCH = " 1 point match\n Game 1\n A : 0   B : 0\n  1) 31: 8/5 6/5\n"
"""A small match of four lines (no result: the next match line ends it)."""
BAD = " 1 point match\n Game 1\n C : 0   D : 0\n  1) 31: 8/5 6/55\n"
"""The same with a bad play on its fourth line."""
MANY = 5_000


def many_matches(bad_at: int | None = None, count: int = MANY) -> str:
    return "".join(BAD if index == bad_at else MATCH for index in range(count))


def test_the_parts_of_many_matches_are_no_bigger_than_the_text() -> None:
    text = many_matches()
    split = split_matches(text)
    assert split.count == MANY and len(split.parts) == MANY
    assert sum(len(part.text) for part in split.parts) == len(text)
    assert [part.line for part in split.parts[:3]] == [1, 5, 9]
    assert split.parts[-1].line == 4 * (MANY - 1) + 1


def test_only_the_matches_asked_for_are_cut_out_all_are_counted() -> None:
    text = many_matches()
    first = record_texts(text, at_most=1)
    assert first.count == MANY and [part.text for part in first.parts] == [MATCH]
    assert sum(len(part.text) for part in record_texts(text, at_most=10).parts) == 10 * len(MATCH)


def test_a_check_of_many_matches_checks_the_first_and_counts_the_others() -> None:
    verdict = check_record(many_matches()).to_json()
    assert [warning["code"] for warning in verdict["warnings"]] == ["several_matches"]
    assert f"holds {MANY} matches" in verdict["warnings"][0]["message"]


@pytest.mark.parametrize("bad_at", [1, MANY - 1])
def test_a_later_match_is_reported_at_the_lines_of_the_file(bad_at: int) -> None:
    text = many_matches(bad_at)
    part = split_matches(text).parts[bad_at]
    expected = 4 * bad_at + 4
    verdict = check_record(part.text, first_line=part.line).to_json()
    assert [error["line"] for error in verdict["games"][0]["errors"]] == [expected]


def test_every_match_read_from_a_file_keeps_its_lines() -> None:
    records = read_records(many_matches(150, count=200))
    assert len(records) == 200 and records[150].games[0].players == ("C", "D")
    assert [record.games[0].line for record in records] == [4 * i + 2 for i in range(200)]
