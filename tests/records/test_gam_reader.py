"""GammonEmpire ``.gam`` read into the record model: a record written by hand from the
layout gnubg reads (a names line, .mat rows, a result, the next names line), its findings
placed on the lines of the original, and bad input (the corpus written as ``.gam``:
test_corpus_formats.py)."""

from __future__ import annotations

import pytest

from notation.errors import NotationError
from notation.records.gam_reader import read_gam
from notation.records.mat_reader import ReadLimits
from referee.adjudication import check_record
from referee.errors import InvalidNotationError

RECORD = """\
alice bob
  1) 31: 8/5 6/5                 52: 13/8 13/11
  2)  Doubles => 2                Drops
      Wins 1 point

bob alice
  1)                             65: 24/13
  2) 64: 24/18 13/9               Doubles => 2
"""


def test_a_hand_written_record() -> None:
    record = read_gam(RECORD)
    assert record.match_length == 0 and record.tags["Jacoby"] == "Off"
    first, second = record.games
    assert (first.players, first.line, first.score) == (("alice", "bob"), 1, None)
    assert [(str(a.kind), a.side, a.line) for a in first.actions] == [
        ("roll", "w", 2),
        ("roll", "b", 2),
        ("double", "w", 3),
        ("drop", "b", 3),
        ("win", "w", 4),
    ]
    assert (second.players, second.line) == (("bob", "alice"), 6)
    assert [(str(a.kind), a.side, a.line) for a in second.actions][-1] == ("double", "b", 8)
    verdict = check_record(RECORD).to_json()
    assert [(g["winner"], g["termination"], g["points"]) for g in verdict["games"]] == [
        ("w", "drop", 1),
        (None, "unfinished", 0),
    ]


def test_findings_are_placed_on_the_original_lines_and_limits_stop_reading() -> None:
    record = read_gam(RECORD.replace("52: 13/8 13/11", "52: 13/8 1x/11"))
    [finding] = record.games[0].findings
    assert (finding.line, finding.code) == (2, "unreadable_play")
    with pytest.raises(InvalidNotationError, match=r"not a \.gam record"):
        check_record("  1) 31: 8/5 6/5\n", record_format="gam")
    with pytest.raises(NotationError, match="more than 1 games"):
        read_gam(RECORD, ReadLimits(games=1))
    with pytest.raises(NotationError, match="more than 3 actions_per_game"):
        read_gam(RECORD, ReadLimits(actions_per_game=3))
