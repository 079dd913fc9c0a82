"""The table of a live match (LIVE.md): whose turn, which actions are allowed, and what each
action does. The rules decide: the game is the rules' ``GameFlow``, the match between games
``MatchState``, plays are listed and judged by the plays service (the code behind
``/v1/plays/legal`` and ``/v1/plays/check``). The table only drives them, rolls for a player
who has no cube decision (LIVE.md §3), and notes what the record will say. The dice come
from outside (``DiceSource``); ``referee.live.codec`` saves and loads a table.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from enum import StrEnum
from functools import lru_cache
from typing import Any, Protocol

from notation.records.model import ActionKind
from referee.bridge import write_position
from referee.errors import IllegalActionError, RefereeError
from referee.plays import PlaysService
from referee.rules.engine import CHOSEN, Engine
from referee.rules.flow import GameFlow
from referee.rules.match import MatchState
from referee.rules.options import Options
from referee.rules.position import Position
from referee.rules.variants import Variant, find_variant
from vocabulary import Phase, Side


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


@dataclass(frozen=True, slots=True)
class LiveAction:
    """One action as the match's record will write it (a roll with its canonical play)."""

    side: Side
    kind: ActionKind
    dice: tuple[int, int] | None = None
    play: str | None = None
    value: int | None = None


@dataclass(frozen=True, slots=True)
class GameStart:
    """A game begins, as the match's record will write it: its number and score line."""

    game: int
    score: tuple[int, int]
    start: str | None = None
    """The ``[StartPosition]`` of a game that began with automatic doubles."""


LogEntry = GameStart | LiveAction
"""What the match's record will say, entry by entry (the live store's log keeps them)."""


@dataclass(slots=True)
class FinishedGame:
    """One game's result as the state lists it (the verdict's fields)."""

    index: int
    winner: str | None
    points: int
    termination: str
    kind: str | None
    cube: int


