"""PartyGammon ``.gam`` read into the record model: a record written by hand from the
layout gnubg reads (KEY=VALUE lines, #-separated game play, the winner and points from
the scores gained), and bad input (the corpus written so: test_corpus_formats.py).
Debian's gnubg 1.07 crashes importing one ("double free detected"), so nothing here is
compared with it."""

from __future__ import annotations

import pytest

from notation.errors import NotationError
from notation.records.mat_reader import ReadLimits
from notation.records.party_reader import read_party
from referee.adjudication import check_record
from referee.errors import InvalidNotationError

RECORD = """\
MATCHLENGTH=3
GAME_1_PLAYER_1=alice
GAME_1_PLAYER_2=bob
GAME_1_GAMEPLAY=1 3 1 31 8/5 6/5#2 5 2 52 13/8 13/11#1 Double#2 Drop
GAME_1_SCORE1=1
GAME_1_SCORE2=0
GAME_2_GAMEPLAY=2 6 5 65 24/13#1 Double#2 Take#1 4 3 43 24/20 13/10#2 Double#1 Drop
GAME_2_SCORE1=1
GAME_2_SCORE2=2
"""


def test_a_hand_written_record() -> None:
    record = read_party(RECORD)
    assert record.match_length == 3
    first, second = record.games
    assert (first.players, first.score, second.score) == (("alice", "bob"), (0, 0), (1, 0))
    assert [(str(a.kind), a.side, a.line) for a in first.actions] == [
        ("roll", "w", 4),
        ("roll", "b", 4),
        ("double", "w", 4),
        ("drop", "b", 4),
        ("win", "w", 4),
    ]
    assert [str(a.kind) for a in second.actions][-2:] == ["drop", "win"]
    verdict = check_record(RECORD).to_json()
    assert [(g["winner"], g["termination"], g["points"]) for g in verdict["games"]] == [
        ("w", "drop", 1),
        ("b", "drop", 2),
    ]


def test_bad_input_is_placed_and_limits_stop_reading() -> None:
    record = read_party(RECORD.replace("13/8 13/11", "13/8 1x"))
    [finding] = record.games[0].findings
    assert (finding.line, finding.code) == (4, "unreadable_play")
    with pytest.raises(InvalidNotationError, match="not a PartyGammon record"):
        check_record("MATCHLENGTH=3\n", record_format="party")
    with pytest.raises(NotationError, match="more than 1 games"):
        read_party(RECORD, ReadLimits(games=1))
