"""The cube negotiation as a state machine (RULES.md §14.5-14.9), without any record."""

from __future__ import annotations

import pytest

from referee.rules.cube import (
    CubeContext,
    CubeRule,
    CubeState,
    starting_cube_problem,
    value_problem,
)
from referee.rules.options import Options
from referee.rules.position import Cube
from vocabulary import Side

W, B = Side.WHITE, Side.BLACK
MONEY = CubeContext(crawford_game=False, money=True, options=Options(beavers=True))
MATCH = CubeContext(crawford_game=False, money=False, options=Options())
CENTRED = CubeState(Cube())


def test_a_centred_cube_may_be_doubled_by_either_side_before_rolling() -> None:
    assert CENTRED.double_problem(MATCH, W, before_roll=True) is None
    assert CENTRED.double_problem(MATCH, B, before_roll=True) is None
    assert CENTRED.double_problem(MATCH, W, before_roll=False) is CubeRule.NOT_BEFORE_ROLL


def test_only_the_owner_redoubles() -> None:
    owned = CubeState(Cube(2, B))
    assert owned.double_problem(MATCH, W, before_roll=True) is CubeRule.NOT_CUBE_OWNER
    assert owned.double_problem(MATCH, B, before_roll=True) is None


def test_no_double_in_the_crawford_game_but_in_money_play_crawford_means_nothing() -> None:
    crawford = CubeContext(crawford_game=True, money=False, options=Options())
    assert CENTRED.double_problem(crawford, W, True) is CubeRule.CRAWFORD_GAME
    money = CubeContext(crawford_game=True, money=True, options=Options())
    assert CENTRED.double_problem(money, W, True) is None


def test_no_cube_at_all() -> None:
    assert CubeState(None).double_problem(MATCH, W, True) is CubeRule.NO_CUBE
    cubeless = CubeContext(False, False, Options(cube=False))
    assert CENTRED.double_problem(cubeless, W, True) is CubeRule.NO_CUBE


def test_a_double_offers_twice_the_cube_and_nothing_else() -> None:
    owned = CubeState(Cube(4, W))
    assert owned.double_problem(MATCH, W, True, written=8) is None
    assert owned.double_problem(MATCH, W, True, written=16) is CubeRule.WRONG_CUBE_VALUE


def test_a_double_past_the_limit_is_refused() -> None:
    limit_8 = CubeContext(False, False, Options(cube_limit=8))
    assert CubeState(Cube(4, W)).double_problem(limit_8, W, True) is None
    assert CubeState(Cube(8, W)).double_problem(limit_8, W, True) is CubeRule.CUBE_LIMIT


def test_take_gives_the_doubled_side_the_cube_and_the_doubler_rolls() -> None:
    offered = CENTRED.after_double(W)
    assert offered.offer is not None
    assert (offered.offer.value, offered.offer.roller, offered.offer.by) == (2, W, W)
    assert offered.shown == Cube(2, None)  # the position shows the value offered
    assert offered.standing == Cube(1, None)  # dropped now, the game is worth 1
    assert offered.doubled
    taken = offered.after_take(B)
    assert (taken.cube, taken.offer, taken.standing) == (Cube(2, B), None, Cube(2, B))


def test_only_the_doubled_side_answers() -> None:
    offered = CENTRED.after_double(W)
    assert offered.answer_problem(W) is CubeRule.NOT_DOUBLED_SIDE
    assert offered.answer_problem(B) is None
    assert CENTRED.answer_problem(B) is CubeRule.NO_DOUBLE_PENDING
    assert offered.drop_winner is W


def test_a_beaver_redoubles_the_offer_and_its_maker_keeps_the_cube() -> None:
    # White doubles to 2; Black beavers to 4. If White drops he loses 2 (the doubled stake,
    # 14.6); if he takes, Black owns the cube at 4.
    beavered = CENTRED.after_double(W).after_beaver(B)
    assert beavered.offer is not None and beavered.offer.value == 4
    assert beavered.standing == Cube(2, B)
    assert beavered.drop_winner is B
    assert beavered.after_take(W).cube == Cube(4, B)


