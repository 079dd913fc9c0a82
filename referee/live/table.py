"""The table of a live match (LIVE.md): whose turn, which actions are allowed, and what each
action does, by the engine's rules.

Plays are listed and judged by the plays service (the code behind ``/v1/plays/legal`` and
``/v1/plays/check``), cube actions by ``referee.rules.cube``, results by
``referee.rules.scoring``. The table is plain data (``to_json``/``from_json``) so the
archive can hold it; the dice come from outside (``DiceSource``).
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, replace
from enum import StrEnum
from functools import lru_cache
from typing import Any, Protocol

from referee.bridge import play_text, read_position, write_position
from referee.errors import IllegalActionError, RefereeError
from referee.plays import PlaysService
from referee.rules.cube import CubeContext, CubeState, Offer, value_problem
from referee.rules.match import crawford_status, starting_position
from referee.rules.options import DrawScoring, Options
from referee.rules.position import Cube, Position
from referee.rules.scoring import (
    GameResult,
    Stake,
    score_bore_off,
    score_draw,
    score_drop,
    score_resignation,
)
from referee.rules.variants import Variant, find_variant
from vocabulary import CHECKERS, Phase, Side


class Action(StrEnum):
    """What a player may send (LIVE.md §4)."""

    ROLL = "roll"
    DOUBLE = "double"
    TAKE = "take"
    DROP = "drop"
    BEAVER = "beaver"
    PLAY = "play"
    RESIGN = "resign"


class Use(StrEnum):
    """What a throw of the dice was for (LIVE.md §5)."""

    OPENING = "opening"
    ROLL = "roll"


class DiceSource(Protocol):
    """The next throw of the live match; the source records it with its game and use."""

    def __call__(self, game: int, use: Use) -> tuple[int, int]: ...


def _cube_json(cube: Cube | None) -> list[Any] | None:
    return None if cube is None else [cube.value, None if cube.owner is None else str(cube.owner)]


def _cube(data: list[Any] | None) -> Cube | None:
    return None if data is None else Cube(data[0], None if data[1] is None else Side(data[1]))


def cube_state_json(state: CubeState) -> dict[str, Any]:
    """The rules' cube state (``referee.rules.cube``) as JSON values, to be saved."""
    offer = state.offer
    return {
        "cube": _cube_json(state.cube),
        "offer": None
        if offer is None
        else {
            "standing": _cube_json(offer.standing),
            "value": offer.value,
            "by": str(offer.by),
            "roller": str(offer.roller),
            "redouble": offer.redouble,
        },
        "doubled": state.doubled,
    }


def cube_state(data: dict[str, Any]) -> CubeState:
    offer = data["offer"]
    return CubeState(
        _cube(data["cube"]),
        None
        if offer is None
        else Offer(
            _cube(offer["standing"]) or Cube(),
            offer["value"],
            Side(offer["by"]),
            Side(offer["roller"]),
            offer["redouble"],
        ),
        data["doubled"],
    )


@lru_cache(maxsize=256)
def _rules(variant: str, options: tuple[tuple[str, Any], ...]) -> Options:
    """A match's options, checked once (options are immutable values)."""
    return find_variant(variant).options_with(dict(options))


@lru_cache(maxsize=4096)
def _position(text: str) -> Position:
    """A position string read once (positions are immutable values)."""
    return read_position(text)


def _side(text: str | None) -> Side | None:
    return None if text is None else Side(text)


@dataclass(slots=True)
class FinishedGame:
    """One game's result as the state lists it (the verdict's fields)."""

    index: int
    winner: str | None
    points: int
    termination: str
    kind: str | None
    cube: int


