"""BGRoom ``.bgf`` (text) read into the record model: a record written by hand from the
layout gnubg reads (the (X)/(0) marks, implied takes, a beaver, a blank line after a
double as a drop, a dance), and bad input (the corpus written as ``.bgf``:
test_corpus_formats.py). gnubg's own import of .bgf reads nothing
(tests/players/test_gnubg_imports.py says why), so nothing here is compared with it."""

from __future__ import annotations

import pytest

from notation.errors import NotationError
from notation.records.bgroom_reader import read_bgroom
from notation.records.mat_reader import ReadLimits
from referee.adjudication import check_record
from referee.errors import InvalidNotationError

RECORD = """\
BGRoom game record
BGF version 1.0

Game 1 - bob (0) vs. alice
Single game
1.X:(3 1) 8/5 6/5
2.0:Double
3.X:(5 2) 13/8 13/11

Game 2 - bob (0) vs. alice
Single game
1.0:(6 5) 24/13
2.X:Double
3.0:Beaver
4.X:(4 4) can't move
5.0:(2 1) 13/11 6/5
6.X:Double

Win the Match
"""


def test_a_hand_written_record() -> None:
    record = read_bgroom(RECORD)
    assert record.match_length == 0 and record.tags["Site"] == "BGRoom"
    first, second = record.games
    assert first.players == ("alice", "bob")  # bob's mark is (0): alice is X
    assert [(str(a.kind), a.side, a.line) for a in first.actions] == [
        ("roll", "w", 6),
        ("double", "b", 7),
        ("take", "w", 8),  # implied by alice's next line
        ("roll", "w", 8),
    ]
    assert [(str(a.kind), a.side) for a in second.actions] == [
        ("roll", "b"),
        ("double", "w"),
        ("beaver", "b"),
        ("roll", "w"),
        ("roll", "b"),
        ("double", "w"),
        ("drop", "b"),  # the blank line after a double
    ]
    dance = second.actions[3]
    assert dance.text == "44:" and dance.play is not None and not dance.play.moves


def test_bad_lines_are_findings_and_limits_stop_reading() -> None:
    record = read_bgroom(RECORD.replace("1.X:(3 1) 8/5 6/5", "1.X:(3 1) 8/x").replace("5.0", "5?0"))
    assert [(f.line, f.code) for f in record.games[0].findings] == [(6, "unreadable_play")]
    assert [(f.line, f.code) for f in record.games[1].findings] == [(16, "unreadable_cell")]
    with pytest.raises(InvalidNotationError, match="not a BGRoom record"):
        check_record("BGF version 1.0\n", record_format="bgroom")
    with pytest.raises(NotationError, match="more than 1 games"):
        read_bgroom(RECORD, ReadLimits(games=1))
    with pytest.raises(NotationError, match="more than 2 actions_per_game"):
        read_bgroom(RECORD, ReadLimits(actions_per_game=2))
