"""Checking one game of a record, action by action (NOTATION.md §4)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from notation.plays import format_play
from notation.records.model import ActionKind, ActionText, GameText
from referee.adjudication.budget import Budget, Work
from referee.adjudication.edits import illegal_play_board, set_pos_position
from referee.adjudication.report import GameReport
from referee.adjudication.setting import GameSetting, Mode
from referee.adjudication.verdict import GameVerdict, Issue
from referee.bridge import (
    play_moves,
    play_text,
    write_position,
)
from referee.errors import shortened
from referee.rules.board import Step
from referee.rules.condone import play_physically
from referee.rules.cube import MESSAGES, CubeRule
from referee.rules.flow import GameFlow
from referee.rules.judge import Judgement, PlayJudge
from referee.rules.options import Judge
from referee.rules.position import Position
from referee.rules.scoring import unfinished
from vocabulary import IssueCode, Move, Phase, Side


@dataclass(frozen=True, slots=True)
class ReplayStep:
    """One action as replayed: enough for a client to step through the game."""

    action: ActionText
    position_before: str
    position_after: str
    play: str | None
    error: Issue | None

    @classmethod
    def of(
        cls,
        action: ActionText,
        before: Position,
        after: Position,
        steps: tuple[Step, ...] | None,
        literal: bool,
        error: Issue | None,
    ) -> ReplayStep:
        """``action`` from ``before`` to ``after`` (``steps``: its legal play's)."""
        play = None if steps is None else play_text(steps, literal)
        return cls(action, write_position(before), write_position(after), play, error)


class GameChecker:
    """Walks one game's actions in order and says what the record gets wrong and where; the
    game itself (position, cube, turns, the end) is the rules' ``GameFlow``."""

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
        self.flow = GameFlow.start(start, setting.options)
        self.variant = start.variant
        self.awaiting_resignation = False
        self.replay: list[ReplayStep] | None = [] if replay else None
        self.played: list[tuple[ActionText, tuple[Step, ...] | None]] = []
        """Each action with the steps of its legal play, for the canonical record."""
        self.current_steps: tuple[Step, ...] | None = None
        self.verdict = GameVerdict(
            index=game.index,
            number=game.number,
            score_before=score_before,
            result=unfinished(self.flow.stake),
            crawford=setting.crawford_game,
        )
        self.report = GameReport(self.verdict, game.line, setting.mode, self.budget)
        rolls = [i for i, action in enumerate(game.actions) if action.kind is ActionKind.ROLL]
        self._first_roll = rolls[0] if rolls else -1
        self._last_roll = rolls[-1] if rolls else -1
        self._from_start = start.board == start.variant.start_board()

    @property
    def position(self) -> Position:
        return self.flow.position

    # -- running --------------------------------------------------------------------------

    def run(self) -> GameVerdict:
        for index, action in enumerate(self.game.actions):
            if self.report.stopped and action.kind not in (ActionKind.WIN, ActionKind.LOSS):
                continue
            self.budget.charge(Work.ACTIONS)
            before = self.position
            errors = len(self.verdict.errors)
            self.current_steps = None
            _HANDLERS[action.kind](self, index, action)
            if action.kind is not ActionKind.LOSS:
                self.played.append((action, self.current_steps))
            if self.replay is not None:
                # the first finding at the action, the rule it breaks (a strict verdict's
                # own); condone's impossible_action after it only says checking stopped
                error = self.verdict.errors[errors] if len(self.verdict.errors) > errors else None
                steps = self.current_steps
                self.replay.append(
                    ReplayStep.of(action, before, self.position, steps, self.literal, error)
                )
        result = self.flow.result
        if result is None:
            result = unfinished(self.flow.stake)
            if not self.report.stopped:
                self.warn(None, IssueCode.UNFINISHED_GAME, "the game ends without a result")
        self.verdict.result = result
        return self.verdict

    # -- reporting ------------------------------------------------------------------------

    def warn(self, action: ActionText | None, code: IssueCode, message: str) -> None:
        self.report.warn(action, code, message)

    def error(
        self,
        action: ActionText,
        code: IssueCode,
        message: str,
        rule: str | None = None,
        play: str | None = None,
        alternatives: tuple[str, ...] | None = None,
        stop: bool | None = None,
    ) -> None:
        """An error at ``action``, with the position before it (holding the action's dice
        when it is a roll)."""
        before = self.position
        if action.kind is ActionKind.ROLL and action.dice and before.phase is Phase.ROLL:
            dice = (max(action.dice), min(action.dice))
            before = replace(before, turn=Side(action.side), phase=Phase.MOVE, dice=dice)
        position = write_position(before)
        self.report.error(action, code, message, position, rule, play, alternatives, stop)

    def after_end(self, action: ActionText) -> bool:
        """Report an action after the game is over; True if it was one."""
        if not self.flow.over:
            return False
        self.error(action, IssueCode.ACTION_AFTER_END, "the game is already over", stop=False)
        return True

    # -- plays ----------------------------------------------------------------------------

    def roll(self, index: int, action: ActionText) -> None:
        """A roll and its play: the turn is checked, then the written play judged."""
        if self.after_end(action):
            return
        side = Side(action.side)
        if not self.settle_before_roll(action, side) or not self.on_turn(action, side):
            return
        assert action.dice is not None
        dice = (max(action.dice), min(action.dice))
        if self.unplayable(action) or self.opening_doublet(index, action, dice):
            return
        assert action.play is not None
        moves = [Move(m.from_point, m.to_point, m.hit) for m in action.play.moves]
        board, engine = self.position.board, self.setting.engine
        judge = PlayJudge(self.variant, board, side, dice, self.options, engine)
        verdict = judge.judge(moves, canonical=False)
        self.budget.charge(Work.PLAYS, judge.enumerated)
        if verdict.legal and verdict.board is not None:
            self.current_steps = verdict.steps
            self.mark_warnings(action, verdict)
            self.flow = self.flow.played(side, verdict.board)
        elif not moves:
            self.empty_play(index, action, side, judge, verdict)
        else:
            self.illegal_play(action, side, moves, verdict)

    def settle_before_roll(self, action: ActionText, side: Side) -> bool:
        """A roll while an offer is pending takes it (RULES.md 14.6, as writers leave out
        the take of a beaver); False when checking stops here."""
        if self.flow.cube.offer is None:
            return True
        rule = self.flow.implied_take_problem(side)
        if rule is not None:
            self.error(action, IssueCode.ILLEGAL_CUBE_ACTION, MESSAGES[rule], rule=str(rule))
            if self.report.stopped:
                return False
        self.flow = self.flow.taken(self.position.turn or side)
        return True

    def on_turn(self, action: ActionText, side: Side) -> bool:
        """Whether ``side`` is the one to roll (reporting, and stopping, when not)."""
        turn = self.position.turn
        if turn is None or side is turn:
            return True
        message = "it is the other player's turn"
        self.error(action, IssueCode.IMPOSSIBLE_ACTION, message, "wrong_turn", stop=True)
        return False

    def unplayable(self, action: ActionText) -> bool:
        """A roll whose play cannot be judged: unreadable, after an unknown play, or itself
        unknown (``????``: a resignation should follow). True when so."""
        if action.play is None:
            self.error(action, IssueCode.IMPOSSIBLE_ACTION, "the play cannot be read", stop=True)
        elif self.awaiting_resignation:
            message = "a play after an unknown play"
            self.error(action, IssueCode.IMPOSSIBLE_ACTION, message, stop=True)
        elif action.play.unknown:
            message = f"{action.text!r}: the record does not say the play"
            self.warn(action, IssueCode.UNKNOWN_PLAY, message)
            self.awaiting_resignation = True
        else:
            return False
        return True

    def empty_play(
        self, index: int, action: ActionText, side: Side, judge: PlayJudge, verdict: Judgement
    ) -> None:
        """A roll written without its play (gnubg's reading, FORMATS.md part 1 §4): the only
        legal play, or a resignation after rolling, or else an illegal play."""
        if len(judge.legal) == 1:
            forced = judge.legal[0]
            message = "the roll's only legal play is taken as played"
            self.warn(action, IssueCode.PLAY_NOT_WRITTEN, message)
            self.current_steps = forced.steps
            self.flow = self.flow.played(side, forced.board)
        elif index == self._last_roll and self._result_follows(index):
            self.warn(action, IssueCode.BARE_ROLL, "a roll without its play, then a resignation")
            self.awaiting_resignation = True
        else:
            self.illegal_play(action, side, [], verdict)

    def opening_doublet(self, index: int, action: ActionText, dice: tuple[int, int]) -> bool:
        """Report a doublet as the first roll from the start where the variant forbids it
        (RULES.md 14.2); True when checking stops there."""
        if self.variant.opening_doublets or dice[0] != dice[1]:
            return False
        if index != self._first_roll or not self._from_start:
            return False
        self.error(
            action,
            IssueCode.ILLEGAL_PLAY,
            "the first play of a game from the start uses the two different opening dice"
            " (docs/rules.md#14-2)",
            rule="opening_doublet",
            play=action.text.partition(":")[2].strip(),
            stop=self.setting.mode is not Mode.CONDONE,
        )
        return self.report.stopped

    def _result_follows(self, index: int) -> bool:
        return any(a.kind is ActionKind.WIN for a in self.game.actions[index + 1 :])

    def mark_warnings(self, action: ActionText, verdict: Judgement) -> None:
        for warning in verdict.warnings:
            if warning.code != IssueCode.HIT_NOT_MARKED or self.setting.hits_marked:
                self.warn(action, IssueCode(warning.code), warning.message)

    def illegal_play(
        self, action: ActionText, side: Side, moves: list[Move], verdict: Judgement
    ) -> None:
        assert verdict.reason is not None
        alternatives = tuple(play_text(play.steps, self.literal) for play in verdict.alternatives)
        written = shortened(action.text.split(":", 1)[1].strip())
        condone = self.setting.mode is Mode.CONDONE
        self.error(
            action,
            IssueCode.ILLEGAL_PLAY,
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
            self.error(action, IssueCode.IMPOSSIBLE_ACTION, physical, play=written, stop=True)
            return
        self.flow = self.flow.played(side, physical)

    # -- the cube -------------------------------------------------------------------------

    def cube_error(self, action: ActionText, rule: CubeRule) -> bool:
        """Report an illegal cube action; True when checking must not apply it."""
        self.error(action, IssueCode.ILLEGAL_CUBE_ACTION, MESSAGES[rule], rule=str(rule))
        return self.report.stopped or self.flow.cube.cube is None

    def double(self, index: int, action: ActionText) -> None:
        if self.after_end(action):
            return
        side = Side(action.side)
        rule = self.flow.double_problem(side, action.value)
        if rule is not None and (self.cube_error(action, rule) or self.flow.cube.offer is not None):
            return
        self.flow = self.flow.doubled(side)

    def answerable(self, action: ActionText) -> bool:
        """Whether ``action`` may answer a pending offer (reporting why not)."""
        if self.after_end(action):
            return False
        rule = self.flow.answer_problem(Side(action.side))
        if rule is not None:
            self.cube_error(action, rule)
        return rule is None

    def take(self, index: int, action: ActionText) -> None:
        if self.answerable(action):
            self.flow = self.flow.taken(Side(action.side))

    def drop(self, index: int, action: ActionText) -> None:
        if self.answerable(action):
            self.flow = self.flow.dropped()

    def beaver(self, index: int, action: ActionText, raccoon: bool = False) -> None:
        if self.after_end(action):
            return
        side = Side(action.side)
        rule = self.flow.beaver_problem(side, action.value, raccoon)
        if rule is not None and self.cube_error(action, rule):
            return
        if self.flow.cube.offer is None:  # condoned, but there is nothing to beaver
            return
        self.flow = self.flow.beavered(side)

    def raccoon(self, index: int, action: ActionText) -> None:
        """A raccoon is a beaver of the pending beaver (RULES.md 14.6)."""
        self.beaver(index, action, raccoon=True)

    # -- results --------------------------------------------------------------------------

    def win(self, index: int, action: ActionText) -> None:
        side = Side(action.side)
        value = action.value or 0
        self.verdict.recorded_winner = side
        self.verdict.recorded_points = value
        self.verdict.recorded_line = action.line
        if not self.flow.over and (not self.report.stopped or self.report.unchecked):
            self.flow = self.flow.ended(self.setting.wins_line, side, value)

    def loss(self, index: int, action: ActionText) -> None:
        self.warn(action, IssueCode.LOSSES_LINE, f"{action.text!r} is not scored; the Wins line is")

    def edit(self, index: int, action: ActionText) -> None:
        """A board edit: XG's ``Set Pos=`` line sets the board and cube; gnubg's ``NN:
        Illegal play (...)`` cell sets the board its player's turn left. An edit that
        cannot be read leaves the rest of the game unchecked."""
        self.budget.charge(Work.EDITS)
        if action.dice is not None:
            self.illegal_play_edit(action)
            return
        edited = set_pos_position(action.text, self.variant)
        if edited is None:
            self.unreadable_edit(action)
            return
        self.warn(action, IssueCode.POSITION_EDIT, f"{action.text[:40]!r}: the board is set")
        self.flow = self.flow.edited(edited.board, edited.cube)

    def illegal_play_edit(self, action: ActionText) -> None:
        """gnubg's edit in place of a play: the game goes on from the decoded board with the
        opponent to roll (as gnubg's importer reads it, FORMATS.md part 1 §4)."""
        if self.after_end(action):
            return
        side = Side(action.side)
        if self.position.turn is not None and side is not self.position.turn:
            self.error(
                action, IssueCode.IMPOSSIBLE_ACTION, "it is the other player's turn", "wrong_turn"
            )
            return
        board = illegal_play_board(action.text, self.variant)
        if board is None:
            self.unreadable_edit(action)
            return
        self.warn(
            action, IssueCode.POSITION_EDIT, "Illegal play (...): the board is set by an edit"
        )
        # The edit's roll may be the game's first: the roll after it is no opening roll.
        self._from_start = False
        self.flow = self.flow.played(side, board)

    def unreadable_edit(self, action: ActionText) -> None:
        self.warn(action, IssueCode.POSITION_EDIT, f"{action.text[:40]!r}: the rest is not checked")
        self.report.stop_unchecked()


_HANDLERS: dict[ActionKind, Callable[[GameChecker, int, ActionText], None]] = {
    ActionKind.ROLL: GameChecker.roll,
    ActionKind.DOUBLE: GameChecker.double,
    ActionKind.BEAVER: GameChecker.beaver,
    ActionKind.RACCOON: GameChecker.raccoon,
    ActionKind.TAKE: GameChecker.take,
    ActionKind.DROP: GameChecker.drop,
    ActionKind.WIN: GameChecker.win,
    ActionKind.LOSS: GameChecker.loss,
    ActionKind.EDIT: GameChecker.edit,
}
"""What checking does with each kind of action."""


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
