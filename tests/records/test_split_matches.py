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


TRICKY = [
    MATCH * 3,
    " 7 POINT\tMatch\r\n Game 1\r\n A : 0   B : 0\r\n 5 point match\r\n Game 1\r\n",
    "pointpoint 5 point match\n Game 1\n 1 point match",
    " 1 points match\n Game 2\n 3 point matches\n Game 3\n\t3 point match x\n Game 1\n",
    "; point\n 3 point match\n Game 1\n; [Event point]\n 5 point match\n Game 1\n point",
    "Game 1\n 123456 point match\n 12345 point match\n Game 1\n 2 point match",
    "matchmatch 5 point match\n Game 1\n Wins 5 points and the match\n; match\n 1 point match",
]
"""Match lines in every case and spacing, and lines that only look like one."""


@pytest.mark.parametrize("text", TRICKY)
def test_ascii_text_is_split_where_any_text_is(text: str) -> None:
    """ASCII text (whose match lines are looked for where "match" stands) is split as text
    that is not ASCII (read by the pattern alone): here a comment line added at the end."""
    found, other = split_matches(text), split_matches(text + "\n; \u00e9")
    assert found.count == other.count > 0
    assert [part.line for part in found.parts] == [part.line for part in other.parts]
    assert [part.text for part in found.parts[:-1]] == [part.text for part in other.parts[:-1]]
    assert found.parts[-1].text + "\n; \u00e9" == other.parts[-1].text
