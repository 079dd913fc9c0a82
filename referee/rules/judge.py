"""Judging a written play against a position (RULES.md A6, NOTATION.md §4).

A written play is a list of moves ``from/to`` in the mover's numbering; a move may span
several dice (``24/13``). Each move is expanded into the die sequences that could make it,
every combination is tried, and the play is legal when one resulting board is legal: by the
resulting position (default) or by the literal order of the steps (``judge=sequence``).
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from referee.errors import MAX_ALTERNATIVES, shortened
from referee.rules.board import Board, Play, Step
from referee.rules.engine import CHOSEN, Engine
from referee.rules.movegen import (
    Applied,
    Reason,
    StepFailure,
    apply_steps,
    legal_plays,
    native_steps,
)
from referee.rules.options import BlockRule, Judge, Options
from referee.rules.variants import HEAD, TurnRules, Variant
from vocabulary import BAR, OFF, IssueCode, Move, Side, point_text


@dataclass(frozen=True, slots=True)
class RuleNote:
    """Why a play is illegal (a ``Reason``) or a warning about how it is written (an
    ``IssueCode``): a stable code and a sentence naming the rule."""

    code: str
    message: str


@dataclass(frozen=True, slots=True)
class Judgement:
    """The verdict on one written play."""

    legal: bool
    board: Board | None
    """The board after the play when it is legal."""
    play: Play | None
    """The canonical legal play (only when enumeration was needed or asked for)."""
    reason: RuleNote | None
    warnings: tuple[RuleNote, ...]
    alternatives: tuple[Play, ...]
    steps: tuple[Step, ...] = ()
    """The single moves that were played, as the written play decomposes (with hits)."""


@dataclass(frozen=True, slots=True)
class _Match:
    """A decomposition of the written play that reaches a legal board."""

    play: Play
    played: tuple[Step, ...]
    owners: tuple[int, ...]
    hidden_hit: bool
    """It hits on a point the written play does not show."""
    literal: bool
    """Its single moves are legal in the written order."""

    @property
    def as_written(self) -> bool:
        """The written single moves are a legal play's own: legal in order, one per die
        the play uses (``5/off`` for a play that is ``5/2 2/off`` is not)."""
        return self.literal and len(self.played) == len(self.play.steps)


Candidate = tuple[tuple[tuple[int, int], ...], tuple[int, ...]]
"""Steps as ``(from_point, die)`` plus, per step, the index of the written move it belongs to."""


class PlayJudge:
    """Judges written plays for one position: ``side`` to play ``dice`` on ``board``."""

    def __init__(
        self,
        variant: type[Variant],
        board: Board,
        side: Side,
        dice: tuple[int, int],
        options: Options,
        engine: Engine = CHOSEN,
    ) -> None:
        self.variant = variant
        self.board = board
        self.side = side
        self.dice = dice
        self.options = options
        self.engine = engine
        self.rules: TurnRules = variant.turn_rules(board, side, dice, options)
        self._legal: list[Play] | None = None

    @property
    def legal(self) -> list[Play]:
        """Every legal play (computed once)."""
        if self._legal is None:
            self._legal = legal_plays(self.rules, self.board, self.side, self.dice, self.engine)
        return self._legal

    @property
    def enumerated(self) -> int:
        """How many legal plays were enumerated so far (the costly part of judging)."""
        return 0 if self._legal is None else len(self._legal)

    @property
    def head_limit_in_force(self) -> int | None:
        """The head limit the legal plays were built with: ``only_if_needed`` raises it to
        two when one head checker cannot play the whole roll."""
        if self.rules.head_limit_if_needed is None:
            return self.rules.head_limit
        start = self.board.layout(self.side)[HEAD]
        taken = [start - play.board.layout(self.side)[HEAD] for play in self.legal]
        return max([self.rules.head_limit or 0, *taken])

    def literally(self, steps: Sequence[tuple[int, int]]) -> Applied | StepFailure:
        """The steps played in the written order under the head limit in force."""
        return apply_steps(self.rules, self.board, self.side, steps, self.head_limit_in_force)

    @property
    def full(self) -> int:
        return 4 if self.dice[0] == self.dice[1] else 2

    def judge(self, moves: Sequence[Move], canonical: bool = True) -> Judgement:
        """Whether ``moves`` is a legal play; with ``canonical`` the legal play is named.

        The native engine, when it is the judge's, answers the legal plays (their warnings
        are worded here); everything else is judged and worded here.
        """
        problem = self._shape_problem(moves)
        if problem is not None:
            return self._illegal(problem)
        if self.engine.native is not None:
            accepted = self._native_judgement(moves, canonical)
            if accepted is not None:
                return accepted
        if not moves:
            return self._judge_empty()
        candidates = list(_candidates(moves, self.dice))
        if not candidates:
            return self._illegal(self._finding(Reason.WRONG_DIE, moves=moves))
        if len(candidates) == 1 and not canonical:
            quick = self._quick(moves, candidates[0])
            if quick is not None:
                return quick
        return self._judge_by_enumeration(moves, candidates)

    # -- the ways to decide ----------------------------------------------------------------

    def _native_judgement(self, moves: Sequence[Move], canonical: bool) -> Judgement | None:
        """The native engine's judgement of a legal play (None: declined)."""
        native = self.engine.native
        assert native is not None
        answer = native.judge(
            self.rules.plain,
            self.board.layout(self.side),
            self.board.layout(self.side.other),
            self.dice,
            [(move.from_point, move.to_point, move.hit) for move in moves],
            self.options.judge is Judge.SEQUENCE,
            canonical,
        )
        if answer is None:
            return None
        mine, theirs, play, steps, marks = answer
        board = self.board.with_layouts(self.side, mine, theirs)
        legal = None if play is None else Play(native_steps(play[0]), board)
        warnings = () if marks is None else _mark_warnings(moves, native_steps(marks[0]), marks[1])
        return Judgement(True, board, legal, None, warnings, (), native_steps(steps))

    def _quick(self, moves: Sequence[Move], candidate: Candidate) -> Judgement | None:
        """Accept a literal play that uses every die without enumerating (None: not sure)."""
        if self.rules.head_limit_if_needed is not None:
            return None
        steps, owners = candidate
        applied = apply_steps(self.rules, self.board, self.side, steps)
        if not isinstance(applied, Applied):
            return None
        if len(steps) != self.full and not applied.game_over:
            return None
        warnings = _mark_warnings(moves, applied.steps, owners)
        return Judgement(True, applied.board, None, None, warnings, (), applied.steps)

    def _judge_by_enumeration(
        self, moves: Sequence[Move], candidates: list[Candidate]
    ) -> Judgement:
        by_board = {play.board: play for play in self.legal}
        matches: list[_Match] = []
        for steps, owners in candidates:
            literal = self.literally(steps)
            literal_ok = isinstance(literal, Applied)
            if self.options.judge is Judge.SEQUENCE and not literal_ok:
                continue
            for order, (ordered, order_owners) in enumerate(self._orders(steps, owners)):
                physical = self._physical(ordered)
                play = None if physical is None else by_board.get(physical[0])
                if physical is None or play is None:
                    continue
                played = physical[1]
                hidden_hit = _hits_on_the_way(played, order_owners)
                as_written = literal_ok and order == 0
                matches.append(_Match(play, played, order_owners, hidden_hit, as_written))
                break
        preferred = [match for match in matches if not match.hidden_hit] or matches
        distinct: dict[Board, _Match] = {}
        for match in sorted(preferred, key=lambda match: not match.as_written):
            distinct.setdefault(match.play.board, match)  # as written first, then larger die
        if len(distinct) > 1:
            plays = tuple(match.play for match in distinct.values())
            return self._illegal(self._finding(Reason.AMBIGUOUS_PLAY, moves=moves), plays)
        if distinct:
            match = next(iter(distinct.values()))
            warnings = _mark_warnings(moves, match.played, match.owners)
            chosen = match.played if match.as_written else match.play.steps
            return Judgement(True, match.play.board, match.play, None, warnings, (), chosen)
        return self._illegal(self._diagnose(candidates[0], moves))

    def _judge_empty(self) -> Judgement:
        legal = self.legal
        if len(legal) == 1 and not legal[0].steps:
            return Judgement(True, legal[0].board, legal[0], None, (), ())
        best = len(legal[0].steps)
        return self._illegal(self._finding(Reason.NOT_ENOUGH_DICE_USED, used=0, best=best))

    # -- diagnosis ------------------------------------------------------------------------

    def _shape_problem(self, moves: Sequence[Move]) -> RuleNote | None:
        """Problems visible without the board: points, direction, bar and hits in nardy."""
        for move in moves:
            if not (0 < move.from_point <= BAR and 0 <= move.to_point < BAR):
                return self._finding(Reason.INVALID_POINT, move=move)
            if move.to_point >= move.from_point:
                return self._finding(Reason.BACKWARD_MOVE, move=move)
            if not self.variant.hitting and move.from_point == BAR:
                return self._finding(Reason.NO_BAR)
            if not self.variant.hitting and move.hit:
                return self._finding(Reason.NO_HITTING)
        return None

    def _diagnose(self, candidate: Candidate, moves: Sequence[Move]) -> RuleNote:
        steps, _ = candidate
        applied = self.literally(steps)
        if isinstance(applied, StepFailure):
            return self._finding(applied.reason, step=applied.step)
        best = len(self.legal[0].steps)
        used = len(applied.steps)
        if used < best:
            return self._finding(Reason.NOT_ENOUGH_DICE_USED, used=used, best=best)
        if best == 1 and self.dice[0] != self.dice[1]:
            return self._finding(Reason.LARGER_DIE_REQUIRED)
        # Each step is legal and as many dice are used as anywhere, yet the board is not
        # a legal play's: no rule known to the search allows that; name it plainly.
        return self._finding(Reason.ILLEGAL_RESULT)

    def _illegal(self, reason: RuleNote, alternatives: Sequence[Play] = ()) -> Judgement:
        shown = tuple(alternatives) or tuple(self.legal[:MAX_ALTERNATIVES])
        return Judgement(False, None, None, reason, (), shown[:MAX_ALTERNATIVES])

    def _finding(
        self,
        reason: Reason,
        *,
        step: Step | None = None,
        move: Move | None = None,
        moves: Sequence[Move] = (),
        used: int = 0,
        best: int = 0,
    ) -> RuleNote:
        return RuleNote(str(reason), _message(self, reason, step, move, moves, used, best))

    # -- physical application -------------------------------------------------------------

    def _orders(
        self, steps: Sequence[tuple[int, int]], owners: Sequence[int]
    ) -> Iterator[Candidate]:
        """The steps as written, then, when judging by position (RULES.md A6), the written
        moves in every other order: ``18/13 24/18`` is the play ``24/18 18/13``."""
        yield tuple(steps), tuple(owners)
        if self.options.judge is Judge.SEQUENCE:
            return
        moves: dict[int, list[tuple[int, int]]] = {}
        for step, owner in zip(steps, owners, strict=True):
            moves.setdefault(owner, []).append(step)
        for order in itertools.islice(itertools.permutations(moves), 1, None):
            yield (
                tuple(step for owner in order for step in moves[owner]),
                tuple(owner for owner in order for _ in moves[owner]),
            )

    def _physical(self, steps: Sequence[tuple[int, int]]) -> tuple[Board, tuple[Step, ...]] | None:
        """The board the steps reach when only checkers' existence is enforced.

        Points passed on the way are not checked (judging is by the resulting position);
        a single opposing checker on a landing point is hit where the variant hits.
        """
        mine = list(self.board.layout(self.side))
        theirs = list(self.board.layout(self.side.other))
        opposite = self.rules.opposite
        played = []
        for point, die in steps:
            if not mine[point]:
                return None
            target = max(point - die, OFF)
            mine[point] -= 1
            mine[target] += 1
            hit = False
            if target and self.rules.hitting and theirs[opposite[target]] == 1:
                theirs[opposite[target]] = 0
                theirs[BAR] += 1
                hit = True
            played.append(Step(point, target, die, hit))
        board = self.board.with_layouts(self.side, tuple(mine), tuple(theirs))
        return board, tuple(played)


