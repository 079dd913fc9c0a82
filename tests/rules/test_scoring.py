"""What games are worth (RULES.md §9-§11, §14.8): each value worked out in its comment."""

from __future__ import annotations

import pytest

from referee.rules.options import Options
from referee.rules.scoring import (
    Stake,
    Termination,
    score_bore_off,
    score_draw,
    score_drop,
    score_resignation,
)
from referee.rules.variants import Backgammon, Khachapuri, LongNardy, WinKind
from tests.positions import DEFAULT, boards
from vocabulary import Side

W, B = Side.WHITE, Side.BLACK
# White has borne off all 15; Black has none off, all on his 13 (not White's home): mars.
GAMMON = boards(W, [], [(13, 15)])


def test_a_gammon_counts_twice_the_cube() -> None:
    result = score_bore_off(Backgammon, GAMMON, W, Stake(cube=2, cube_owner=B), DEFAULT)
    assert (result.kind, result.points, result.cube, result.cube_owner) == (
        WinKind.MARS,
        4,
        2,
        B,
    )
    assert result.termination is Termination.BORE_OFF and not result.jacoby_applied


def test_under_jacoby_an_undoubled_gammon_counts_single() -> None:
    # 14.8: with no double offered a gammon is a single, times the cube (2 by an
    # automatic double): 2 points.
    result = score_bore_off(Backgammon, GAMMON, W, Stake(cube=2, jacoby=True), DEFAULT)
    assert (result.kind, result.points, result.jacoby_applied) == (WinKind.MARS, 2, True)


def test_a_drop_gives_the_doubler_the_cube_before_the_double() -> None:
    result = score_drop(B, Stake(cube=4, cube_owner=W))
    assert (result.winner, result.termination, result.points, result.kind) == (
        B,
        Termination.DROP,
        4,
        None,
    )


@pytest.mark.parametrize(
    ("value", "kind", "points"),
    [(2, WinKind.SINGLE, 2), (4, WinKind.MARS, 4), (6, WinKind.KOKS, 6), (5, WinKind.KOKS, 6)],
)
def test_a_backgammon_resignation_is_valued_as_gnubg_does(
    value: int, kind: WinKind, points: int
) -> None:
    # Cube 2: Wins 2 is a single, up to 4 a mars, more a koks (FORMATS.md part 1 §5).
    result = score_resignation(Backgammon, W, value, Stake(cube=2), DEFAULT)
    assert (result.kind, result.points, result.termination) == (kind, points, Termination.RESIGN)


def test_long_nardy_resigns_at_most_a_mars_without_koks() -> None:
    assert score_resignation(LongNardy, W, 3, Stake(), DEFAULT).points == 2
    assert score_resignation(LongNardy, W, 3, Stake(), Options(koks=True)).points == 3


@pytest.mark.parametrize(
    ("value", "points", "kind"), [(7, 7, WinKind.SINGLE), (40, 30, WinKind.MARS)]
)
def test_khachapuri_resignations_are_worth_what_they_say_up_to_30(
    value: int, points: int, kind: WinKind
) -> None:
    result = score_resignation(Khachapuri, B, value, Stake(), DEFAULT)
    assert (result.points, result.kind) == (points, kind)


@pytest.mark.parametrize(
    ("loser_off", "points", "kind"), [(5, 10, WinKind.SINGLE), (0, 30, WinKind.MARS)]
)
def test_khachapuri_scores_the_difference_and_30_for_a_mars(
    loser_off: int, points: int, kind: WinKind
) -> None:
    # §11: the winner scores 15 - the loser's borne-off checkers; none off is a mars, 30.
    loser = [(13, 15 - loser_off)]
    result = score_bore_off(Khachapuri, boards(W, [], loser), W, Stake(), DEFAULT)
    assert (result.points, result.kind) == (points, kind)


def test_a_draw_scores_nothing() -> None:
    result = score_draw(Stake())
    assert (result.winner, result.termination, result.points) == (None, Termination.DRAW, 0)
