"""Sides, checker layouts and the values a turn is made of (steps, plays).

A side's checkers are kept in its *own* numbering (RULES.md §1.4, §14.1): index 0 = borne
off, 1..24 = its own points (24 = where it starts, 1..6 = its home), 25 = the bar.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Final, NamedTuple

from vocabulary import CHECKERS, OFF, Side

HOME_TOP: Final = 6

Layout = tuple[int, ...]
"""26 counts in a side's own numbering: [off, point 1, ..., point 24, bar]."""


@dataclass(frozen=True, slots=True)
class Board:
    """Where every checker stands, each side in its own numbering."""

    white: Layout
    black: Layout

    def layout(self, side: Side) -> Layout:
        return self.white if side is Side.WHITE else self.black

    def with_layouts(self, mover: Side, mine: Layout, theirs: Layout) -> Board:
        """The board with ``mine`` for ``mover`` and ``theirs`` for the other side."""
        return Board(mine, theirs) if mover is Side.WHITE else Board(theirs, mine)

    def borne_off(self, side: Side) -> int:
        return self.layout(side)[OFF]

    def pips(self, side: Side) -> int:
        """The side's pip count: the distance its checkers still have to travel."""
        return sum(point * count for point, count in enumerate(self.layout(side)))


def layout_from(points: Iterable[tuple[int, int]]) -> Layout:
    """A layout with the given (own point, count) pairs and the rest of the 15 borne off."""
    cells = [0] * 26
    for point, count in points:
        cells[point] += count
    cells[OFF] = CHECKERS - sum(cells[1:])
    return tuple(cells)


class Step(NamedTuple):
    """One die played by one checker, in the mover's own numbering; ``hit`` if it hit a blot.

    A named tuple rather than a frozen dataclass: the move generator makes millions.
    """

    from_point: int
    to_point: int
    die: int
    hit: bool = False


@dataclass(frozen=True, slots=True)
class Play:
    """A legal play: its canonical step sequence and the board it leads to.

    The steps are in the order the search first found them (larger die first, from the
    highest point); ``movegen.display_order`` gives the order plays are written in.
    """

    steps: tuple[Step, ...]
    board: Board
