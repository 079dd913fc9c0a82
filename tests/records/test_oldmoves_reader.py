"""FIBS oldmoves read into the record model: a record written by hand from the layout
gnubg reads (X the first player, cube words, a dance, plays written ascending turned into
the mover's numbering, a later game naming the players the other way round), detection,
bad input (the corpus written as oldmoves: test_corpus_formats.py)."""

from __future__ import annotations

import pytest

from notation.errors import NotationError
from notation.records.mat_reader import ReadLimits
from notation.records.oldmoves_reader import read_oldmoves
from referee.adjudication import check_record
from referee.errors import InvalidNotationError

RECORD = """\
Some FIBS output first
Score is 0-0 in a 3 point match.
alice is X - bob is O
X: (3 1) 8-5 6-5
O: (5 2) 12-17 12-14
X: doubles
O: rejects

Score is 0-1 in a 3 point match.
bob is X - alice is O
X: (6 6) bar-19 bar-19 6-off 6-off
O: (4 3) can't move
X: wins 2 points
"""


def test_a_hand_written_record() -> None:
    record = read_oldmoves(RECORD)
    assert record.match_length == 3 and record.tags["Site"] == "FIBS"
    first, second = record.games
    assert first.players == second.players == ("alice", "bob")
    assert [(str(a.kind), a.side) for a in first.actions] == [
        ("roll", "w"),
        ("roll", "b"),
        ("double", "w"),
        ("drop", "b"),
    ]
    ascending = first.actions[1].play
    assert ascending is not None  # 12-17 is bob's 13/8 written in alice's numbering
    assert [(m.from_point, m.to_point) for m in ascending.moves] == [(13, 8), (13, 11)]
    # game 2 names bob as X: his actions are the second player's, the score turned round
    assert second.score == (1, 0)
    assert [(str(a.kind), a.side, a.text) for a in second.actions] == [
        ("roll", "b", "66: bar/19 bar/19 6/off 6/off"),
        ("roll", "w", "43:"),
        ("win", "b", "wins 2 points"),
    ]
    assert second.actions[2].value == 2 and second.actions[1].line == 12


def test_the_first_game_is_checked() -> None:
    first_game = RECORD[: RECORD.index("\nScore is 0-1")]
    verdict = check_record(first_game).to_json()
    [game] = verdict["games"]
    assert (game["winner"], game["termination"], game["points"]) == ("w", "drop", 1)


def test_bad_lines_are_findings_and_limits_stop_reading() -> None:
    record = read_oldmoves(RECORD.replace("O: rejects", "O: grumbles").replace("6-5\n", "6-x\n"))
    found = [(f.line, f.code) for f in record.games[0].findings]
    assert found == [(4, "unreadable_play"), (7, "unreadable_cell")]
    with pytest.raises(InvalidNotationError, match="not a FIBS oldmoves record"):
        check_record("alice is X - bob is O\n", record_format="oldmoves")
    with pytest.raises(NotationError, match="more than 1 games"):
        read_oldmoves(RECORD, ReadLimits(games=1))
    with pytest.raises(NotationError, match="more than 2 actions_per_game"):
        read_oldmoves(RECORD, ReadLimits(actions_per_game=2))
