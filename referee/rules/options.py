"""The rule options of RULES.md §12.1: names, types and defaults (which variants each
applies to is said by the variant classes)."""

from __future__ import annotations

from dataclasses import dataclass, fields
from enum import StrEnum

from referee.errors import InvalidOptionError


class HeadException(StrEnum):
    """Who may take a second checker from the head on a first-turn 6-6, 4-4 or 3-3 (A2)."""

    UNCONDITIONAL = "unconditional"
    ONLY_IF_NEEDED = "only_if_needed"
    OPPONENT_HEAD_ONLY = "opponent_head_only"
    NONE = "none"


class FirstTurnScope(StrEnum):
    """Whose first turn gets the head exception (A1)."""

    EACH_PLAYER = "each_player"
    GAME_FIRST_TURN = "game_first_turn"


class BlockRule(StrEnum):
    """When a six-point block is allowed (A3)."""

    AHEAD = "ahead"
    HOME = "home"


class BlockTiming(StrEnum):
    """When the block rule is checked (A5)."""

    PER_MOVE = "per_move"
    END_OF_TURN = "end_of_turn"


class Judge(StrEnum):
    """How a recorded turn is judged (A6)."""

    POSITION = "position"
    SEQUENCE = "sequence"


class DrawScoring(StrEnum):
    """When oin/mars is decided under the draw rule (A10)."""

    AFTER_EXTRA_TURN = "after_extra_turn"
    AT_FINISH = "at_finish"


@dataclass(frozen=True, slots=True)
class Options:
    """Every option of RULES.md §12.1 with its default; one value object per game or request."""

    head_exception: HeadException = HeadException.UNCONDITIONAL
    first_turn_scope: FirstTurnScope = FirstTurnScope.EACH_PLAYER
    block_rule: BlockRule = BlockRule.AHEAD
    block_timing: BlockTiming = BlockTiming.PER_MOVE
    judge: Judge = Judge.POSITION
    draw_rule: bool = False
    draw_scoring: DrawScoring = DrawScoring.AFTER_EXTRA_TURN
    koks: bool = False
    cube: bool = True
    cube_limit: int = 64
    beavers: bool = False
    auto_doubles: int = 0
    jacoby: bool = True
    crawford: bool = True


DEFAULT_OPTIONS = Options()
"""Every default (immutable, so one instance serves every request that sets nothing)."""


def json_value(value: object) -> object:
    """An option's value as JSON: enums by their value."""
    return str(value) if isinstance(value, StrEnum) else value


@dataclass(frozen=True, slots=True)
class OptionSpec:
    """What one option accepts: an enum, a flag or an integer limit."""

    name: str
    kind: type
    default: object
    description: str

    @property
    def type_name(self) -> str:
        if issubclass(self.kind, StrEnum):
            return "enum"
        return "boolean" if self.kind is bool else "integer"

    @property
    def values(self) -> list[str] | None:
        if issubclass(self.kind, StrEnum):
            return [str(member) for member in self.kind]
        return None

    def convert(self, value: object) -> object:
        """The typed value for a JSON value, or InvalidOptionError naming what is wrong."""
        if issubclass(self.kind, StrEnum):
            if isinstance(value, str) and value in self.values_set:
                return self.kind(value)
            raise self._bad(value, f"one of {', '.join(self.values or [])}")
        if self.kind is bool:
            if isinstance(value, bool):
                return value
            raise self._bad(value, "true or false")
        if isinstance(value, int) and not isinstance(value, bool):
            return self._checked_integer(value)
        raise self._bad(value, "an integer")

    @property
    def values_set(self) -> frozenset[str]:
        return frozenset(self.values or ())

    def _checked_integer(self, value: int) -> int:
        if self.name == "cube_limit" and (value < 2 or value & (value - 1)):
            raise self._bad(value, "a power of two, at least 2")
        if value < 0:
            raise self._bad(value, "a non-negative integer")
        return value

    def _bad(self, value: object, expected: str) -> InvalidOptionError:
        return InvalidOptionError(
            f"option {self.name!r} must be {expected}, not {value!r}", option=self.name
        )


_DESCRIPTIONS = {
    "head_exception": "second head checker on a first-turn 6-6, 4-4 or 3-3 (docs/rules.md#6-2)",
    "first_turn_scope": "whose first turn has the head exception (6.2)",
    "block_rule": "a six-point block needs an opponent checker ahead of it, or in his home (7)",
    "block_timing": "check the block rule after every single move or at the end of the turn",
    "judge": "judge a play by its resulting position or by the literal order of its moves",
    "draw_rule": "the second player gets one more turn when the first bears off (10)",
    "draw_scoring": "count the loser's checkers after the extra turn or at the finish (10.2)",
    "koks": "3 points when the loser has none off and a checker in the winner's home (9.3)",
    "cube": "play with the doubling cube (14.5)",
    "cube_limit": "the largest cube value (14.5)",
    "beavers": "a doubled player may beaver (money play, 14.6)",
    "auto_doubles": "at most this many automatic doubles per game (money play, 14.7)",
    "jacoby": "gammons and backgammons count single in an undoubled game (money play, 14.8)",
    "crawford": "nobody may double in the Crawford game (match play, 14.9)",
}

OPTION_SPECS: dict[str, OptionSpec] = {
    field.name: OptionSpec(
        name=field.name,
        kind=type(field.default),
        default=field.default,
        description=_DESCRIPTIONS[field.name],
    )
    for field in fields(Options)
}
