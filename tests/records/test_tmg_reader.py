"""TrueMoneyGames ``.tmg`` read into the record model: a record written by hand from the
layout gnubg reads (players swapped as gnubg swaps them, scores, cube records, a win,
a dance, a roll before a resignation), detection (the corpus written as ``.tmg``:
test_corpus_formats.py), and bad input refused with where reading stopped."""

from __future__ import annotations

import pytest

from notation.errors import NotationError
from notation.records.formats import TMG, detect, read_records
from notation.records.mat_reader import ReadLimits
from notation.records.model import ActionKind
from notation.records.tmg_reader import read_tmg
from referee.adjudication import check_record
from referee.errors import InvalidNotationError

HEADER = "MatchID: 4711\nPlayer1: 11 Bob 1500.0\nPlayer2: 12 Alice 1480.0\nLength: 3\n"
GAME = """
Game 1: 0-0
1 1 31:
1 4 8/5 6/5
-1 1 52:
-1 4 13/8 13/11
2 5 Double to 2
-2 10 Pass
2 14 1 Bob wins 1 point
Game 2: 1-0
-1 1 65:
-1 4 24/13
1 1 66:
1 4 0/0
-2 1 43:
2 16 6 Bob wins 6 points
"""


def test_a_hand_written_record() -> None:
    record = read_tmg(HEADER + GAME)
    assert record.match_length == 3
    assert record.tags["Match ID"] == "4711" and record.tags["Site"] == "TrueMoneyGames"
    first, second = record.games
    # gnubg swaps the players after reading: Player2 is the left (first) player.
    assert first.players == ("Alice", "Bob") and first.score == (0, 0)
    assert second.score == (0, 1)
    kinds = [(str(action.kind), action.side, action.text) for action in first.actions]
    assert kinds == [
        ("roll", "b", "31: 8/5 6/5"),
        ("roll", "w", "52: 13/8 13/11"),
        ("double", "b", "Double to 2"),
        ("drop", "w", "Pass"),
        ("win", "b", "1 Bob wins 1 point"),
    ]
    assert first.actions[2].value == 2 and first.actions[4].value == 1
    dance, roll_only = second.actions[1], second.actions[2]
    assert dance.text == "66:" and dance.play is not None and not dance.play.moves
    assert roll_only.kind is ActionKind.ROLL and roll_only.dice == (4, 3)
    assert (dance.line, roll_only.line) == (17, 19)  # the lines of their roll records


def test_the_hand_written_record_is_checked_as_gnubg_scores_it() -> None:
    played = GAME.replace("1 4 0/0", "1 4 24/18 24/18 13/7 13/7")  # 0/0 is a dance only
    verdict = check_record(HEADER + played).to_json()
    games = [(game["winner"], game["termination"], game["points"]) for game in verdict["games"]]
    assert games[0] == ("b", "drop", 1)
    # Alice resigns after rolling 43; 6 points on a 1-cube is a backgammon's resignation (3)
    assert games[1] == ("b", "resign", 3)
    assert verdict["match"]["players"] == ["Alice", "Bob"]


def test_detection_and_the_format_name() -> None:
    assert detect(HEADER.encode()) is TMG
    assert detect(b"Game 3: 1-2\n1 1 52:\n") is TMG
    assert read_records(HEADER + GAME, "tmg")[0].games[0].players == ("Alice", "Bob")


@pytest.mark.parametrize(
    ("text", "where", "line"),
    [
        (HEADER + "Game 1: 0-0\n1 4 13/8 13/11\n", "follows no roll", 6),
        (HEADER + "Game 1: 0-0\n1 1 52:\n1 4 13/8 1x/11\n", "1x/11", 7),
        (HEADER + "Game 1: 0-0\n1 99 what\n", "record type 99", 6),
        (HEADER + "Game 1: 0-0\nno such line\n", "neither an option nor a record", 6),
    ],
)
def test_unreadable_lines_are_findings_with_their_place(text: str, where: str, line: int) -> None:
    record = read_tmg(text)
    [finding] = record.games[0].findings
    assert where in finding.message and finding.line == line


def test_a_cut_record_reads_to_its_last_whole_line() -> None:
    cut = (HEADER + GAME)[: (HEADER + GAME).index("-2 10 Pass")]
    verdict = check_record(cut).to_json()
    assert [game["termination"] for game in verdict["games"]] == ["unfinished"]


def test_no_game_is_not_a_record_and_limits_stop_reading() -> None:
    with pytest.raises(InvalidNotationError, match=r"not a \.tmg match record"):
        check_record(HEADER, record_format="tmg")
    with pytest.raises(NotationError, match="more than 1 games"):
        read_tmg(HEADER + GAME, ReadLimits(games=1))
    with pytest.raises(NotationError, match="more than 3 actions_per_game"):
        read_tmg(HEADER + GAME, ReadLimits(actions_per_game=3))
    with pytest.raises(NotationError, match="more than 2 findings"):
        read_tmg(HEADER + "Game 1: 0-0\n" + "junk\n" * 5, ReadLimits(findings=2))