def _candidates(moves: Sequence[Move], dice: tuple[int, int]) -> Iterator[Candidate]:
    """Every way to make the written moves with the dice, each die used at most once."""
    pool = [dice[0]] * 4 if dice[0] == dice[1] else list(dice)
    if len(moves) > len(pool):
        return
    distances = [move.from_point - move.to_point for move in moves]
    if sorted(distances) == sorted(pool) and all(move.to_point for move in moves):
        # One die per move, each its move's distance: the only way (the common case).
        steps = tuple((move.from_point, d) for move, d in zip(moves, distances, strict=True))
        yield steps, tuple(range(len(moves)))
        return
    seen: set[Candidate] = set()
    for candidate in _combine(moves, 0, pool):
        if candidate not in seen:
            seen.add(candidate)
            yield candidate


def _combine(moves: Sequence[Move], index: int, pool: list[int]) -> Iterator[Candidate]:
    if index == len(moves):
        yield (), ()
        return
    move = moves[index]
    for dice_seq, rest in _die_sequences(move, pool):
        steps = []
        point = move.from_point
        for die in dice_seq:
            steps.append((point, die))
            point = max(point - die, OFF)
        for tail_steps, tail_owners in _combine(moves, index + 1, rest):
            yield tuple(steps) + tail_steps, (index,) * len(steps) + tail_owners


