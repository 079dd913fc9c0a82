"""Checking one game of a record, action by action (NOTATION.md §4)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum

from notation.errors import NotationError
from notation.plays import format_play
from notation.records.model import ActionKind, ActionText, GameText
from notation.records.set_pos import parse_set_pos
from referee.adjudication.verdict import GameVerdict, Issue
from referee.budget import Budget, Work
from referee.errors import RefereeError
from referee.plays import play_moves, play_text
from referee.positions import position_from_data, write_position
from referee.rules.board import CHECKERS, Board, Side, Step
from referee.rules.condone import play_physically
from referee.rules.cube import MESSAGES, CubeContext, CubeRule, beaver_problem, double_problem
from referee.rules.judge import Judgement, PlayJudge, WrittenMove
from referee.rules.options import DrawScoring, Judge, Options
from referee.rules.position import Cube, Phase, Position
from referee.rules.scoring import (
    GameResult,
    Stake,
    score_bore_off,
    score_draw,
    score_drop,
    score_resignation,
    unfinished,
)


class Mode(StrEnum):
    """Strict stops a game at its first error; condone lets physically possible plays stand."""

    STRICT = "strict"
    CONDONE = "condone"


@dataclass(frozen=True, slots=True)
class GameSetting:
    """Everything about the match that one game's checking needs."""

    options: Options
    mode: Mode
    match_length: int
    crawford_game: bool
    hits_marked: bool
    """The record marks hits with ``*`` somewhere, so a missing mark is worth a warning."""


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """One action as replayed: enough for a client to step through the game."""

    action: ActionText
    position_before: str
    position_after: str
    play: str | None
    error: Issue | None


