"""Hand-worked backgammon (short nardy) cases from RULES.md §5, §8 and §14, at the rules
level. Points are in the mover's own numbering; the opponent's own point q is the mover's
25 - q (§14.1). Every expectation is reasoned in its comment, not read off the engine."""

from __future__ import annotations

import pytest

from referee.rules.variants import Backgammon, WinKind
from tests.positions import DEFAULT, boards, judged, lay, legal
from vocabulary import BAR, OFF, Side

W, B = Side.WHITE, Side.BLACK
SIDES = pytest.mark.parametrize("side", [W, B])


@SIDES
def test_a_checker_on_the_bar_enters_first_then_the_other_die_is_played(side: Side) -> None:
    # Mover: one on the bar, 14 on his 6. The opponent holds his own 2..6 (the mover's
    # 23..19) and has 5 on his 13. 6-1: the 6 would enter on 19 (held); the 1 enters on 24,
    # open. Then the 6: 6/off is barred (a checker is outside home), so 24/18. One play.
    board = boards(side, [(BAR, 1), (6, 14)], [(2, 2), (3, 2), (4, 2), (5, 2), (6, 2), (13, 5)])
    [play] = legal(Backgammon, board, side, (6, 1))
    assert play.board.layout(side) == lay((18, 1), (6, 14))
    assert judged(Backgammon, board, side, (6, 1), [(6, 0), (BAR, 24)]).legal is False


@SIDES
def test_against_a_closed_board_the_roll_is_lost(side: Side) -> None:
    # The opponent holds all six points of his home (the mover's 19..24): nothing enters,
    # and nothing else may move while a checker is on the bar (14.3). One play: no move.
    closed = [(point, 2) for point in range(1, 7)] + [(13, 3)]
    board = boards(side, [(BAR, 1), (6, 14)], closed)
    [play] = legal(Backgammon, board, side, (6, 5))
    assert play.steps == () and play.board == board


@SIDES
def test_landing_on_a_blot_hits_it_to_the_bar(side: Side) -> None:
    # Mover on his 24 and 6 (14 there); an opponent blot on the opponent's own 4 = the
    # mover's 21. 24/21* 6/5 with 3-1 hits it: the opponent then has one on the bar.
    board = boards(side, [(24, 1), (6, 14)], [(4, 1), (13, 14)])
    verdict = judged(Backgammon, board, side, (3, 1), [(24, 21), (6, 5)])
    assert verdict.legal and verdict.board is not None
    theirs = verdict.board.layout(side.other)
    assert (theirs[BAR], theirs[4]) == (1, 0)


@SIDES
def test_a_point_held_by_two_is_closed(side: Side) -> None:
    # The same, with two opponent checkers on his 4 (the mover's 21): 24/21 cannot land.
    board = boards(side, [(24, 1), (6, 14)], [(4, 2), (13, 13)])
    verdict = judged(Backgammon, board, side, (3, 1), [(24, 21), (6, 5)])
    assert verdict.reason is not None and verdict.reason.code == "blocked_point"


@SIDES
def test_bearing_off_uses_a_larger_die_from_the_highest_point(side: Side) -> None:
    # Mover on his 4 and 3, 13 off; 6-5. The 6 bears off the 4 (no checker on 6 or 5), the
    # 5 then bears off the 3 (none higher left): the only play, and the game is won.
    board = boards(side, [(4, 1), (3, 1)], [(19, 2), (13, 13)])
    [play] = legal(Backgammon, board, side, (6, 5))
    assert play.board.layout(side)[OFF] == 15
    # Written in either order it is the same play (judged by position).
    assert judged(Backgammon, board, side, (6, 5), [(3, 0), (4, 0)]).legal


@SIDES
def test_when_only_one_die_can_be_played_it_must_be_the_larger(side: Side) -> None:
    # One checker on the mover's 13 (14 off). 13/7 (the 6) and 13/8 (the 5) are open, but
    # from 7 a 5 and from 8 a 6 both land on 2, held by the opponent (his own 23). Either
    # die alone can be played, not both: the larger must be (RULES.md 5.2).
    board = boards(side, [(13, 1)], [(23, 2), (1, 13)])
    [play] = legal(Backgammon, board, side, (6, 5))
    assert [(step.from_point, step.to_point) for step in play.steps] == [(13, 7)]
    verdict = judged(Backgammon, board, side, (6, 5), [(13, 8)])
    assert verdict.reason is not None and verdict.reason.code == "larger_die_required"


@pytest.mark.parametrize(
    ("loser", "kind"),
    [
        ([(1, 1), (13, 13)], WinKind.SINGLE),  # one off already: single (14.8)
        ([(13, 15)], WinKind.MARS),  # none off, none in the winner's home: gammon
        ([(24, 1), (13, 14)], WinKind.KOKS),  # his 24 is the winner's 1: backgammon
        ([(BAR, 1), (13, 14)], WinKind.KOKS),  # on the bar: backgammon
    ],
)
def test_the_kind_of_a_win(loser: list[tuple[int, int]], kind: WinKind) -> None:
    board = boards(W, [], loser)
    assert Backgammon.classify_win(board, W, DEFAULT).kind is kind
