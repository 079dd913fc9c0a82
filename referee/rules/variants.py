"""One class per variant, python-chess style: class-level switches plus hook methods.

The move generator (``movegen``) is shared; it asks the variant for the facts of one turn
(``turn_rules``) and the game result (``classify_win``).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import ClassVar

from referee.errors import InvalidOptionError, UnknownVariantError
from referee.rules.board import HOME_TOP, Board, layout_from
from referee.rules.options import (
    DEFAULT_OPTIONS,
    OPTION_SPECS,
    BlockRule,
    BlockTiming,
    FirstTurnScope,
    HeadException,
    Options,
    json_value,
)
from vocabulary import BAR, CHECKERS, PositionProblem, Side, VariantId


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
    plain: PlainRules
    """The same facts as plain values, as the native engine takes them."""


PlainRules = tuple[str, int | None, int | None, tuple[str, str] | None]
"""Variant id, head limit, head limit if needed, and (block rule, block timing) or None."""


@dataclass(frozen=True, slots=True)
class Win:
    """The value of a won game before the cube: its kind and its points."""

    kind: WinKind
    points: int


HEAD = 24
KIND_VALUES = {WinKind.SINGLE: 1, WinKind.MARS: 2, WinKind.KOKS: 3}
"""Points of each kind of win before the cube (backgammon and long nardy)."""
MARS_POINTS = 2 * CHECKERS
"""A khachapuri mars: 30 points (RULES.md §11)."""


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
    option_names: ClassVar[frozenset[str]]
    """The options of RULES.md §12.1 that apply to this variant."""
    variation_tags: ClassVar[tuple[str, ...]]
    """The ``[Variation "..."]`` values of a record that name this variant (lower case)."""
    kind_words: ClassVar[Mapping[WinKind, str]]
    """How people call each kind of win in this game (the JSON keeps ``WinKind``'s machine
    names): a gammon in backgammon is a mars in nardy."""

    @classmethod
    def options_with(cls, mapping: Mapping[str, object], base: Options | None = None) -> Options:
        """``base`` (default: every default) overridden by ``mapping`` (JSON values); an
        unknown option, a bad value or one that does not apply here is InvalidOptionError."""
        changes = {name: cls.option_value(name, value) for name, value in mapping.items()}
        if not changes:  # most requests set no option: the options are shared, not copied
            return base or DEFAULT_OPTIONS
        return replace(base or DEFAULT_OPTIONS, **changes)  # type: ignore[arg-type]

    @classmethod
    def option_value(cls, name: str, value: object) -> object:
        """Option ``name``'s value given as ``value`` (a JSON value), or InvalidOptionError:
        an unknown option, a bad value, one that does not apply here (``options_with``
        checks each so; a record's header options are checked one by one)."""
        spec = OPTION_SPECS.get(name)
        if spec is None:
            raise InvalidOptionError(f"unknown option {name!r}", option=name)
        if name not in cls.option_names:
            raise InvalidOptionError(f"option {name!r} does not apply to {cls.id}", option=name)
        return spec.convert(value)

    @classmethod
    def options_json(cls, options: Options) -> dict[str, object]:
        """The options that apply here, as JSON values, in RULES.md §12.1's order."""
        return {
            name: json_value(getattr(options, name))
            for name in OPTION_SPECS
            if name in cls.option_names
        }

    @classmethod
    def position_problems(cls, board: Board, has_cube_field: bool) -> list[PositionProblem]:
        """What this variant's positions can never have: a bar without hitting, a cube
        field without the cube."""
        problems = []
        if not cls.hitting and (board.white[BAR] or board.black[BAR]):
            message = f"{cls.id} has no bar: the bar field must be w0b0"
            problems.append(PositionProblem("bar_in_nardy", message, "bar"))
        if not cls.has_cube and has_cube_field:
            message = f"{cls.id} has no cube: the cube field must be -"
            problems.append(PositionProblem("cube_in_nardy", message, "cube"))
        return problems

    @classmethod
    def resignation_values(cls, options: Options) -> frozenset[int]:
        """The values a player may resign for: single, mars and (where it exists) koks."""
        return frozenset(KIND_VALUES[kind] for kind in cls.win_kinds(options))

    @classmethod
    def win_kinds(cls, options: Options) -> tuple[WinKind, ...]:
        return (
            (WinKind.SINGLE, WinKind.MARS, WinKind.KOKS)
            if cls.has_koks(options)
            else (
                WinKind.SINGLE,
                WinKind.MARS,
            )
        )

    @classmethod
    def resignation_win(cls, value: int, cube: int, options: Options) -> Win:
        """A resignation valued from the record's ``Wins N`` as gnubg does (FORMATS.md
        part 1 §5): N up to the cube is single, up to twice the cube mars, more koks where
        koks exists (mars otherwise)."""
        if value <= cube:
            kind = WinKind.SINGLE
        elif value <= 2 * cube or not cls.has_koks(options):
            kind = WinKind.MARS
        else:
            kind = WinKind.KOKS
        return Win(kind, KIND_VALUES[kind])

    @staticmethod
    def opposite(point: int) -> int:
        """The same physical point (1..24) in the other side's own numbering."""
        raise NotImplementedError

    @classmethod
    @functools.cache
    def start_board(cls) -> Board:
        """The board every game of the variant starts from (made once: boards are values)."""
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

    id = VariantId.BACKGAMMON
    title = "Short nardy (backgammon)"
    aliases = ("bg", "short-nardy")
    hitting = True
    has_cube = True
    start = ((24, 2), (13, 5), (8, 3), (6, 5))
    opening_doublets = False
    kind_words: ClassVar[Mapping[WinKind, str]] = {
        WinKind.SINGLE: "a single game",
        WinKind.MARS: "a gammon",
        WinKind.KOKS: "a backgammon",
    }
    option_names = frozenset(
        {"judge", "cube", "cube_limit", "beavers", "auto_doubles", "jacoby", "crawford"}
    )
    variation_tags = ("backgammon", "short nardy")

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
    option_names = frozenset({"block_rule", "block_timing", "judge", "draw_rule", "draw_scoring"})

    @staticmethod
    def opposite(point: int) -> int:
        return point + 12 if point <= 12 else point - 12

    @classmethod
    def block_check(cls, options: Options) -> BlockCheck | None:
        return BlockCheck(options.block_rule, options.block_timing)


class LongNardy(NardyVariant):
    """Long nardy: all 15 on the head, one checker off the head per turn, oin/mars."""

    id = VariantId.LONG_NARDY
    title = "Long nardy"
    aliases = ("ln", "long")
    start = ((HEAD, CHECKERS),)
    option_names = NardyVariant.option_names | {"head_exception", "first_turn_scope", "koks"}
    variation_tags = ("long nardy",)
    kind_words: ClassVar[Mapping[WinKind, str]] = {
        WinKind.SINGLE: "an oin",
        WinKind.MARS: "a mars",
        WinKind.KOKS: "a koks",
    }

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

    id = VariantId.KHACHAPURI
    title = "Khachapuri"
    aliases = ("kh", "khachapuri-nardy")
    start = ((HEAD, 4), (HOME_TOP, 11))
    variation_tags = ("khachapuri",)
    kind_words: ClassVar[Mapping[WinKind, str]] = {
        WinKind.SINGLE: "by the borne-off difference",
        WinKind.MARS: "a mars",
    }

    @classmethod
    def has_koks(cls, options: Options) -> bool:
        return False

    @classmethod
    def classify_win(cls, board: Board, winner: Side, options: Options) -> Win:
        loser_off = board.borne_off(winner.other)
        if loser_off == 0:
            return Win(WinKind.MARS, MARS_POINTS)
        return Win(WinKind.SINGLE, CHECKERS - loser_off)

    @classmethod
    def resignation_values(cls, options: Options) -> frozenset[int]:
        """Any difference a game can end with: 1..14, or 30 for a mars (RULES.md §11)."""
        return frozenset({*range(1, CHECKERS), MARS_POINTS})

    @classmethod
    def resignation_win(cls, value: int, cube: int, options: Options) -> Win:
        """A resignation is worth what it says, at least 1 and at most a mars, 30."""
        points = max(1, min(value, MARS_POINTS))
        return Win(WinKind.MARS if points == MARS_POINTS else WinKind.SINGLE, points)


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
        plain=(
            variant_id,
            head_limit,
            if_needed,
            None if block is None else (str(block.rule), str(block.timing)),
        ),
    )


VARIANTS: tuple[type[Variant], ...] = (Backgammon, LongNardy, Khachapuri)

_OPPOSITES: dict[str, tuple[int, ...]] = {
    variant.id: tuple(variant.opposite(p) if p else 0 for p in range(25)) for variant in VARIANTS
}

_BY_VARIATION: dict[str, type[Variant]] = {
    tag: variant for variant in VARIANTS for tag in variant.variation_tags
}

_BY_NAME: dict[str, type[Variant]] = {
    name: variant for variant in VARIANTS for name in (variant.id, *variant.aliases)
}


def find_variation(tag: str) -> type[Variant] | None:
    """The variant a record's ``[Variation "..."]`` names, or None for one this referee
    cannot check (NackGammon, HyperGammon...)."""
    return _BY_VARIATION.get(tag.strip().lower())


def find_variant(name: str) -> type[Variant]:
    """The variant called ``name`` (an id or an alias, any case)."""
    try:
        return _BY_NAME[name.strip().lower()]
    except KeyError:
        known = ", ".join(variant.id for variant in VARIANTS)
        raise UnknownVariantError(
            f"unknown variant {name!r} (known: {known})", variant=name
        ) from None