@dataclass(slots=True)
class Table:
    """A live match in progress: plain data, saved after every action."""

    variant: str
    length: int
    options: dict[str, Any]
    position: str = ""
    game: int = 0
    score: list[int] = field(default_factory=lambda: [0, 0])
    games: list[FinishedGame] = field(default_factory=list)
    records: list[dict[str, Any]] = field(default_factory=list)
    """Per game: ``{"score", "start", "actions"}``, what the record will say."""
    legal: list[str] | None = None
    """The legal plays of the roll to be played (canonical text)."""
    cube: dict[str, Any] = field(default_factory=lambda: cube_state_json(CubeState(None)))
    """The rules' cube state of the current game (``referee.rules.cube.CubeState``)."""
    first_mover: str | None = None
    extra_turn_for: str | None = None
    finish_position: str | None = None
    crawford_game: int | None = None
    acted: list[str] = field(default_factory=list)
    """The sides that have made an action (a bot may abort only before its first)."""
    winner: str | None = None
    termination: str | None = None

    # -- loading and saving ---------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        """The table as JSON values (shallow: ``records`` and ``options`` are JSON already)."""
        data = {name: getattr(self, name) for name in self.__dataclass_fields__}
        data["games"] = [asdict(game) for game in self.games]
        return data

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Table:
        data = dict(data)
        data["games"] = [FinishedGame(**game) for game in data["games"]]
        return cls(**data)

    @property
    def rules(self) -> Options:
        return _rules(self.variant, tuple(sorted(self.options.items())))

    @property
    def variant_class(self) -> type[Variant]:
        return find_variant(self.variant)

    @property
    def crawford_game_now(self) -> bool:
        return self.crawford_game == self.game

    # -- the cube: the rules' state machine (referee.rules.cube) ----------------------------

    @property
    def cube_state(self) -> CubeState:
        return cube_state(self.cube)

    def _set_cube(self, state: CubeState) -> None:
        self.cube = cube_state_json(state)

    def _cube_context(self) -> CubeContext:
        return CubeContext(self.crawford_game_now, self.length == 0, self.rules)

    def can_double(self, side: Side) -> bool:
        return self.cube_state.double_problem(self._cube_context(), side, True) is None

    def can_beaver(self, side: Side) -> bool:
        return self.cube_state.beaver_problem(self._cube_context(), side) is None

    def stake(self) -> Stake:
        """What the game is worth now: while an offer is pending, the cube before it."""
        return self.cube_state.stake(self.length == 0, self.rules)

    def current(self) -> Position:
        return _position(self.position)

    # -- who acts, and how ----------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.termination is not None

    def to_act(self) -> Side | None:
        return None if self.finished or not self.position else self.current().turn

    def expect(self) -> list[Action]:
        """The actions allowed now, in the order LIVE.md §3 shows them."""
        side = self.to_act()
        if side is None:
            return []
        position = self.current()
        if position.phase is Phase.DOUBLED:
            answers = [Action.TAKE, Action.DROP]
            return [*answers, Action.BEAVER] if self.can_beaver(side) else answers
        if position.phase is Phase.ROLL:
            return [Action.DOUBLE, Action.ROLL, Action.RESIGN]
        return [Action.PLAY, Action.RESIGN]

    def dice(self) -> tuple[int, int] | None:
        return None if self.finished or not self.position else self.current().dice

    # -- starting -------------------------------------------------------------------------

    def start_game(self, dice: DiceSource) -> None:
        """The next game: the opening throw (LIVE.md §5), automatic doubles in money play."""
        self.game += 1
        self.extra_turn_for = self.finish_position = None
        variant, rules = self.variant_class, self.rules
        score = (self.score[0], self.score[1])
        position = starting_position(variant, rules, self.length, score, self._crawford_status())
        cube = position.cube
        doubles = 0
        while True:
            white, black = dice(self.game, Use.OPENING)
            if white != black:
                break
            automatic = cube is not None and self.length == 0 and doubles < rules.auto_doubles
            if automatic and cube is not None and value_problem(2 * cube.value, rules) is None:
                doubles += 1
                cube = Cube(2 * cube.value)
        self._set_cube(CubeState(cube))
        start = replace(position, cube=cube) if doubles else None
        self.records.append(
            {
                "score": list(self.score),
                "start": None if start is None else write_position(start),
                "actions": [],
            }
        )
        starter = Side.WHITE if white > black else Side.BLACK
        self.first_mover = str(starter)
        position = replace(position, cube=cube, turn=starter)
        if variant.has_cube:  # backgammon: the opening dice are the first roll (RULES 14.2)
            self._rolled(replace(position, phase=Phase.MOVE), (white, black))
        else:
            self._settle(position, dice)

    def _crawford_status(self) -> tuple[bool, bool]:
        """(this game is the Crawford game, it is post-Crawford) from the score (14.9)."""
        score, played = (self.score[0], self.score[1]), self.crawford_game is not None
        status = crawford_status(self.variant_class, self.rules, self.length, score, played)
        if status[0]:
            self.crawford_game = self.game
        return status

    def _settle(self, position: Position, dice: DiceSource) -> None:
        """Save ``position``; when the side to roll has no cube decision, roll at once."""
        side = position.turn
        if position.phase is Phase.ROLL and side and not self.can_double(side):
            self._rolled(position, dice(self.game, Use.ROLL))
            return
        self.position = write_position(position)
        self.legal = None

    def _rolled(self, position: Position, thrown: tuple[int, int]) -> None:
        rolled = replace(position, phase=Phase.MOVE, dice=(max(thrown), min(thrown)))
        self.position = write_position(rolled)
        service = PlaysService(self.position, self.options)
        self.legal = [play_text(play.steps, service.literal) for play in service.judge.legal]

    # -- actions --------------------------------------------------------------------------

    def apply(self, side: Side, action: Action, dice: DiceSource, **details: Any) -> None:
        """Apply a player's action, or raise IllegalActionError leaving the table as it was."""
        allowed = self.expect()
        if action not in allowed:
            raise IllegalActionError(
                "not_expected",
                f"{action} is not allowed now; expected: {', '.join(allowed)}",
                tuple(str(a) for a in allowed),
            )
        position = self.current()
        if action is Action.PLAY:
            self._play(position, side, str(details.get("play") or ""), dice)
        elif action is Action.RESIGN:
            self._resign(side, details.get("value"), dice)
        elif action is Action.ROLL:
            self._rolled(position, dice(self.game, Use.ROLL))
        elif action is Action.DOUBLE:
            self._offer(position, self.cube_state.after_double(side), side.other, "double")
        elif action is Action.BEAVER:
            state = self.cube_state
            assert state.offer is not None
            self._offer(position, state.after_beaver(side), state.offer.by, "beaver")
        elif action is Action.TAKE:
            self._record(side, "take")
            state = self.cube_state
            assert state.offer is not None
            taken = state.after_take(side)
            self._set_cube(taken)
            turn = state.offer.roller
            self._settle(replace(position, cube=taken.cube, turn=turn, phase=Phase.ROLL), dice)
        else:
            self._record(side, "drop")
            self._end_game(score_drop(self.cube_state.drop_winner, self.stake()), dice)
        if str(side) not in self.acted:
            self.acted.append(str(side))

    def _offer(self, position: Position, state: CubeState, answering: Side, kind: str) -> None:
        """A double or beaver: the position shows the value offered (state d)."""
        assert state.offer is not None
        self._record(state.offer.by, kind, value=state.offer.value)
        self._set_cube(state)
        self.position = write_position(
            replace(position, cube=state.shown, turn=answering, phase=Phase.DOUBLED)
        )
        self.legal = None

    def _record(self, side: Side, kind: str, **fields: Any) -> None:
        self.records[-1]["actions"].append({"side": str(side), "kind": kind, **fields})

    def _play(self, position: Position, side: Side, text: str, dice: DiceSource) -> None:
        service = PlaysService(self.position, self.options)
        try:
            answer = service.check(text)
        except RefereeError as error:
            raise IllegalActionError(error.code, error.message, tuple(self.legal or ())) from None
        if not answer.legal or answer.position is None or answer.play is None:
            assert answer.reason is not None
            raise IllegalActionError(answer.reason.code, answer.reason.message, answer.alternatives)
        assert position.dice is not None
        self._record(side, "roll", dice=list(position.dice), play=answer.play)
        board = read_position(answer.position).board
        after = position.moved_on(board, side.other, Phase.ROLL)
        stake = self.stake()
        variant, rules = self.variant_class, self.rules
        finished = board.borne_off(side) == CHECKERS
        if self.extra_turn_for == str(side):  # the draw rule's extra turn (RULES.md §10)
            if finished:
                self._end_game(score_draw(stake), dice)
                return
            scored = board
            if self.finish_position and rules.draw_scoring is DrawScoring.AT_FINISH:
                scored = read_position(self.finish_position).board
            self._end_game(score_bore_off(variant, scored, side.other, stake, rules), dice)
            return
        if finished:
            opponent_done = board.borne_off(side.other) == CHECKERS
            if rules.draw_rule and str(side) == self.first_mover and not opponent_done:
                self.extra_turn_for = str(side.other)
                self.finish_position = write_position(after)
            else:
                self._end_game(score_bore_off(variant, board, side, stake, rules), dice)
                return
        self._settle(after, dice)

    def _resign(self, side: Side, value: object, dice: DiceSource) -> None:
        allowed = self.variant_class.resignation_values(self.rules)
        if not isinstance(value, int) or isinstance(value, bool) or value not in allowed:
            values = ", ".join(str(v) for v in sorted(allowed))
            raise IllegalActionError(
                "resign_value", f"a resignation in {self.variant} is worth one of {values}"
            )
        stake = self.stake()
        result = score_resignation(
            self.variant_class, side.other, value * stake.cube, stake, self.rules
        )
        # The record says what the rules give (under Jacoby an undoubled mars counts single),
        # so the stored verdict scores the game as the live match did.
        self._record(side.other, "win", value=result.points)
        self._end_game(result, dice)

    def time_out(self, dice: DiceSource) -> None:
        """The side to act missed its deadline: it loses the match, or the money game worth
        the cube (LIVE.md §4)."""
        side = self.to_act()
        assert side is not None
        winner = side.other
        stake = self.stake()
        if self.length:
            needed = self.length - self.score["wb".index(str(winner))]
            self._record(winner, "win", value=needed)
            self._finish_game(winner, max(needed, 0), "timeout", None, stake.cube)
            self._finish_match("timeout")
            return
        self._record(winner, "win", value=stake.cube)
        result = score_resignation(self.variant_class, winner, stake.cube, stake, self.rules)
        self._finish_game(winner, result.points, "timeout", None, stake.cube)
        self._finish_match("timeout")

    # -- ends -----------------------------------------------------------------------------

    def _end_game(self, result: GameResult, dice: DiceSource) -> None:
        actions: list[dict[str, Any]] = self.records[-1]["actions"]
        if result.winner is not None and not (actions and actions[-1]["kind"] == "win"):
            self._record(result.winner, "win", value=result.points)
        kind = None if result.kind is None else str(result.kind)
        self._finish_game(result.winner, result.points, str(result.termination), kind, result.cube)
        over = self.length == 0 or max(self.score) >= self.length
        if over:
            self._finish_match(str(result.termination))
        else:
            self.start_game(dice)

    def _finish_game(
        self, winner: Side | None, points: int, termination: str, kind: str | None, cube: int
    ) -> None:
        if winner is not None:
            self.score["wb".index(str(winner))] += points
        name = None if winner is None else str(winner)
        self.games.append(FinishedGame(self.game, name, points, termination, kind, cube))
        position = self.current()
        self.position = write_position(position.moved_on(position.board, None, Phase.END))
        self.legal = None

    def _finish_match(self, termination: str) -> None:
        self.termination = termination
        if self.length:
            self.winner = "w" if self.score[0] >= self.length else "b"
        else:
            self.winner = self.games[-1].winner