def _die_sequences(move: Move, pool: list[int]) -> Iterator[tuple[list[int], list[int]]]:
    """Ordered dice from ``pool`` that carry one checker from ``move.from_point`` to its target:
    exactly, or past the edge when bearing off."""
    return _extend(move.from_point - move.to_point, move.to_point == OFF, [], pool, 0)


def _extend(
    distance: int, bearing_off: bool, chosen: list[int], rest: list[int], total: int
) -> Iterator[tuple[list[int], list[int]]]:
    """``chosen`` dice extended from ``rest`` until they cover ``distance`` (a module-level
    recursion: a nested one would make a reference cycle per written move)."""
    if chosen and (total == distance or (bearing_off and total > distance)):
        yield chosen, rest
        return
    if total >= distance:
        return
    for value in sorted(set(rest), reverse=True):
        remaining = list(rest)
        remaining.remove(value)
        yield from _extend(distance, bearing_off, [*chosen, value], remaining, total + value)


def _hits_on_the_way(played: Sequence[Step], owners: Sequence[int]) -> bool:
    """Whether a consolidated move hit on a point it does not show."""
    return any(
        step.hit and owners[index] == owners[index + 1] for index, step in enumerate(played[:-1])
    )


def _mark_warnings(
    moves: Sequence[Move], played: Sequence[Step], owners: Sequence[int]
) -> tuple[RuleNote, ...]:
    """Missing or wrong ``*`` marks: the last step of each written move against its mark.

    Identical written moves form one group (``13/7*(2)``: two checkers, one hit), whose
    mark is right when any of them hits.
    """
    if not any(step.hit for step in played) and not any(move.hit for move in moves):
        return ()
    last_step = {owner: step for step, owner in zip(played, owners, strict=True)}
    groups: dict[Move, bool] = {}
    for index, move in enumerate(moves):
        step = last_step.get(index)
        if step is not None:
            groups[move] = groups.get(move, False) or step.hit
    warnings = []
    for move, hit in groups.items():
        if hit == move.hit:
            continue
        text = f"{point_text(move.from_point)}/{point_text(move.to_point)}"
        if hit:
            warnings.append(RuleNote(IssueCode.HIT_NOT_MARKED, f"{text} hits but is not marked *"))
        else:
            warnings.append(
                RuleNote(IssueCode.HIT_MARK_WRONG, f"{text}* is marked but hits nothing")
            )
    for index, step in enumerate(played[:-1]):
        if step.hit and owners[index] == owners[index + 1]:
            move = moves[owners[index]]
            text = f"{point_text(move.from_point)}/{point_text(move.to_point)}"
            shown = f"{point_text(move.from_point)}/{step.to_point}*/{point_text(move.to_point)}"
            message = f"{text} hits on {step.to_point} on the way: write {shown}"
            warnings.append(RuleNote(IssueCode.HIT_NOT_MARKED, message))
    return tuple(warnings)


