"""The words every layer shares (notation, rules and service): the variants, the sides and
the cube's owners, what a position asks for next, a single move as written, and the points
``off`` and ``bar``. Closed sets are enums; nothing here imports anything of ours."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Final

OFF: Final = 0
"""Borne off: a point number in each side's own numbering (RULES.md §1.4)."""
BAR: Final = 25
"""The bar (backgammon only), entered from as if it were point 25."""
CHECKERS: Final = 15
"""Checkers per side in every variant."""


class VariantId(StrEnum):
    """The variants' ids, as the API, the position string and the options name them."""

    BACKGAMMON = "backgammon"
    LONG_NARDY = "long-nardy"
    KHACHAPURI = "khachapuri"


class Side(StrEnum):
    """The two players; White is player 0, the left column of a .mat file."""

    WHITE = "w"
    BLACK = "b"

    @property
    def other(self) -> Side:
        return Side.BLACK if self is Side.WHITE else Side.WHITE


class CubeOwner(StrEnum):
    """Who owns the cube, as the position string writes it: ``c`` is centred."""

    CENTRE = "c"
    WHITE = "w"
    BLACK = "b"

    @property
    def side(self) -> Side | None:
        """The owning side, None when centred."""
        return None if self is CubeOwner.CENTRE else Side(self.value)

    @classmethod
    def of(cls, side: Side | None) -> CubeOwner:
        """The owner field for ``side`` (None: centred)."""
        return cls.CENTRE if side is None else cls(side.value)


class Phase(StrEnum):
    """What the side on turn must do now (the position string's state field)."""

    ROLL = "roll"
    MOVE = "move"
    DOUBLED = "doubled"
    RESIGN = "resign"
    END = "end"


@dataclass(frozen=True, slots=True)
class Move:
    """One move as written ``from/to``, in the mover's own numbering (it may span several
    dice); ``hit`` when it is marked ``*``."""

    from_point: int
    to_point: int
    hit: bool = False


def point_text(point: int) -> str:
    """A point as plays write it: ``bar``, ``off`` or its number."""
    return "bar" if point == BAR else "off" if point == OFF else str(point)
