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


SIDES: Final = (Side.WHITE, Side.BLACK)
"""Both sides, White first (a tuple: iterating the enum class costs more, per turn)."""


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


class IssueCode(StrEnum):
    """Every code a verdict's errors and warnings carry (NOTATION.md §4): the one catalogue
    the reader, the rules and the adjudication all write from."""

    # errors: the game's checking found an action the rules do not allow
    ILLEGAL_PLAY = "illegal_play"
    ILLEGAL_CUBE_ACTION = "illegal_cube_action"
    IMPOSSIBLE_ACTION = "impossible_action"
    ACTION_AFTER_END = "action_after_end"
    UNSUPPORTED_VARIANT = "unsupported_variant"
    # warnings about the record's text, found while reading it
    UNREADABLE_CELL = "unreadable_cell"
    UNREADABLE_PLAY = "unreadable_play"
    LINE_TOO_LONG = "line_too_long"
    UNEXPECTED_LINE = "unexpected_line"
    MISSING_SCORE_LINE = "missing_score_line"
    INVALID_HEADER = "invalid_header"
    INVALID_START_POSITION = "invalid_start_position"
    VARIATION_IGNORED = "variation_ignored"
    SEVERAL_MATCHES = "several_matches"
    REPEATED_ROLL = "repeated_roll"
    # warnings about plays, edits and results
    UNKNOWN_PLAY = "unknown_play"
    PLAY_NOT_WRITTEN = "play_not_written"
    BARE_ROLL = "bare_roll"
    HIT_NOT_MARKED = "hit_not_marked"
    HIT_MARK_WRONG = "hit_mark_wrong"
    POSITION_EDIT = "position_edit"
    LOSSES_LINE = "losses_line"
    UNFINISHED_GAME = "unfinished_game"
    RESULT_MISMATCH = "result_mismatch"
    GAME_NUMBER = "game_number"
    SCORE_MISMATCH = "score_mismatch"
    GAME_AFTER_MATCH = "game_after_match"


@dataclass(frozen=True, slots=True)
class Move:
    """One move as written ``from/to``, in the mover's own numbering (it may span several
    dice); ``hit`` when it is marked ``*``."""

    from_point: int
    to_point: int
    hit: bool = False


@dataclass(frozen=True, slots=True)
class PositionProblem:
    """One reason a well-formed position is not a valid one: a stable code, a sentence and
    the position string's field at fault (when one field alone is)."""

    code: str
    message: str
    field: str | None = None


def point_text(point: int) -> str:
    """A point as plays write it: ``bar``, ``off`` or its number."""
    return "bar" if point == BAR else "off" if point == OFF else str(point)