class Table:
    """A live match in progress: the match, the current game, what the record will say."""

    def __init__(
        self, variant: str, length: int, options: Mapping[str, object], engine: Engine = CHOSEN
    ) -> None:
        """A match waiting for its first game (``options``: a request's, checked here);
        ``engine`` lists and judges its plays."""
        variant_class, rules = rules_of(variant, options)
        match = MatchState(variant_class, rules, length)
        self._begin(match, GameFlow.start(match.start_position(), rules), engine)

    @classmethod
    def resumed(cls, match: MatchState, flow: GameFlow, engine: Engine = CHOSEN) -> Table:
        """A table at ``match`` and ``flow`` with nothing noted or finished yet (the codec
        sets what else it saved)."""
        table = cls.__new__(cls)
        table._begin(match, flow, engine)
        return table

    def _begin(self, match: MatchState, flow: GameFlow, engine: Engine) -> None:
        self.engine = engine
        self.match = match
        self.flow = flow
        self.noted: list[LogEntry] = []
        """What the record will say, noted since the table was loaded (the live store
        appends it to the match's log with the change)."""
        self.last_action: LiveAction | None = None
        self.game_actions = 0
        """How many actions the current game's record has so far."""
        self.changed = False
        """An action, a game start or a timeout changed the table since it was loaded."""
        self.games: list[FinishedGame] = []
        self.legal: list[str] | None = None
        """The legal plays of the roll to be played (canonical text)."""
        self.acted: list[Side] = []
        """The sides that have made an action (a bot may abort only before its first)."""
        self.termination: str | None = None
        self.written: tuple[Position | None, str] = (None, "")
        """The last position written (``position``) and its text."""

    def copy(self) -> Table:
        """A copy to change: the same match and game (values, shared), lists of its own,
        nothing noted and unchanged (as if loaded)."""
        copy = Table.__new__(Table)
        copy.__dict__.update(self.__dict__)
        copy.noted, copy.changed = [], False
        copy.games, copy.acted = list(self.games), list(self.acted)
        copy.legal = None if self.legal is None else list(self.legal)
        return copy

    # -- what the state shows -------------------------------------------------------------

    @property
    def variant_class(self) -> type[Variant]:
        return self.match.variant

    @property
    def variant(self) -> str:
        return self.match.variant.id

    @property
    def length(self) -> int:
        return self.match.length

    @property
    def rules(self) -> Options:
        return self.match.options

    @property
    def options(self) -> dict[str, object]:
        """The match's options as JSON values (every option of the variant)."""
        return dict(_options_json(self.match.variant.id, self.match.options))

    @property
    def game(self) -> int:
        return self.match.game

    @property
    def score(self) -> list[int]:
        return list(self.match.score)

    @property
    def position(self) -> str:
        """The current game's position string (after the end: the board as it ended),
        written once per position (a change saves it and then answers it)."""
        position = self.flow.position
        if self.written[0] is not position:
            self.written = (position, write_position(position))
        return self.written[1]

    @property
    def finished(self) -> bool:
        return self.termination is not None

    @property
    def winner(self) -> str | None:
        """The match's winner once it is over (a money game's: that game's winner)."""
        if not self.finished:
            return None
        if self.length:
            return None if self.match.winner is None else str(self.match.winner)
        return self.games[-1].winner if self.games else None

    def to_act(self) -> Side | None:
        return None if self.finished else self.flow.position.turn

    def expect(self) -> list[Action]:
        """The actions allowed now, in the order LIVE.md §3 shows them."""
        side = self.to_act()
        if side is None:
            return []
        phase = self.flow.position.phase
        if phase is Phase.DOUBLED:
            answers = [Action.TAKE, Action.DROP]
            return [*answers, Action.BEAVER] if self.flow.beaver_problem(side) is None else answers
        if phase is Phase.ROLL:
            return [Action.DOUBLE, Action.ROLL, Action.RESIGN]
        return [Action.PLAY, Action.RESIGN]

    def dice(self) -> tuple[int, int] | None:
        return None if self.finished else self.flow.position.dice

    # -- playing --------------------------------------------------------------------------

    def start_game(self, dice: DiceSource) -> None:
        """The next game: the opening throw (LIVE.md §5), re-thrown while tied (each tie an
        automatic double in money play, RULES.md 14.7)."""
        self.match = self.match.next_game()
        flow = GameFlow.start(self.match.start_position(), self.rules)
        while True:
            white, black = dice(self.game, Use.OPENING)
            if white != black:
                break
            flow = flow.opening_tie()
        cube = flow.position.cube
        start = write_position(flow.position) if cube is not None and cube.value > 1 else None
        self.noted.append(GameStart(self.game, self.match.score, start))
        self.game_actions = 0
        self.changed = True
        self._go_on(flow.opened(white, black), dice)

    def apply(self, side: Side, action: Action, dice: DiceSource, **details: Any) -> None:
        """Apply a player's action, or raise IllegalActionError leaving the table as it was."""
        allowed = self.expect()
        if action not in allowed:
            raise IllegalActionError(
                "not_expected",
                f"{action} is not allowed now; expected: {', '.join(allowed)}",
                tuple(str(a) for a in allowed),
            )
        flow = self.flow
        self.changed = True
        if action is Action.PLAY:
            self._play(side, str(details.get("play") or ""), dice)
        elif action is Action.RESIGN:
            self._resign(side, details.get("value"), dice)
        elif action is Action.ROLL:
            self._go_on(flow.rolled(side, dice(self.game, Use.ROLL)), dice)
        elif action in (Action.DOUBLE, Action.BEAVER):
            offered = flow.doubled(side) if action is Action.DOUBLE else flow.beavered(side)
            assert offered.cube.offer is not None
            self._note(side, ActionKind(action), value=offered.cube.offer.value)
            self._go_on(offered, dice)
        elif action is Action.TAKE:
            self._note(side, ActionKind.TAKE)
            self._go_on(flow.taken(side), dice)
        else:
            self._note(side, ActionKind.DROP)
            self._end_game(flow.dropped(), dice)
        if side not in self.acted:
            self.acted.append(side)

    def _play(self, side: Side, text: str, dice: DiceSource) -> None:
        service = PlaysService.of(self.flow.position, self.rules, self.engine)
        try:
            judged = service.judged(text)
        except RefereeError as error:
            raise IllegalActionError(error.code, error.message, tuple(self.legal or ())) from None
        if judged.play is None:
            assert judged.reason is not None
            raise IllegalActionError(judged.reason.code, judged.reason.message, judged.alternatives)
        rolled = self.flow.position.dice
        self._note(side, ActionKind.ROLL, dice=rolled, play=service.text(judged.play))
        flow = self.flow.played(side, judged.play.board)
        if flow.over:
            self._end_game(flow, dice)
        else:
            self._go_on(flow, dice)

    def _go_on(self, flow: GameFlow, dice: DiceSource) -> None:
        """The game goes on from ``flow``; a side to roll that has no cube decision rolls at
        once (LIVE.md §3), and a roll to play gets its legal plays listed."""
        side = flow.position.turn
        if flow.position.phase is Phase.ROLL and side and flow.double_problem(side) is not None:
            flow = flow.rolled(side, dice(self.game, Use.ROLL))
        self.flow = flow
        self.legal = None
        if flow.position.phase is Phase.MOVE:
            service = PlaysService.of(flow.position, self.rules, self.engine)
            self.legal = service.legal_texts()

    def _note(self, side: Side, kind: ActionKind, **what: Any) -> None:
        self.last_action = LiveAction(side, kind, **what)
        self.noted.append(self.last_action)
        self.game_actions += 1

    def _resign(self, side: Side, value: object, dice: DiceSource) -> None:
        allowed = self.variant_class.resignation_values(self.rules)
        if not isinstance(value, int) or isinstance(value, bool) or value not in allowed:
            values = ", ".join(str(v) for v in sorted(allowed))
            raise IllegalActionError(
                "resign_value", f"a resignation in {self.variant} is worth one of {values}"
            )
        flow = self.flow.resigned(side.other, value * self.flow.stake.cube)
        assert flow.result is not None
        # The record says what the rules give (under Jacoby an undoubled mars counts single),
        # so the stored verdict scores the game as the live match did.
        self._note(side.other, ActionKind.WIN, value=flow.result.points)
        self._end_game(flow, dice)

    def time_out(self, dice: DiceSource, termination: str = "timeout") -> None:
        """The side to act missed its deadline: it loses the match, or the money game worth
        the cube (LIVE.md §4); ``termination`` ``time`` when its clock's reserve ran out
        (EVENTS.md §12)."""
        side = self.to_act()
        assert side is not None
        winner = side.other
        if self.length:  # the points he needed for the match
            points = self.length - self.match.score[0 if winner is Side.WHITE else 1]
        else:
            points = self.flow.stake.cube
        self.changed = True
        self._note(winner, ActionKind.WIN, value=points)
        self._finish_game(self.flow.timed_out(winner, points))
        self.termination = termination

    def no_show(self, present: Side | None) -> None:
        """The match ends before its first game: a player did not join in time and the
        one who did (``present``; None: neither joined) wins (EVENTS.md §12)."""
        self.changed = True
        self.match = replace(self.match, winner=present)
        self.termination = "no_show"

    # -- ends -----------------------------------------------------------------------------

    def _end_game(self, flow: GameFlow, dice: DiceSource) -> None:
        result = flow.result
        assert result is not None
        last = self.last_action
        if result.winner is not None and not (last and last.kind is ActionKind.WIN):
            self._note(result.winner, ActionKind.WIN, value=result.points)
        self._finish_game(flow)
        if self.length == 0 or self.match.winner is not None:
            self.termination = str(result.termination)
        else:
            self.start_game(dice)

    def _finish_game(self, flow: GameFlow) -> None:
        """Score the game ``flow`` ended and keep its last position (the board as it ended)."""
        result = flow.result
        assert result is not None
        self.match = self.match.scored(result.winner, result.points)
        winner = None if result.winner is None else str(result.winner)
        kind = None if result.kind is None else str(result.kind)
        self.games.append(
            FinishedGame(
                self.game, winner, result.points, str(result.termination), kind, result.cube
            )
        )
        self.flow = flow
        self.legal = None


def rules_of(variant: str, options: Mapping[str, object]) -> tuple[type[Variant], Options]:
    """A match's variant and options (a request's, or as a table saved them), checked once:
    a table is loaded for every action and its options never change."""
    return _rules(variant, tuple(sorted(options.items())))


@lru_cache(maxsize=256)
def _rules(variant: str, options: tuple[tuple[str, object], ...]) -> tuple[type[Variant], Options]:
    variant_class = find_variant(variant)
    return variant_class, variant_class.options_with(dict(options))


@lru_cache(maxsize=256)
def _options_json(variant: str, options: Options) -> tuple[tuple[str, object], ...]:
    return tuple(find_variant(variant).options_json(options).items())
