"""Position strings for tests (NOTATION.md §1), built from the points that matter.

Points are given in White's numbering; Black's own point p is White's 25 - p in backgammon
and p ± 12 in the nardy variants. Expected values built with these are worked out by hand.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from referee.rules.board import Board, Layout, Play, layout_from
from referee.rules.judge import Judgement, PlayJudge
from referee.rules.movegen import legal_plays
from referee.rules.options import Options
from referee.rules.variants import Variant
from vocabulary import Move, Side

Points = Mapping[int, str]
DEFAULT = Options()


def board(points: Points) -> str:
    """The points field: cells 1..24 in White's numbering, e.g. ``{24: "2w", 1: "2b"}``."""
    return ",".join(points.get(point, "") for point in range(1, 25))


def bg(
    points: Points | str,
    turn: str = "w",
    state: str = "31",
    *,
    bar: str = "w0b0",
    off: str = "w0b0",
    tail: str = "1c 0:0-0 -",
) -> str:
    """A backgammon position; ``points`` as cells by point, or a points field as written."""
    field = points if isinstance(points, str) else board(points)
    return f"backgammon {field} {bar} {off} {turn} {state} {tail}"


def nardy(variant: str, points: Points, turn: str, state: str, *, off: str = "w0b0") -> str:
    """A long nardy or khachapuri position (no bar, no cube)."""
    return f"{variant} {board(points)} w0b0 {off} {turn} {state} - 0:0-0 -"


BG_START = {1: "2b", 6: "5w", 8: "3w", 12: "5b", 13: "5w", 17: "3b", 19: "5b", 24: "2w"}
LN_START = {12: "15b", 24: "15w"}
KH_START = {6: "11w", 12: "4b", 18: "11b", 24: "4w"}

# White 24:2, 13:5, 8:3, 6:5 against Black on White's 1, 12, 17, 19 (all made points).
# A 3 can go 24/21, 13/10, 8/5, 6/3; a 1 can go 24/23, 8/7, 6/5 (13/12 is blocked).
# Two checkers: 4 threes x 3 ones = 12 plays, all different.
# One checker: 24/20, 13/9 (only via 10), 8/4, 6/2 = 4 plays.  16 in all.
OPENING_31 = {
    "24/23 24/21",
    "24/21 8/7",
    "24/21 6/5",
    "24/23 13/10",
    "13/10 8/7",
    "13/10 6/5",
    "24/23 8/5",
    "8/7 8/5",
    "8/5 6/5",
    "24/23 6/3",
    "8/7 6/3",
    "6/5 6/3",
    "24/21 21/20",  # one checker: travel order, the larger die first
    "13/10 10/9",  # 13/12 is blocked, so only this order
    "8/5 5/4",
    "6/3 3/2",
}


# -- boards for the rules' own tests -------------------------------------------------------


def lay(*points: tuple[int, int]) -> Layout:
    """A layout in its side's own numbering: (point, count) pairs (25 = the bar), the rest
    of the 15 borne off."""
    return layout_from(points)


def boards(side: Side, mine: Sequence[tuple[int, int]], theirs: Sequence[tuple[int, int]]) -> Board:
    """The board with ``mine`` for ``side`` and ``theirs`` for the other side, each in its
    own numbering."""
    return (
        Board(lay(*mine), lay(*theirs)) if side is Side.WHITE else Board(lay(*theirs), lay(*mine))
    )


def legal(
    variant: type[Variant],
    board: Board,
    side: Side,
    dice: tuple[int, int],
    options: Options = DEFAULT,
) -> list[Play]:
    """Every legal play, as the rules enumerate them."""
    return legal_plays(variant.turn_rules(board, side, dice, options), board, side, dice)


def judged(
    variant: type[Variant],
    board: Board,
    side: Side,
    dice: tuple[int, int],
    moves: Sequence[tuple[int, int]],
    options: Options = DEFAULT,
) -> Judgement:
    """The rules' verdict on a written play of ``(from, to)`` moves (own numbering)."""
    written = [Move(start, end) for start, end in moves]
    return PlayJudge(variant, board, side, dice, options).judge(written)
