"""GamesGrid ``.sgg`` read into the record model: a record written by hand from the
layout gnubg reads (players swapped as gnubg swaps them, a roll then its play, repeated
lines read once, a dance, the cube, a resignation after rolling, the result line), and
bad input (the corpus written as ``.sgg``: test_corpus_formats.py)."""

from __future__ import annotations

import pytest

from notation.errors import NotationError
from notation.records.mat_reader import ReadLimits
from notation.records.sgg_reader import read_sgg
from referee.adjudication import check_record
from referee.errors import InvalidNotationError

RECORD = """\
Friday January 9, 2009
bob vs. alice
Crawford: Yes
Jacoby: No
Game 1. 0-0/3
1\t31:
1\t31: 8/5, 6/5
1\t31: 8/5, 6/5
2\t\t52:
2\t\t52: 13/8, 13/11
3\tdouble
4\t\tpass
bob wins 1 point.

Game 2. 1-0/3
1\t\t66: O-O
2\t43:
2\tresign
bob wins 2 points.
"""


def test_a_hand_written_record() -> None:
    record = read_sgg(RECORD)
    assert record.match_length == 3 and record.tags["Crawford"] == "On"
    first, second = record.games
    assert first.players == ("alice", "bob") and first.score == (0, 0)
    assert second.score == (0, 1)
    assert [(str(a.kind), a.side, a.text, a.line) for a in first.actions] == [
        ("roll", "b", "31: 8/5 6/5", 7),
        ("roll", "w", "52: 13/8 13/11", 10),
        ("double", "b", "double", 11),
        ("drop", "w", "pass", 12),
        ("win", "b", "bob wins 1 point.", 13),
    ]
    dance, roll, win = second.actions
    assert dance.side == "w" and dance.play is not None and not dance.play.moves
    assert (roll.side, roll.dice, roll.play is not None and not roll.play.moves) == (
        "b",
        (4, 3),
        True,
    )
    assert (win.side, win.value) == ("b", 2)


def test_bad_lines_are_findings_and_limits_stop_reading() -> None:
    record = read_sgg(RECORD.replace("3\tdouble", "3\tgrumble").replace("13/8, 13/11", "13/8, 1x"))
    found = [(f.line, f.code) for f in record.games[0].findings]
    assert found == [(10, "unreadable_play"), (11, "unreadable_cell")]
    with pytest.raises(InvalidNotationError, match="not an SGG record"):
        check_record("bob vs. alice\nGame 1. 0-0/3\n"[:14], record_format="sgg")
    with pytest.raises(NotationError, match="more than 1 games"):
        read_sgg(RECORD, ReadLimits(games=1))
    with pytest.raises(NotationError, match="more than 2 actions_per_game"):
        read_sgg(RECORD, ReadLimits(actions_per_game=2))
