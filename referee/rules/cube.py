"""The doubling cube (RULES.md §14.5-14.7, §14.9): who may double, take, drop or beaver."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from referee.rules.board import Side
from referee.rules.options import Options
from referee.rules.position import Cube


class CubeRule(StrEnum):
    """Why a cube action is illegal: stable codes."""

    NO_CUBE = "no_cube"
    CRAWFORD_GAME = "crawford_game"
    NOT_CUBE_OWNER = "not_cube_owner"
    NOT_BEFORE_ROLL = "not_before_roll"
    CUBE_LIMIT = "cube_limit"
    WRONG_CUBE_VALUE = "wrong_cube_value"
    NO_DOUBLE_PENDING = "no_double_pending"
    NOT_DOUBLED_SIDE = "not_doubled_side"
    BEAVER_NOT_ALLOWED = "beaver_not_allowed"
    ANSWER_REQUIRED = "answer_required"
    AUTO_DOUBLES = "auto_doubles"


MESSAGES = {
    CubeRule.NO_CUBE: "this game is played without the doubling cube",
    CubeRule.CRAWFORD_GAME: "nobody may double in the Crawford game (RULES.md 14.9)",
    CubeRule.NOT_CUBE_OWNER: "only the cube's owner may double (RULES.md 14.5)",
    CubeRule.NOT_BEFORE_ROLL: "a double is offered on one's own turn, before rolling (14.5)",
    CubeRule.CUBE_LIMIT: "the double would pass the cube limit (RULES.md 14.5)",
    CubeRule.WRONG_CUBE_VALUE: "a double offers twice the cube's value (RULES.md 14.5)",
    CubeRule.NO_DOUBLE_PENDING: "there is no double to answer",
    CubeRule.NOT_DOUBLED_SIDE: "only the doubled player answers a double",
    CubeRule.BEAVER_NOT_ALLOWED: "beavers are allowed only in money play with beavers on (14.6)",
    CubeRule.ANSWER_REQUIRED: "a double must be taken or dropped before play goes on",
    CubeRule.AUTO_DOUBLES: (
        "a game starts with a centred cube above 1 only by automatic doubles, in money play"
        " and at most auto_doubles times (RULES.md 14.7)"
    ),
}


@dataclass(frozen=True, slots=True)
class CubeContext:
    """The facts about the game that decide whether a cube action is allowed."""

    cube: Cube | None
    crawford_game: bool
    money: bool
    options: Options


def double_problem(
    context: CubeContext, side: Side, before_roll: bool, offered: int | None
) -> CubeRule | None:
    """Why ``side`` may not double now (None if he may)."""
    cube = context.cube
    if cube is None or not context.options.cube:
        return CubeRule.NO_CUBE
    if context.crawford_game and context.options.crawford and not context.money:
        return CubeRule.CRAWFORD_GAME
    if not before_roll:
        return CubeRule.NOT_BEFORE_ROLL
    if cube.owner is not None and cube.owner is not side:
        return CubeRule.NOT_CUBE_OWNER
    if offered is not None and offered != 2 * cube.value:
        return CubeRule.WRONG_CUBE_VALUE
    if 2 * cube.value > context.options.cube_limit:
        return CubeRule.CUBE_LIMIT
    return None


def beaver_problem(context: CubeContext, offered: int) -> CubeRule | None:
    """Why the doubled player may not beaver the ``offered`` cube (None if he may)."""
    if not (context.money and context.options.beavers):
        return CubeRule.BEAVER_NOT_ALLOWED
    if 2 * offered > context.options.cube_limit:
        return CubeRule.CUBE_LIMIT
    return None


def starting_cube_problem(cube: Cube | None, money: bool, options: Options) -> CubeRule | None:
    """Why a game may not start with ``cube`` (automatic doubles, RULES.md 14.7)."""
    if cube is None or cube.value == 1:
        return None
    doubles = cube.value.bit_length() - 1
    if cube.owner is not None or not money or doubles > options.auto_doubles:
        return CubeRule.AUTO_DOUBLES
    return None