def _message(
    judge: PlayJudge,
    reason: Reason,
    step: Step | None,
    move: Move | None,
    moves: Sequence[Move],
    used: int,
    best: int,
) -> str:
    """A sentence naming the rule that the play breaks (RULES.md section in brackets)."""
    written = shortened(
        " ".join(f"{point_text(m.from_point)}/{point_text(m.to_point)}" for m in moves)
    )
    dice = f"{max(judge.dice)}-{min(judge.dice)}"
    whole_play = {
        Reason.NOT_ENOUGH_DICE_USED: (
            f"the play uses {used} of the dice but {best} can be played (docs/rules.md#5-1)"
        ),
        Reason.LARGER_DIE_REQUIRED: (
            f"only one die can be played, so the larger ({max(judge.dice)}) must be"
            " (docs/rules.md#5-2)"
        ),
        Reason.AMBIGUOUS_PLAY: f"{written} can mean several plays with different results",
        Reason.ILLEGAL_RESULT: f"{written} reaches a position no legal play reaches",
    }
    if reason in whole_play:
        return whole_play[reason]
    if reason is Reason.WRONG_DIE and step is None:
        return f"{written} cannot be played with {dice}"
    return _move_message(judge, reason, step or move)


def _move_message(judge: PlayJudge, reason: Reason, shown: Step | Move | None) -> str:
    """A sentence naming the rule that one move of the play breaks."""
    variant = judge.variant.title.lower()
    where = f"{point_text(shown.from_point)}/{point_text(shown.to_point)}" if shown else ""
    origin = point_text(shown.from_point) if shown else ""
    target = point_text(shown.to_point) if shown else ""
    die = shown.die if isinstance(shown, Step) else ""
    held = (
        "is held by two or more opposing checkers (docs/rules.md#14-3)"
        if judge.variant.hitting
        else "is occupied by the opponent (docs/rules.md#4-2)"
    )
    messages = {
        Reason.INVALID_POINT: f"{where}: points run from 25 (bar) down to 0 (off)",
        Reason.BACKWARD_MOVE: f"{where} moves backwards",
        Reason.NO_BAR: f"there is no bar in {variant}: checkers are never hit (docs/rules.md#4-2)",
        Reason.NO_HITTING: f"there is no hitting in {variant} (docs/rules.md#4-2)",
        Reason.WRONG_DIE: f"{where} is played after the last checker is off: the game is over",
        Reason.NO_CHECKER: f"{where}: there is no checker of yours on {origin}",
        Reason.MUST_ENTER_FROM_BAR: (
            f"{where}: a checker on the bar must enter before any other checker moves"
            " (docs/rules.md#14-3)"
        ),
        Reason.BLOCKED_POINT: f"{where}: {target} {held}",
        Reason.BEAR_OFF_NOT_ALLOWED: (
            f"{where}: bearing off needs every checker in the home (docs/rules.md#8-1)"
        ),
        Reason.BEAR_OFF_HIGHER_CHECKER: (
            f"{where}: a {die} bears off from a lower point only when no"
            " checker stands higher (docs/rules.md#8-3)"
        ),
        Reason.HEAD_RULE: (
            f"{where}: only {judge.rules.head_limit or 1} checker(s) may leave the head this"
            " turn (docs/rules.md#6-1)"
        ),
        Reason.BLOCK_RULE: (
            f"{where}: makes a block of six points before any opponent checker has entered"
            " his home (docs/rules.md#7-3, block_rule=home)"
            if judge.options.block_rule is BlockRule.HOME
            else f"{where}: makes a block of six points with no opponent checker ahead of it"
            " (docs/rules.md#7-2)"
        ),
    }
    return messages.get(reason, str(reason))
