"""Between games (RULES.md §14.9): the Crawford game and every game's start."""

from __future__ import annotations

import pytest

from referee.rules.match import crawford_status, starting_position
from referee.rules.options import Options
from referee.rules.position import Cube
from referee.rules.variants import Backgammon, Khachapuri, LongNardy

DEFAULT = Options()


@pytest.mark.parametrize(
    ("score", "played", "status"),
    [
        ((4, 2), False, (True, False)),  # first game with one player at 5 - 1: Crawford
        ((2, 4), False, (True, False)),
        ((4, 3), True, (False, True)),  # after it: post-Crawford
        ((3, 2), False, (False, False)),  # nobody at 4 yet
        ((3, 2), True, (False, False)),  # (post-Crawford needs a player at 4)
    ],
)
def test_the_crawford_game_of_a_5_point_match(
    score: tuple[int, int], played: bool, status: tuple[bool, bool]
) -> None:
    assert crawford_status(Backgammon, DEFAULT, 5, score, played) == status


def test_no_crawford_in_money_play_without_the_rule_or_without_a_cube() -> None:
    assert crawford_status(Backgammon, DEFAULT, 0, (0, 0), False) == (False, False)
    assert crawford_status(Backgammon, Options(crawford=False), 5, (4, 0), False) == (False, False)
    assert crawford_status(LongNardy, DEFAULT, 5, (4, 0), False) == (False, False)


def test_a_game_starts_from_the_variants_board_with_a_centred_cube_where_it_has_one() -> None:
    start = starting_position(Backgammon, DEFAULT, 7, (3, 6), (True, False))
    assert (start.board, start.cube, start.turn) == (Backgammon.start_board(), Cube(), None)
    assert (start.match_length, start.score, start.crawford, start.post_crawford) == (
        7,
        (3, 6),
        True,
        False,
    )
    assert starting_position(Backgammon, Options(cube=False), 0, (0, 0)).cube is None
    assert starting_position(Khachapuri, DEFAULT, 0, (0, 0)).cube is None
