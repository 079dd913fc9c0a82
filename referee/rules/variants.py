"""One class per variant, python-chess style: class-level switches plus hook methods.

The move generator (``movegen``) is shared; it asks the variant for the facts of one turn
(``turn_rules``) and the game result (``classify_win``).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar

from referee.errors import UnknownVariantError
from referee.rules.board import HOME_TOP, Board, layout_from
from referee.rules.options import (
    BACKGAMMON,
    KHACHAPURI,
    LONG_NARDY,
    BlockRule,
    BlockTiming,
    FirstTurnScope,
    HeadException,
    Options,
)
from vocabulary import BAR, CHECKERS, Side, VariantId


class WinKind(StrEnum):
    """How a game was won; the names of RULES.md (mars = gammon, koks = backgammon)."""

    SINGLE = "single"
    MARS = "mars"
    KOKS = "koks"


@dataclass(frozen=True, slots=True)
class BlockCheck:
    """The six-point block rule as it applies to one turn (RULES.md §7)."""

    rule: BlockRule
    timing: BlockTiming


@dataclass(frozen=True, slots=True)
class TurnRules:
    """Everything the move generator needs to know about the rules of one turn."""

    hitting: bool
    opposite: tuple[int, ...]
    """``opposite[p]``: the opponent's own number of the mover's own point p (1..24)."""
    head_limit: int | None
    """How many checkers may leave the head (own 24) this turn; None = no limit."""
    head_limit_if_needed: int | None
    """A larger head limit that applies only when ``head_limit`` cannot play the whole roll."""
    block: BlockCheck | None


@dataclass(frozen=True, slots=True)
class Win:
    """The value of a won game before the cube: its kind and its points."""

    kind: WinKind
    points: int


HEAD = 24


class Variant:
    """Base class: the switches and hooks every variant defines."""

    id: ClassVar[VariantId]
    title: ClassVar[str]
    aliases: ClassVar[tuple[str, ...]]
    hitting: ClassVar[bool]
    has_cube: ClassVar[bool]
    start: ClassVar[tuple[tuple[int, int], ...]]
    """The starting checkers of each side: (own point, count) pairs."""
    opening_doublets: ClassVar[bool]
    """The first roll of a game from the start may be a doublet (nardy: the starter rolls
    afresh, RULES.md 3.1; backgammon: he plays the two different opening dice, 14.2)."""

    @staticmethod
    def opposite(point: int) -> int:
        """The same physical point (1..24) in the other side's own numbering."""
        raise NotImplementedError

    @classmethod
    def start_board(cls) -> Board:
        layout = layout_from(cls.start)
        return Board(layout, layout)

    @classmethod
    def opposite_table(cls) -> tuple[int, ...]:
        return _OPPOSITES[cls.id]

    @classmethod
    def turn_rules(
        cls, board: Board, side: Side, dice: tuple[int, int], options: Options
    ) -> TurnRules:
        """The rules in force for ``side`` playing ``dice`` on ``board``."""
        head_limit = cls.head_limit(board, side, dice, options)
        if_needed = None
        if head_limit == 2 and options.head_exception is HeadException.ONLY_IF_NEEDED:
            head_limit, if_needed = 1, 2
        return _turn_rules(cls.id, head_limit, if_needed, cls.block_check(options))

    @classmethod
    def head_limit(
        cls, board: Board, side: Side, dice: tuple[int, int], options: Options
    ) -> int | None:
        """How many checkers may leave the head this turn; None = no limit."""
        return None

    @classmethod
    def block_check(cls, options: Options) -> BlockCheck | None:
        return None

    @classmethod
    def classify_win(cls, board: Board, winner: Side, options: Options) -> Win:
        """The kind and base points of a game ``winner`` has just won by bearing off."""
        raise NotImplementedError

    @classmethod
    def has_koks(cls, options: Options) -> bool:
        """Whether a game can be won koks (3 points) under ``options``."""
        return True

    @classmethod
    def has_checker_in_home_of(cls, board: Board, loser: Side) -> bool:
        """Whether ``loser`` has a checker on the bar or in the winner's home (own 1..6)."""
        mine = board.layout(loser)
        if mine[BAR]:
            return True
        return any(mine[cls.opposite(point)] for point in range(1, HOME_TOP + 1))


class Backgammon(Variant):
    """Short nardy: standard backgammon with hitting, the bar and the doubling cube."""

    id = BACKGAMMON
    title = "Short nardy (backgammon)"
    aliases = ("bg", "short-nardy")
    hitting = True
    has_cube = True
    start = ((24, 2), (13, 5), (8, 3), (6, 5))
    opening_doublets = False

    @staticmethod
    def opposite(point: int) -> int:
        return 25 - point

    @classmethod
    def classify_win(cls, board: Board, winner: Side, options: Options) -> Win:
        loser = winner.other
        if board.borne_off(loser):
            return Win(WinKind.SINGLE, 1)
        if cls.has_checker_in_home_of(board, loser):
            return Win(WinKind.KOKS, 3)
        return Win(WinKind.MARS, 2)


