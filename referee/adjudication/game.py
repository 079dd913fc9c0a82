"""Checking one game of a record, action by action (NOTATION.md §4)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from notation.errors import NotationError
from notation.plays import format_play
from notation.records.model import ActionKind, ActionText, GameText
from notation.records.set_pos import parse_set_pos
from notation.records.snowie import parse_snowie_cell
from referee.adjudication.budget import Budget, Work
from referee.adjudication.setting import GameSetting, Mode
from referee.adjudication.verdict import GameVerdict, Issue
from referee.bridge import (
    board_from_snowie,
    play_moves,
    play_text,
    position_from_data,
    validated,
    write_position,
)
from referee.errors import InvalidPositionError, RefereeError
from referee.rules.board import Board, Step
from referee.rules.condone import play_physically
from referee.rules.cube import MESSAGES, CubeContext, CubeRule, CubeState
from referee.rules.judge import Judgement, PlayJudge
from referee.rules.options import DrawScoring, Judge
from referee.rules.position import Position
from referee.rules.scoring import (
    GameResult,
    Stake,
    score_bore_off,
    score_draw,
    score_drop,
    unfinished,
)
from vocabulary import CHECKERS, IssueCode, Move, Phase, Side


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
        self.cube = CubeState(start.cube)
        self.cube_context = CubeContext(
            setting.crawford_game, setting.match_length == 0, setting.options
        )
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
        rolls = [i for i, action in enumerate(game.actions) if action.kind is ActionKind.ROLL]
        self._first_roll = rolls[0] if rolls else -1
        self._last_roll = rolls[-1] if rolls else -1
        self._from_start = start.board == start.variant.start_board()

    @property
    def stake(self) -> Stake:
        """What the game is worth now: while an offer is pending, the cube before it."""
        return self.cube.stake(self.setting.match_length == 0, self.options)

    # -- running --------------------------------------------------------------------------

    def run(self) -> GameVerdict:
        handlers: dict[ActionKind, Callable[[int, ActionText], None]] = {
            ActionKind.ROLL: self.roll,
            ActionKind.DOUBLE: self.double,
            ActionKind.BEAVER: self.beaver,
            ActionKind.RACCOON: self.raccoon,
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
                self.warn(None, IssueCode.UNFINISHED_GAME, "the game ends without a result")
        self.verdict.result = self.result
        return self.verdict

    # -- reporting ------------------------------------------------------------------------

    def warn(self, action: ActionText | None, code: IssueCode, message: str) -> None:
        if action is None:
            self.verdict.warnings.append(Issue(code, message, line=self.game.line))
        else:
            self.verdict.warnings.append(Issue.at(action, code, message))

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
        before = self.position
        if action.kind is ActionKind.ROLL and action.dice and before.phase is Phase.ROLL:
            dice = (max(action.dice), min(action.dice))
            before = replace(before, turn=Side(action.side), phase=Phase.MOVE, dice=dice)
        issue = replace(
            Issue.at(action, code, message),
            rule=rule,
            position=write_position(before),
            play=play,
            alternatives=alternatives,
        )
        self.verdict.errors.append(issue)
        self.budget.charge(Work.ERRORS)
        if stop if stop is not None else self.setting.mode is Mode.STRICT:
            self.stopped = True

    def after_end(self, action: ActionText) -> bool:
        """Report an action after the game is over; True if it was one."""
        if self.result is None:
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
        if self.first_mover is None:
            self.first_mover = side
        assert action.dice is not None
        dice = (max(action.dice), min(action.dice))
        if self.unplayable(action) or self.opening_doublet(index, action, dice):
            return
        assert action.play is not None
        moves = [Move(m.from_point, m.to_point, m.hit) for m in action.play.moves]
        judge = PlayJudge(self.variant, self.position.board, side, dice, self.options)
        verdict = judge.judge(moves, canonical=False)
        self.budget.charge(Work.PLAYS, judge.enumerated)
        if verdict.legal and verdict.board is not None:
            self.current_steps = verdict.steps
            self.mark_warnings(action, verdict)
            self.after_play(action, side, verdict.board)
        elif not moves:
            self.empty_play(index, action, side, judge, verdict)
        else:
            self.illegal_play(action, side, moves, verdict)

    def settle_before_roll(self, action: ActionText, side: Side) -> bool:
        """A roll while an offer is pending takes it (RULES.md 14.6, as writers leave out
        the take of a beaver); False when checking stops here."""
        if self.cube.offer is None:
            return True
        rule = self.cube.implied_take_problem(side)
        if rule is not None:
            self.error(action, IssueCode.ILLEGAL_CUBE_ACTION, MESSAGES[rule], rule=str(rule))
            if self.stopped:
                return False
        self.settle(self.cube.after_take(self.position.turn or side))
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
            self.after_play(action, side, forced.board)
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
            " (RULES.md 14.2)",
            rule="opening_doublet",
            play=action.text.partition(":")[2].strip(),
            stop=self.setting.mode is not Mode.CONDONE,
        )
        return self.stopped

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
        written = action.text.split(":", 1)[1].strip()
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

    def cube_error(self, action: ActionText, rule: CubeRule) -> bool:
        """Report an illegal cube action; True when checking must not apply it."""
        self.error(action, IssueCode.ILLEGAL_CUBE_ACTION, MESSAGES[rule], rule=str(rule))
        return self.stopped or self.cube.cube is None

    def double(self, index: int, action: ActionText) -> None:
        if self.after_end(action):
            return
        side = Side(action.side)
        before_roll = self.position.turn is side and self.position.phase is Phase.ROLL
        rule = self.cube.double_problem(self.cube_context, side, before_roll, action.value)
        if rule is not None and (self.cube_error(action, rule) or self.cube.offer is not None):
            return
        self.offer(self.cube.after_double(side), side.other)

    def answerable(self, action: ActionText) -> bool:
        """Whether ``action`` may answer a pending offer (reporting why not)."""
        if self.after_end(action):
            return False
        rule = self.cube.answer_problem(Side(action.side))
        if rule is not None:
            self.cube_error(action, rule)
        return rule is None

    def take(self, index: int, action: ActionText) -> None:
        if self.answerable(action):
            self.settle(self.cube.after_take(Side(action.side)))

    def drop(self, index: int, action: ActionText) -> None:
        if self.answerable(action):
            self.result = score_drop(self.cube.drop_winner, self.stake)
            self.end()

    def beaver(self, index: int, action: ActionText, raccoon: bool = False) -> None:
        if self.after_end(action):
            return
        side = Side(action.side)
        rule = self.cube.beaver_problem(self.cube_context, side, action.value, raccoon)
        if rule is not None and self.cube_error(action, rule):
            return
        if self.cube.offer is None:  # condoned, but there is nothing to beaver
            return
        self.offer(self.cube.after_beaver(side), self.cube.offer.by)

    def raccoon(self, index: int, action: ActionText) -> None:
        """A raccoon is a beaver of the pending beaver (RULES.md 14.6)."""
        self.beaver(index, action, raccoon=True)

    def offer(self, cube: CubeState, answering: Side) -> None:
        """A new offer stands: ``answering`` must answer it; the position shows the value
        offered (NOTATION.md §1, state d)."""
        self.cube = cube
        self.position = replace(self.position, cube=cube.shown, turn=answering, phase=Phase.DOUBLED)

    def settle(self, cube: CubeState) -> None:
        """The offer is taken: the original doubler rolls next."""
        roller = self.cube.offer.roller if self.cube.offer is not None else self.position.turn
        self.cube = cube
        self.position = replace(self.position, cube=cube.cube, turn=roller, phase=Phase.ROLL)

    # -- results --------------------------------------------------------------------------

    def win(self, index: int, action: ActionText) -> None:
        side = Side(action.side)
        value = action.value or 0
        self.verdict.recorded_winner = side
        self.verdict.recorded_points = value
        self.verdict.recorded_line = action.line
        if self.result is None and (not self.stopped or self.unchecked):
            self.result = self.setting.score_wins_line(self.variant, side, value, self.stake)
            self.end()

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
        try:
            data = parse_set_pos(action.text)
            if data.variant != self.variant.id:  # XG writes backgammon only
                raise InvalidPositionError(f"a Set Pos edit in {self.variant.id}")
            edited = position_from_data(validated(data))
        except (NotationError, RefereeError):
            self.unreadable_edit(action)
            return
        self.warn(action, IssueCode.POSITION_EDIT, f"{action.text[:40]!r}: the board is set")
        self.position = replace(self.position, board=edited.board, cube=edited.cube)

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
        try:
            board = board_from_snowie(self.variant, parse_snowie_cell(action.text), side)
        except (NotationError, RefereeError):
            self.unreadable_edit(action)
            return
        self.warn(
            action, IssueCode.POSITION_EDIT, "Illegal play (...): the board is set by an edit"
        )
        if self.first_mover is None:
            self.first_mover = side
        self.after_play(action, side, board)

    def unreadable_edit(self, action: ActionText) -> None:
        self.warn(action, IssueCode.POSITION_EDIT, f"{action.text[:40]!r}: the rest is not checked")
        self.stopped = self.unchecked = True


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
