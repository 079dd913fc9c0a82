"""Condoned plays (NOTATION.md §4, ``mode: condone``): a physically possible play stands as
written; anything else says why it cannot be done."""

from __future__ import annotations

from referee.rules.condone import play_physically
from referee.rules.variants import Backgammon, LongNardy
from tests.positions import boards, lay
from vocabulary import BAR, OFF, Move, Side

W = Side.WHITE


def test_a_wrong_distance_stands_as_written() -> None:
    # 31 written as 13/5: not the dice, but the checker can be carried there.
    board = boards(W, [(13, 1), (6, 14)], [(13, 15)])
    after = play_physically(Backgammon, board, W, [Move(13, 5)])
    assert not isinstance(after, str)
    assert after.layout(W) == lay((5, 1), (6, 14))


def test_a_blot_is_hit_and_a_made_point_refused() -> None:
    board = boards(W, [(13, 1), (6, 14)], [(20, 1), (13, 14)])  # his 20 is the mover's 5
    after = play_physically(Backgammon, board, W, [Move(13, 5)])
    assert not isinstance(after, str)
    assert after.layout(W.other)[BAR] == 1
    held = boards(W, [(13, 1), (6, 14)], [(20, 2), (13, 13)])
    assert isinstance(play_physically(Backgammon, held, W, [Move(13, 5)]), str)


def test_in_nardy_any_opposing_checker_holds_the_point() -> None:
    # Long nardy: the opponent's 17 is the mover's 5 (p - 12); one checker there blocks it.
    board = boards(W, [(13, 1), (6, 14)], [(17, 1), (24, 14)])
    assert isinstance(play_physically(LongNardy, board, W, [Move(13, 5)]), str)


def test_what_cannot_be_done_is_said() -> None:
    board = boards(W, [(BAR, 1), (13, 1), (6, 13)], [(13, 15)])
    assert "no checker" in str(play_physically(Backgammon, board, W, [Move(9, 5)]))
    assert "enter first" in str(play_physically(Backgammon, board, W, [Move(13, 9)]))
    assert "forward" in str(play_physically(Backgammon, board, W, [Move(6, 8)]))
    home = boards(W, [(13, 1), (6, 14)], [(13, 15)])
    assert "home" in str(play_physically(Backgammon, home, W, [Move(6, OFF)]))


def test_checkers_come_home_before_bearing_off_whatever_the_written_order() -> None:
    # 6/off written before 8/2: the 8 is moved first (highest first), then the 6 bears off.
    board = boards(W, [(8, 1), (6, 1)], [(13, 15)])
    after = play_physically(Backgammon, board, W, [Move(6, OFF), Move(8, 2)])
    assert not isinstance(after, str)
    assert after.layout(W) == lay((2, 1))
