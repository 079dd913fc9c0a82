"""The replay's words and data, without a browser: the closest legal plays first, a dance
in words, a game's result in the referee's points, and a roll's dice kept for the board."""

from __future__ import annotations

from referee.bridge import read_position
from referee.plays import PlaysService
from referee.rules.words import play_words
from referee.web.closest import closeness, closest_plays
from referee.web.viewer import result_words, rolled_before
from vocabulary import Move, Phase, Side

# lasse (White) to play 4-1 in the galaxy record's game 1 (tests/api/test_matches_api.py
# invalid_galaxy): he wrote 13/8 24/23 and meant 13/9 24/23.
GALAXY_41 = "backgammon 1b,,2w,,,5w,,3w,,,1b,4b,3w,,,,2b,2b,5b,,,,,2w w0b0 w0b0 w 41 1c 7:0-0 -"
BG = {"judge": "position", "cube": True, "jacoby": False, "crawford": True}


def test_closeness_counts_the_shared_start_and_end_points() -> None:
    written = (Move(13, 8), Move(24, 23))
    assert closeness(written, (Move(24, 23), Move(13, 9))) == 3  # 13, 24 and 23
    assert closeness(written, (Move(24, 20),)) == 1  # 24
    assert closeness(written, (Move(6, 5), Move(6, 2))) == 0
    # each point counts as often as both plays have it: one 13 written, two played
    assert closeness((Move(13, 9),), (Move(13, 12), Move(13, 9))) == 2


def test_the_closest_legal_plays_come_first_and_are_legal() -> None:
    shown = ("24/23 24/20", "24/20 8/7")
    closest = closest_plays(GALAXY_41, "13/8 24/23", BG, shown)
    assert closest[0] == "24/23 13/9"
    assert 1 < len(closest) <= 5
    legal = PlaysService(GALAXY_41, BG)
    assert all(legal.check(play).legal for play in closest)


def test_an_unreadable_written_play_keeps_the_verdicts_own_alternatives() -> None:
    shown = ("24/23 24/20", "24/20 8/7")
    assert closest_plays(GALAXY_41, "13x8 24/23", BG, shown) == shown


def test_a_dance_is_named() -> None:
    assert play_words("") == "no move"
    assert play_words("24/23 13/9") == "24/23 13/9"


WIN = {"action": "win", "side": "w", "value": 3, "move_number": None, "dice": None}
PLAYERS = ("lasse", "airway12")


def test_a_result_is_said_in_the_referees_points_the_records_beside_them() -> None:
    # galaxy_match1004950_5pt.mat, game 4: a 4-cube resigned as a single game at 2-1 in a
    # 5-point match; Galaxy writes "Wins 3 point" (what lasse needed); the rules give 4.
    scored = {"winner": "w", "points": 4}
    assert result_words(WIN, PLAYERS, scored) == "lasse wins 4 points (the record says 3)"
    assert result_words({**WIN, "value": 4}, PLAYERS, scored) == "lasse wins 4 points"
    # No result by the rules (checking stopped at an error): only the record's claim.
    unscored = {"winner": None, "points": 0}
    assert result_words(WIN, PLAYERS, unscored) == (
        "the record says lasse wins 3 points (no result by the rules)"
    )


def test_a_rolls_step_keeps_its_dice_in_the_position_before() -> None:
    before = GALAXY_41.replace(" w 41 ", " w - ")
    action = {"action": "roll", "side": "w", "dice": [4, 1], "position_before": before}
    position = read_position(rolled_before(action))
    assert (position.turn, position.phase, position.dice) == (Side.WHITE, Phase.MOVE, (4, 1))
    # the opening roll of backgammon: nobody on turn before it
    opening = "backgammon 2b,,,,,5w,,3w,,,,5b,5w,,,,3b,,5b,,,,,2w w0b0 w0b0 - - 1c 0:0-0 -"
    first = read_position(rolled_before({**action, "side": "b", "position_before": opening}))
    assert (first.turn, first.dice) == (Side.BLACK, (4, 1))
    cube = {"action": "double", "side": "w", "dice": None, "position_before": before}
    assert rolled_before(cube) == before
