"""The doubling cube (RULES.md §14.5-14.9): who may double, take, drop or beaver, and the
negotiation as a small state machine that record checking and live matches both drive."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from referee.rules.options import Options
from referee.rules.position import Cube
from referee.rules.scoring import Stake
from vocabulary import Side


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
    NO_BEAVER_PENDING = "no_beaver_pending"
    ANSWER_REQUIRED = "answer_required"
    AUTO_DOUBLES = "auto_doubles"


MESSAGES = {
    CubeRule.NO_CUBE: "this game is played without the doubling cube",
    CubeRule.CRAWFORD_GAME: "nobody may double in the Crawford game (docs/rules.md#14-9)",
    CubeRule.NOT_CUBE_OWNER: "only the cube's owner may double (docs/rules.md#14-5)",
    CubeRule.NOT_BEFORE_ROLL: "a double is offered on one's own turn, before rolling (14.5)",
    CubeRule.CUBE_LIMIT: "the cube would pass the cube limit (docs/rules.md#14-5)",
    CubeRule.WRONG_CUBE_VALUE: (
        "a double, beaver or raccoon offers twice the cube's value (docs/rules.md#14-5)"
    ),
    CubeRule.NO_DOUBLE_PENDING: "there is no double to answer",
    CubeRule.NOT_DOUBLED_SIDE: "only the doubled player answers a double",
    CubeRule.BEAVER_NOT_ALLOWED: "beavers are allowed only in money play with beavers on (14.6)",
    CubeRule.NO_BEAVER_PENDING: "a raccoon answers a beaver: there is none to answer",
    CubeRule.ANSWER_REQUIRED: "a double must be taken or dropped before play goes on",
    CubeRule.AUTO_DOUBLES: (
        "a game starts with a centred cube above 1 only by automatic doubles, in money play"
        " and at most auto_doubles times (docs/rules.md#14-7)"
    ),
}


@dataclass(frozen=True, slots=True)
class CubeContext:
    """The facts about the game that decide whether a cube action is allowed."""

    crawford_game: bool
    money: bool
    options: Options


def value_problem(value: int, options: Options) -> CubeRule | None:
    """Why the cube may not take ``value``: the one check every change of the cube's value
    goes through (a double, beaver, raccoon, automatic doubles, a start position)."""
    if value > options.cube_limit:
        return CubeRule.CUBE_LIMIT
    return None


def starting_cube_problem(cube: Cube | None, money: bool, options: Options) -> CubeRule | None:
    """Why a game may not start with ``cube`` (automatic doubles, RULES.md 14.7)."""
    if cube is None or cube.value == 1:
        return None
    doubles = cube.value.bit_length() - 1
    if cube.owner is not None or not money or doubles > options.auto_doubles:
        return CubeRule.AUTO_DOUBLES
    return value_problem(cube.value, options)


@dataclass(frozen=True, slots=True)
class Offer:
    """A double, beaver or raccoon waiting for its answer."""

    standing: Cube
    """The cube that stands if the offer is dropped."""
    value: int
    by: Side
    roller: Side
    """The original doubler: he rolls once the cube is settled."""
    redouble: bool = False
    """A beaver or raccoon: its maker keeps the cube when it is taken."""


@dataclass(frozen=True, slots=True)
class CubeState:
    """The cube of one game and the offer pending on it, if any. Each transition is a
    pure method; each ``*_problem`` method says why that transition is illegal now."""

    cube: Cube | None
    offer: Offer | None = None
    doubled: bool = False
    """A double was offered during the game (the Jacoby rule, RULES.md 14.8)."""

    @property
    def standing(self) -> Cube | None:
        """The cube the game is played for now: while an offer is pending, the one before it."""
        return self.offer.standing if self.offer is not None else self.cube

    def stake(self, money: bool, options: Options) -> Stake:
        """What the game is worth now: the standing cube, and whether the Jacoby rule can
        still apply (money play, the option on, no double offered yet; RULES.md 14.8)."""
        cube = self.standing
        if cube is None:
            return Stake()
        jacoby = money and options.jacoby and not self.doubled
        return Stake(cube.value, cube.owner, jacoby)

    @property
    def shown(self) -> Cube | None:
        """The cube as a position shows it: the value offered while an offer is pending
        (NOTATION.md §1, state d)."""
        if self.offer is None:
            return self.cube
        return Cube(self.offer.value, self.offer.standing.owner)

    def double_problem(
        self, context: CubeContext, side: Side, before_roll: bool, written: int | None = None
    ) -> CubeRule | None:
        """Why ``side`` may not double now (None if he may); ``written`` is the value the
        record names, if any."""
        cube = self.cube
        if cube is None or not context.options.cube:
            return CubeRule.NO_CUBE
        if context.crawford_game and context.options.crawford and not context.money:
            return CubeRule.CRAWFORD_GAME
        if not before_roll or self.offer is not None:
            return CubeRule.NOT_BEFORE_ROLL
        if cube.owner is not None and cube.owner is not side:
            return CubeRule.NOT_CUBE_OWNER
        if written is not None and written != 2 * cube.value:
            return CubeRule.WRONG_CUBE_VALUE
        return value_problem(2 * cube.value, context.options)

    def after_double(self, side: Side) -> CubeState:
        """``side`` offers twice the cube's value; he rolls once it is settled."""
        cube = self.cube or Cube()
        return CubeState(cube, Offer(cube, 2 * cube.value, side, side), doubled=True)

    def answer_problem(self, side: Side) -> CubeRule | None:
        """Why ``side`` may not take or drop now (None if he may)."""
        if self.offer is None:
            return CubeRule.NO_DOUBLE_PENDING
        if side is self.offer.by:
            return CubeRule.NOT_DOUBLED_SIDE
        return None

    def beaver_problem(
        self, context: CubeContext, side: Side, written: int | None = None, raccoon: bool = False
    ) -> CubeRule | None:
        """Why ``side`` may not beaver the pending offer, or with ``raccoon`` redouble the
        pending beaver (None if he may)."""
        problem = self.answer_problem(side)
        if problem is not None:
            return problem
        assert self.offer is not None
        if raccoon and not self.offer.redouble:
            return CubeRule.NO_BEAVER_PENDING
        if not (context.money and context.options.beavers):
            return CubeRule.BEAVER_NOT_ALLOWED
        if written is not None and written != 2 * self.offer.value:
            return CubeRule.WRONG_CUBE_VALUE
        return value_problem(2 * self.offer.value, context.options)

    def after_beaver(self, side: Side) -> CubeState:
        """``side`` takes the pending offer and at once redoubles, keeping the cube."""
        assert self.offer is not None
        offer = self.offer
        accepted = Cube(offer.value, side)
        return CubeState(
            self.cube, Offer(accepted, 2 * offer.value, side, offer.roller, True), self.doubled
        )

    def after_take(self, taker: Side) -> CubeState:
        """The pending offer is taken: a beaver's or raccoon's maker keeps the cube."""
        assert self.offer is not None
        offer = self.offer
        owner = offer.by if offer.redouble else taker
        return CubeState(Cube(offer.value, owner), None, self.doubled)

    def implied_take_problem(self, roller: Side) -> CubeRule | None:
        """Why ``roller`` may not roll while an offer is pending. Writers leave out the
        take of a beaver or raccoon: the original doubler's roll implies it."""
        assert self.offer is not None
        if self.offer.redouble and roller is self.offer.roller:
            return None
        return CubeRule.ANSWER_REQUIRED

    @property
    def drop_winner(self) -> Side:
        """Who wins when the pending offer is dropped: its maker."""
        assert self.offer is not None
        return self.offer.by
