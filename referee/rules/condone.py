"""Condoned plays (NOTATION.md §4, ``mode: condone``): an illegal play that is physically
possible stands as played; anything else is an impossible action."""

from __future__ import annotations

from collections.abc import Sequence

from referee.rules.board import HOME_TOP, Board
from referee.rules.variants import Variant
from vocabulary import BAR, OFF, Move, Side


def play_physically(
    variant: type[Variant], board: Board, side: Side, moves: Sequence[Move]
) -> Board | str:
    """The board after moving the checkers as written, or why that cannot be done.

    Each move is one jump: own checker, forward, from where it stands, onto a point not
    blocked (two or more opposing checkers in backgammon, any in the nardy variants),
    the bar first, bearing off only with every checker home. Distances and dice are not
    checked: that is what condoning means.
    """
    mine = list(board.layout(side))
    theirs = list(board.layout(side.other))
    # Bar first, then from the highest point: checkers come home before others bear off.
    for move in sorted(moves, key=lambda move: move.from_point, reverse=True):
        origin, target = move.from_point, move.to_point
        if not (0 < origin <= BAR and 0 <= target < origin):
            return f"{origin}/{target} does not move a checker forward on the board"
        if not mine[origin]:
            return f"there is no checker of yours on {origin}"
        if origin != BAR and mine[BAR]:
            return "a checker on the bar must enter first"
        if target == OFF and any(mine[HOME_TOP + 1 :]):
            return "bearing off needs every checker in the home"
        if target != OFF:
            where = variant.opposite(target)
            blocked = theirs[where] > (1 if variant.hitting else 0)
            if blocked:
                return f"{target} is held by the opponent"
            if theirs[where]:
                theirs[where] -= 1
                theirs[BAR] += 1
        mine[origin] -= 1
        mine[target] += 1
    return board.with_layouts(side, tuple(mine), tuple(theirs))