class NardyVariant(Variant):
    """What long nardy and khachapuri share: no hitting, the block rule, a shared path."""

    hitting = False
    has_cube = False
    opening_doublets = True

    @staticmethod
    def opposite(point: int) -> int:
        return point + 12 if point <= 12 else point - 12

    @classmethod
    def block_check(cls, options: Options) -> BlockCheck | None:
        return BlockCheck(options.block_rule, options.block_timing)


class LongNardy(NardyVariant):
    """Long nardy: all 15 on the head, one checker off the head per turn, oin/mars."""

    id = LONG_NARDY
    title = "Long nardy"
    aliases = ("ln", "long")
    start = ((HEAD, CHECKERS),)

    @classmethod
    def head_limit(
        cls, board: Board, side: Side, dice: tuple[int, int], options: Options
    ) -> int | None:
        if not cls.head_exception_applies(board, side, dice, options):
            return 1
        if options.head_exception is HeadException.OPPONENT_HEAD_ONLY:
            return 2 if cls._stopped_by_opponent_head(board, side, dice[0]) else 1
        return 2

    @classmethod
    def head_exception_applies(
        cls, board: Board, side: Side, dice: tuple[int, int], options: Options
    ) -> bool:
        """A first-turn 6-6, 4-4 or 3-3 with the exception enabled (RULES.md §6.2)."""
        if options.head_exception is HeadException.NONE:
            return False
        if dice[0] != dice[1] or dice[0] not in (3, 4, 6):
            return False
        if board.layout(side)[HEAD] != CHECKERS:
            return False
        if options.first_turn_scope is FirstTurnScope.GAME_FIRST_TURN:
            return board.layout(side.other)[HEAD] == CHECKERS
        return True

    @classmethod
    def _stopped_by_opponent_head(cls, board: Board, side: Side, die: int) -> bool:
        """Whether one head checker's path is first stopped at the opponent's head."""
        theirs = board.layout(side.other)
        for point in range(HEAD - die, 0, -die):
            if theirs[cls.opposite(point)]:
                return cls.opposite(point) == HEAD
        return False

    @classmethod
    def has_koks(cls, options: Options) -> bool:
        return options.koks

    @classmethod
    def classify_win(cls, board: Board, winner: Side, options: Options) -> Win:
        loser = winner.other
        if board.borne_off(loser):
            return Win(WinKind.SINGLE, 1)
        if cls.has_koks(options) and cls.has_checker_in_home_of(board, loser):
            return Win(WinKind.KOKS, 3)
        return Win(WinKind.MARS, 2)


class Khachapuri(NardyVariant):
    """Khachapuri: long nardy from 4 + 11, no head limit, scored by borne-off difference."""

    id = KHACHAPURI
    title = "Khachapuri"
    aliases = ("kh", "khachapuri-nardy")
    start = ((HEAD, 4), (HOME_TOP, 11))

    @classmethod
    def has_koks(cls, options: Options) -> bool:
        return False

    @classmethod
    def classify_win(cls, board: Board, winner: Side, options: Options) -> Win:
        loser_off = board.borne_off(winner.other)
        if loser_off == 0:
            return Win(WinKind.MARS, 2 * CHECKERS)
        return Win(WinKind.SINGLE, CHECKERS - loser_off)


@functools.lru_cache(maxsize=256)
def _turn_rules(
    variant_id: str, head_limit: int | None, if_needed: int | None, block: BlockCheck | None
) -> TurnRules:
    """One shared TurnRules per distinct set of facts (records ask for one every turn;
    keyed by these few values, not by the whole Options, which is slower to hash)."""
    variant = find_variant(variant_id)
    return TurnRules(
        hitting=variant.hitting,
        opposite=variant.opposite_table(),
        head_limit=head_limit,
        head_limit_if_needed=if_needed,
        block=block,
    )


VARIANTS: tuple[type[Variant], ...] = (Backgammon, LongNardy, Khachapuri)

_OPPOSITES: dict[str, tuple[int, ...]] = {
    variant.id: tuple(variant.opposite(p) if p else 0 for p in range(25)) for variant in VARIANTS
}

_BY_NAME: dict[str, type[Variant]] = {
    name: variant for variant in VARIANTS for name in (variant.id, *variant.aliases)
}


def find_variant(name: str) -> type[Variant]:
    """The variant called ``name`` (an id or an alias, any case)."""
    try:
        return _BY_NAME[name.strip().lower()]
    except KeyError:
        known = ", ".join(variant.id for variant in VARIANTS)
        raise UnknownVariantError(
            f"unknown variant {name!r} (known: {known})", variant=name
        ) from None