def test_a_raccoon_redoubles_the_beaver() -> None:
    raccoon = CENTRED.after_double(W).after_beaver(B).after_beaver(W)
    assert raccoon.offer is not None and raccoon.offer.value == 8
    assert raccoon.standing == Cube(4, W)
    assert raccoon.drop_winner is W
    assert raccoon.after_take(B).cube == Cube(8, W)


def test_a_beaver_must_redouble_exactly_the_offer() -> None:
    offered = CENTRED.after_double(W)
    assert offered.beaver_problem(MONEY, B, written=4) is None
    assert offered.beaver_problem(MONEY, B, written=8) is CubeRule.WRONG_CUBE_VALUE
    assert offered.beaver_problem(MONEY, B, written=2) is CubeRule.WRONG_CUBE_VALUE
    raccoon = offered.after_beaver(B)
    assert raccoon.beaver_problem(MONEY, W, written=8) is None
    assert raccoon.beaver_problem(MONEY, W, written=16) is CubeRule.WRONG_CUBE_VALUE


def test_beavers_only_in_money_play_with_the_option_and_under_the_limit() -> None:
    offered = CENTRED.after_double(W)
    assert offered.beaver_problem(MATCH, B) is CubeRule.BEAVER_NOT_ALLOWED
    no_beavers = CubeContext(False, True, Options())
    assert offered.beaver_problem(no_beavers, B) is CubeRule.BEAVER_NOT_ALLOWED
    limit_2 = CubeContext(False, True, Options(beavers=True, cube_limit=2))
    assert offered.beaver_problem(limit_2, B) is CubeRule.CUBE_LIMIT
    assert offered.beaver_problem(MONEY, W) is CubeRule.NOT_DOUBLED_SIDE


def test_the_doublers_roll_implies_the_take_of_a_beaver_and_of_a_raccoon_alike() -> None:
    beavered = CENTRED.after_double(W).after_beaver(B)
    raccoon = beavered.after_beaver(W)
    assert beavered.implied_take_problem(W) is None
    assert raccoon.implied_take_problem(W) is None
    # A plain double needs its answer; the beaverer does not roll next.
    assert CENTRED.after_double(W).implied_take_problem(W) is CubeRule.ANSWER_REQUIRED
    assert beavered.implied_take_problem(B) is CubeRule.ANSWER_REQUIRED


@pytest.mark.parametrize(
    ("cube", "money", "auto_doubles", "limit", "problem"),
    [
        (Cube(), False, 0, 64, None),
        (Cube(4), True, 2, 64, None),  # two automatic doubles: 1 -> 2 -> 4
        (Cube(8), True, 2, 64, CubeRule.AUTO_DOUBLES),  # three, only two agreed
        (Cube(2), False, 2, 64, CubeRule.AUTO_DOUBLES),  # match play
        (Cube(2, W), True, 2, 64, CubeRule.AUTO_DOUBLES),  # automatic doubles stay centred
        (Cube(128), True, 9, 64, CubeRule.CUBE_LIMIT),  # never past the limit
    ],
)
def test_a_game_starts_doubled_only_by_automatic_doubles(
    cube: Cube, money: bool, auto_doubles: int, limit: int, problem: CubeRule | None
) -> None:
    options = Options(auto_doubles=auto_doubles, cube_limit=limit)
    assert starting_cube_problem(cube, money, options) is problem


def test_the_one_value_check() -> None:
    assert value_problem(64, Options()) is None
    assert value_problem(128, Options()) is CubeRule.CUBE_LIMIT
    assert value_problem(1024, Options(cube_limit=1024)) is None


def test_a_raccoon_answers_a_beaver_and_nothing_else() -> None:
    offered = CENTRED.after_double(W)
    assert offered.beaver_problem(MONEY, B, raccoon=True) is CubeRule.NO_BEAVER_PENDING
    assert offered.after_beaver(B).beaver_problem(MONEY, W, raccoon=True) is None