class GameChecker:
    """Walks one game's actions in order, keeping the position and the cube."""

    def __init__(
        self,
        game: GameText,
        start: Position,
        score_before: tuple[int, int],
        setting: GameSetting,
        replay: bool = False,
        budget: Budget | None = None,
    ) -> None:
        self.game = game
        self.budget = budget or Budget()
        self.setting = setting
        self.options = setting.options
        self.literal = setting.options.judge is Judge.SEQUENCE
        self.position = start
        self.variant = start.variant
        self.first_mover: Side | None = start.turn
        self.doubler: Side | None = None
        """Who made the pending offer (a double, beaver or raccoon)."""
        self.roller: Side | None = None
        """Who doubled before rolling: he rolls once the cube is settled."""
        self.before_offer: Cube | None = start.cube
        """The cube as it stands until the pending offer is taken."""
        self.offered = 0
        self.beavered = False
        self.double_offered = False
        self.extra_turn_for: Side | None = None
        self.finish_board: Board | None = None
        self.result: GameResult | None = None
        self.stopped = False
        self.unchecked = False
        """Checking stopped at a position edit it cannot apply (not an error)."""
        self.awaiting_resignation = False
        self.replay: list[ReplayStep] | None = [] if replay else None
        self.played: list[tuple[ActionText, tuple[Step, ...] | None]] = []
        """Each action with the steps of its legal play, for the canonical record."""
        self.current_steps: tuple[Step, ...] | None = None
        self.verdict = GameVerdict(
            index=game.index,
            number=game.number,
            score_before=score_before,
            result=unfinished(self.stake),
            crawford=setting.crawford_game,
        )
        self._last_roll = max(
            (i for i, action in enumerate(game.actions) if action.kind is ActionKind.ROLL),
            default=-1,
        )

    @property
    def stake(self) -> Stake:
        """What the game is worth now: while an offer is pending, the cube before it."""
        cube = self.before_offer if self.position.phase is Phase.DOUBLED else self.position.cube
        if cube is None:
            return Stake()
        jacoby = self.setting.match_length == 0 and self.options.jacoby and not self.double_offered
        return Stake(cube.value, cube.owner, jacoby)

    # -- running --------------------------------------------------------------------------

    def run(self) -> GameVerdict:
        handlers: dict[ActionKind, Callable[[int, ActionText], None]] = {
            ActionKind.ROLL: self.roll,
            ActionKind.DOUBLE: self.double,
            ActionKind.BEAVER: self.beaver,
            ActionKind.RACCOON: self.beaver,
            ActionKind.TAKE: self.take,
            ActionKind.DROP: self.drop,
            ActionKind.WIN: self.win,
            ActionKind.LOSS: self.loss,
            ActionKind.EDIT: self.edit,
        }
        for index, action in enumerate(self.game.actions):
            if self.stopped and action.kind not in (ActionKind.WIN, ActionKind.LOSS):
                continue
            self.budget.charge(Work.ACTIONS)
            before = self.position
            errors = len(self.verdict.errors)
            self.current_steps = None
            handlers[action.kind](index, action)
            if action.kind is not ActionKind.LOSS:
                self.played.append((action, self.current_steps))
            if self.replay is not None:
                error = self.verdict.errors[-1] if len(self.verdict.errors) > errors else None
                self.replay.append(
                    ReplayStep(
                        action,
                        write_position(before),
                        write_position(self.position),
                        None
                        if self.current_steps is None
                        else play_text(self.current_steps, self.literal),
                        error,
                    )
                )
        if self.result is None:
            self.result = unfinished(self.stake)
            if not self.stopped:
                self.warn(None, "unfinished_game", "the game ends without a result")
        self.verdict.result = self.result
        return self.verdict

    # -- reporting ------------------------------------------------------------------------

    def place(self, action: ActionText | None) -> dict[str, object]:
        if action is None:
            return {"line": self.game.line}
        return {
            "move_number": action.move_number,
            "side": action.side or None,
            "line": action.line,
            "column": action.column,
        }

    def warn(self, action: ActionText | None, code: str, message: str) -> None:
        self.verdict.warnings.append(Issue(code, message, **self.place(action)))  # type: ignore[arg-type]

    def error(
        self,
        action: ActionText,
        code: str,
        message: str,
        rule: str | None = None,
        play: str | None = None,
        alternatives: tuple[str, ...] | None = None,
        stop: bool | None = None,
    ) -> None:
        before = self.position
        if action.kind is ActionKind.ROLL and action.dice and before.phase is Phase.ROLL:
            dice = (max(action.dice), min(action.dice))
            before = replace(before, turn=Side(action.side), phase=Phase.MOVE, dice=dice)
        issue = Issue(
            code,
            message,
            rule=rule,
            position=write_position(before),
            play=play,
            alternatives=alternatives,
            **self.place(action),  # type: ignore[arg-type]
        )
        self.verdict.errors.append(issue)
        self.budget.charge(Work.ERRORS)
        if stop if stop is not None else self.setting.mode is Mode.STRICT:
            self.stopped = True

    def after_end(self, action: ActionText) -> bool:
        """Report an action after the game is over; True if it was one."""
        if self.result is None:
            return False
        self.error(action, "action_after_end", "the game is already over", stop=False)
        return True

    # -- plays ----------------------------------------------------------------------------

    def roll(self, index: int, action: ActionText) -> None:
        if self.after_end(action):
            return
        side = Side(action.side)
        if self.position.phase is Phase.DOUBLED:
            if not (self.beavered and side is not self.doubler):
                rule = CubeRule.ANSWER_REQUIRED
                self.error(action, "illegal_cube_action", MESSAGES[rule], rule=str(rule))
                if self.stopped:
                    return
            self.accept_double(self.position.turn or side)
        turn = self.position.turn
        if turn is not None and side is not turn:
            self.error(
                action,
                "impossible_action",
                "it is the other player's turn",
                "wrong_turn",
                stop=True,
            )
            return
        if self.first_mover is None:
            self.first_mover = side
        assert action.dice is not None
        dice = (max(action.dice), min(action.dice))
        if action.play is None:
            self.error(action, "impossible_action", "the play cannot be read", stop=True)
            return
        if self.awaiting_resignation:
            self.error(action, "impossible_action", "a play after an unknown play", stop=True)
            return
        if action.play.unknown:
            self.warn(action, "unknown_play", f"{action.text!r}: the record does not say the play")
            self.awaiting_resignation = True
            return
        moves = [WrittenMove(m.from_point, m.to_point, m.hit) for m in action.play.moves]
        judge = PlayJudge(self.variant, self.position.board, side, dice, self.options)
        verdict = judge.judge(moves, canonical=False)
        self.budget.charge(Work.PLAYS, judge.enumerated)
        if verdict.legal and verdict.board is not None:
            self.current_steps = verdict.steps
            self.mark_warnings(action, verdict)
            self.after_play(action, side, verdict.board)
            return
        if not moves and len(judge.legal) == 1:
            forced = judge.legal[0]
            self.warn(action, "play_not_written", "the roll's only legal play is taken as played")
            self.current_steps = forced.steps
            self.after_play(action, side, forced.board)
            return
        if not moves and index == self._last_roll and self._result_follows(index):
            self.warn(action, "bare_roll", "a roll without its play, then a resignation")
            self.awaiting_resignation = True
            return
        self.illegal_play(action, side, moves, verdict)

    def _result_follows(self, index: int) -> bool:
        return any(a.kind is ActionKind.WIN for a in self.game.actions[index + 1 :])

    def mark_warnings(self, action: ActionText, verdict: Judgement) -> None:
        for warning in verdict.warnings:
            if warning.code != "hit_not_marked" or self.setting.hits_marked:
                self.warn(action, warning.code, warning.message)

    def illegal_play(
        self, action: ActionText, side: Side, moves: list[WrittenMove], verdict: Judgement
    ) -> None:
        assert verdict.reason is not None
        alternatives = tuple(play_text(play.steps, self.literal) for play in verdict.alternatives)
        written = action.text.split(":", 1)[1].strip()
        condone = self.setting.mode is Mode.CONDONE
        self.error(
            action,
            "illegal_play",
            verdict.reason.message,
            rule=verdict.reason.code,
            play=written,
            alternatives=alternatives,
            stop=not condone,
        )
        if not condone:
            return
        physical = play_physically(self.variant, self.position.board, side, moves)
        if isinstance(physical, str):
            self.error(action, "impossible_action", physical, play=written, stop=True)
            return
        self.after_play(action, side, physical)

    def after_play(self, action: ActionText, side: Side, board: Board) -> None:
        """Move on after ``side`` played to ``board``: a finish, a draw or the next turn."""
        self.position = self.position.moved_on(board, self.position.turn, self.position.phase)
        finished = board.borne_off(side) == CHECKERS
        if self.extra_turn_for is side:
            if finished:
                self.result = score_draw(self.stake)
            else:
                scored = self.finish_board
                if scored is None or self.options.draw_scoring is DrawScoring.AFTER_EXTRA_TURN:
                    scored = board
                self.result = score_bore_off(
                    self.variant, scored, side.other, self.stake, self.options
                )
            self.end()
            return
        if finished:
            opponent_done = board.borne_off(side.other) == CHECKERS
            if self.options.draw_rule and side is self.first_mover and not opponent_done:
                self.extra_turn_for = side.other
                self.finish_board = board
            else:
                self.result = score_bore_off(self.variant, board, side, self.stake, self.options)
                self.end()
                return
        self.position = self.position.moved_on(board, side.other, Phase.ROLL)

    def end(self) -> None:
        self.position = self.position.moved_on(self.position.board, None, Phase.END)

    # -- the cube -------------------------------------------------------------------------

    def cube_context(self) -> CubeContext:
        return CubeContext(
            self.position.cube,
            self.setting.crawford_game,
            self.setting.match_length == 0,
            self.options,
        )

    def cube_error(self, action: ActionText, rule: CubeRule) -> bool:
        """Report an illegal cube action; True when checking must not apply it."""
        self.error(action, "illegal_cube_action", MESSAGES[rule], rule=str(rule))
        return self.stopped or self.position.cube is None

    def double(self, index: int, action: ActionText) -> None:
        if self.after_end(action):
            return
        side = Side(action.side)
        before_roll = self.position.turn is side and self.position.phase is Phase.ROLL
        rule = double_problem(self.cube_context(), side, before_roll, action.value)
        if rule is not None and self.cube_error(action, rule):
            return
        cube = self.position.cube
        assert cube is not None
        self.doubler = self.roller = side
        self.offered = action.value or 2 * cube.value
        self.offer(cube, side.other)
        self.double_offered = True

    def answer_problem(self, action: ActionText) -> CubeRule | None:
        if self.position.phase is not Phase.DOUBLED:
            return CubeRule.NO_DOUBLE_PENDING
        if Side(action.side) is self.doubler:
            return CubeRule.NOT_DOUBLED_SIDE
        return None

    def accept_double(self, taker: Side) -> None:
        """The pending offer is taken: a beaver's or raccoon's maker keeps the cube."""
        owner = self.doubler if self.beavered else taker
        self.position = replace(
            self.position, cube=Cube(self.offered, owner), turn=self.roller, phase=Phase.ROLL
        )
        self.beavered = False

    def answerable(self, action: ActionText) -> bool:
        """Whether ``action`` may answer a pending offer (reporting why not)."""
        if self.after_end(action):
            return False
        rule = self.answer_problem(action)
        if rule is not None:
            self.cube_error(action, rule)
        return rule is None

    def take(self, index: int, action: ActionText) -> None:
        if self.answerable(action):
            self.accept_double(Side(action.side))

    def drop(self, index: int, action: ActionText) -> None:
        if self.answerable(action):
            assert self.doubler is not None
            self.result = score_drop(self.doubler, self.stake)
            self.end()

    def beaver(self, index: int, action: ActionText) -> None:
        if self.after_end(action):
            return
        rule = self.answer_problem(action) or beaver_problem(self.cube_context(), self.offered)
        if rule is not None and self.cube_error(action, rule):
            return
        if self.position.phase is not Phase.DOUBLED:  # condoned, but there is nothing to beaver
            return
        side = Side(action.side)
        answering = self.doubler or side.other
        accepted = Cube(self.offered, side)
        self.doubler = side
        self.offered = action.value or 2 * self.offered
        self.offer(accepted, answering)
        self.beavered = True

    def offer(self, cube: Cube, answering: Side) -> None:
        """Put ``self.offered`` to ``answering``: the position shows the value offered
        (NOTATION.md §1, state d); ``cube`` is what stands if the offer is dropped."""
        self.before_offer = cube
        offered = Cube(self.offered, cube.owner)
        self.position = replace(self.position, cube=offered, turn=answering, phase=Phase.DOUBLED)

    # -- results --------------------------------------------------------------------------

    def win(self, index: int, action: ActionText) -> None:
        side = Side(action.side)
        value = action.value or 0
        self.verdict.recorded_winner = side
        self.verdict.recorded_points = value
        self.verdict.recorded_line = action.line
        if self.result is None and (not self.stopped or self.unchecked):
            self.result = score_resignation(self.variant, side, value, self.stake, self.options)
            self.end()

    def loss(self, index: int, action: ActionText) -> None:
        self.warn(action, "losses_line", f"{action.text!r} is not scored; the Wins line is")

    def edit(self, index: int, action: ActionText) -> None:
        """A board edit: XG's ``Set Pos=`` is applied; a Snowie ``Illegal play (...)``
        cannot be read, so the rest of the game is not checked."""
        self.budget.charge(Work.EDITS)
        try:
            edited = position_from_data(parse_set_pos(action.text))
        except (NotationError, RefereeError):
            self.warn(action, "position_edit", f"{action.text[:40]!r}: the rest is not checked")
            self.stopped = self.unchecked = True
            return
        self.warn(action, "position_edit", f"{action.text[:40]!r}: the board is set")
        self.position = replace(self.position, board=edited.board, cube=edited.cube)


def canonical_actions(
    played: Sequence[tuple[ActionText, tuple[Step, ...] | None]], literal: bool = False
) -> tuple[ActionText, ...]:
    """The actions as a canonical record writes them: each legal play in canonical text
    (steps in canonical order, or as played when judged by sequence; bar/off words,
    computed hit marks, larger die first)."""
    actions = []
    for action, steps in played:
        if action.kind is ActionKind.ROLL and steps is not None:
            moves = play_moves(steps, literal)
            action = action.with_play(format_play(moves), moves)
        actions.append(action)
    return tuple(actions)
