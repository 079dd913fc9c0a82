"""Legal plays (RULES.md §4-8, §13): distinct resulting boards of maximal plays.

One depth-first search serves every variant; the variant's ``TurnRules`` switch hitting,
the head limit and the block rule on or off. Dice are tried larger first and points from
the bar down, so the first step sequence found for a board is its canonical one.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from referee.rules.board import HOME_TOP, Board, Layout, Play, Step
from referee.rules.engine import CHOSEN, Engine
from referee.rules.options import BlockRule, BlockTiming
from referee.rules.variants import HEAD, TurnRules
from vocabulary import BAR, CHECKERS, OFF, Side


class Reason(StrEnum):
    """Why a play is illegal: stable codes for verdicts and API answers."""

    INVALID_POINT = "invalid_point"
    BACKWARD_MOVE = "backward_move"
    NO_BAR = "no_bar"
    NO_HITTING = "no_hitting"
    WRONG_DIE = "wrong_die"
    DICE_MISMATCH = "dice_mismatch"
    NO_CHECKER = "no_checker"
    MUST_ENTER_FROM_BAR = "must_enter_from_bar"
    BLOCKED_POINT = "blocked_point"
    BEAR_OFF_NOT_ALLOWED = "bear_off_not_allowed"
    BEAR_OFF_HIGHER_CHECKER = "bear_off_higher_checker"
    HEAD_RULE = "head_rule"
    BLOCK_RULE = "block_rule"
    NOT_ENOUGH_DICE_USED = "not_enough_dice_used"
    LARGER_DIE_REQUIRED = "larger_die_required"
    AMBIGUOUS_PLAY = "ambiguous_play"
    ILLEGAL_RESULT = "illegal_result"


@dataclass(frozen=True, slots=True)
class StepFailure:
    """The first step of a literal sequence that breaks a rule."""

    index: int
    step: Step
    reason: Reason


@dataclass(frozen=True, slots=True)
class Applied:
    """A literal step sequence that every rule allowed, with hits filled in."""

    steps: tuple[Step, ...]
    board: Board
    game_over: bool


Found = dict[bytes, tuple[tuple[Step, ...], int]]
"""Search results: board key -> (first step sequence found, dice it counts as using)."""


class _Turn:
    """The mutable working state of one turn: both layouts from the mover's side."""

    __slots__ = (
        "block",
        "found",
        "head_limit",
        "hitting",
        "me",
        "opp",
        "opposite",
        "record_every_node",
        "seen",
    )

    def __init__(self, rules: TurnRules, mine: Layout, theirs: Layout, head_limit: int | None):
        self.me = list(mine)
        self.opp = list(theirs)
        self.hitting = rules.hitting
        self.opposite = rules.opposite
        self.head_limit = head_limit
        self.block = rules.block
        self.record_every_node = rules.block is not None and (
            rules.block.timing is BlockTiming.END_OF_TURN
        )
        self.found: Found = {}
        self.seen: set[bytes] = set()

    # -- one step ---------------------------------------------------------------------------

    def problem(self, point: int, die: int, head_used: int) -> Reason | None:
        """Why the mover may not play ``die`` from ``point`` now (None if he may)."""
        me = self.me
        if not me[point]:
            return Reason.NO_CHECKER
        if point != BAR and me[BAR]:
            return Reason.MUST_ENTER_FROM_BAR
        if point == HEAD and self.head_limit is not None and head_used >= self.head_limit:
            return Reason.HEAD_RULE
        target = point - die
        if target > 0:
            count = self.opp[self.opposite[target]]
            if count and (not self.hitting or count > 1):
                return Reason.BLOCKED_POINT
            return None
        if any(me[HOME_TOP + 1 :]):
            return Reason.BEAR_OFF_NOT_ALLOWED
        if target < 0 and any(me[point + 1 : HOME_TOP + 1]):
            return Reason.BEAR_OFF_HIGHER_CHECKER
        return None

    def play(self, point: int, die: int) -> tuple[int, bool]:
        """Move one checker (the step must be allowed); returns its target and whether it hit."""
        target = max(point - die, OFF)
        me, opp = self.me, self.opp
        me[point] -= 1
        me[target] += 1
        hit = False
        if target and self.hitting:
            where = self.opposite[target]
            if opp[where]:
                opp[where] -= 1
                opp[BAR] += 1
                hit = True
        return target, hit

    def undo(self, point: int, target: int, hit: bool) -> None:
        me, opp = self.me, self.opp
        me[point] += 1
        me[target] -= 1
        if hit:
            opp[self.opposite[target]] += 1
            opp[BAR] -= 1

    # -- the block rule ---------------------------------------------------------------------

    def blocks_illegally(self, landed: int) -> bool:
        """Whether the checker just landed on ``landed`` completes a forbidden block."""
        if self.block is None or landed == OFF or self.me[landed] != 1:
            return False
        me, opposite = self.me, self.opposite
        high = low = opposite[landed]
        while high < 24 and me[opposite[high + 1]]:
            high += 1
        while low > 1 and me[opposite[low - 1]]:
            low -= 1
        return high - low >= 5 and not self._opponent_passes(low)

    def has_illegal_block(self) -> bool:
        """Whether any six-point block on the board is forbidden (end-of-turn check)."""
        if self.block is None:
            return False
        me, opposite = self.me, self.opposite
        run = 0
        for q in range(24, 0, -1):
            if me[opposite[q]]:
                run += 1
                at_low_end = q == 1 or not me[opposite[q - 1]]
                if run >= 6 and at_low_end and not self._opponent_passes(q):
                    return True
            else:
                run = 0
        return False

    def _opponent_passes(self, low: int) -> bool:
        """Whether an opponent checker makes a block whose lowest point is ``low`` legal."""
        opp = self.opp
        assert self.block is not None
        if self.block.rule is BlockRule.HOME:
            return any(opp[OFF : HOME_TOP + 1])
        return any(opp[OFF:low])

    # -- the search -------------------------------------------------------------------------

    def movable(self, die: int, head_used: int, below: int) -> list[int]:
        """The points (at most ``below``) from which ``die`` may be played now.

        The same rules as ``problem``, written out inline because the search spends its
        time here; ``tests/rules/test_movegen_internals.py`` checks that the two agree.
        """
        me, opp, opposite = self.me, self.opp, self.opposite
        if me[BAR]:
            points: Sequence[int] = (BAR,)
        else:
            points = [point for point in range(below, 0, -1) if me[point]]
        if self.head_limit is not None and head_used >= self.head_limit and me[HEAD]:
            points = [point for point in points if point != HEAD]
        bearing = not any(me[HOME_TOP + 1 :])
        hitting = self.hitting
        allowed = []
        for point in points:
            target = point - die
            if target > 0:
                count = opp[opposite[target]]
                if count and (not hitting or count > 1):
                    continue
            elif not bearing or (target < 0 and any(me[point + 1 : HOME_TOP + 1])):
                continue
            allowed.append(point)
        return allowed

    def search(self, dice: tuple[int, ...], depth: int, steps: list[Step], head_used: int) -> None:
        me = self.me
        total = len(dice)
        if me[OFF] == CHECKERS:
            self._record(steps, total)
            return
        every_node = self.record_every_node
        if every_node and not self.has_illegal_block():
            self._record(steps, depth)
        if depth == total:
            if not every_node:
                self._record(steps, depth)
            return
        doubles = dice[0] == dice[1]
        if depth and doubles and not self.hitting:
            key = bytes(me) + bytes((depth, head_used))
            if key in self.seen:
                return
            self.seen.add(key)
        die = dice[depth]
        below = steps[-1].from_point if depth and doubles and self.hitting else 24
        moved = False
        points = self.movable(die, head_used, below)
        if depth == 1 and dice[0] < dice[1] and self.block is None:
            points = self.not_found_yet(steps[0], die, points)
        last = depth == total - 1 and not every_node
        for point in points:
            target, hit = self.play(point, die)
            if not every_node and self.block is not None and self.blocks_illegally(target):
                self.undo(point, target, hit)
                continue
            moved = True
            if last:  # a leaf: record it here rather than one more call deep
                key = bytes(me) + bytes(self.opp)
                known = self.found.get(key)
                if known is None or known[1] < total:
                    self.found[key] = ((*steps, Step(point, target, die, hit)), total)
            else:
                steps.append(Step(point, target, die, hit))
                self.search(dice, depth + 1, steps, head_used + (point == HEAD))
                steps.pop()
            self.undo(point, target, hit)
        if not moved and not every_node:
            self._record(steps, depth)

    def not_found_yet(self, first: Step, die: int, points: list[int]) -> list[int]:
        """In the smaller-die-first order, the second steps whose play the larger-die-first
        order has not already found.

        After a first step that neither left the bar nor bore off, a second step by another
        checker that does not bear off commutes with it: played larger die first, the same
        two steps were legal (the bar was empty, no bear-off depends on the other step, a
        hit on a shared landing point only changes which checker hits) and reached the same
        board. Only continuing the first checker, or bearing off, can be new. Not used with
        the block rule, whose per-move check depends on the order.
        """
        if first.from_point == BAR or first.to_point == OFF:
            return points
        return [point for point in points if point == first.to_point or point <= die]

    def _record(self, steps: list[Step], used: int) -> None:
        """Remember the board reached; a board reached again keeps its first sequence
        unless the new one uses more dice (``5/off`` and ``5/2 2/off`` reach one board)."""
        key = bytes(self.me) + bytes(self.opp)
        known = self.found.get(key)
        if known is None or known[1] < used:
            self.found[key] = (tuple(steps), used)


def _orders(dice: tuple[int, int]) -> list[tuple[int, ...]]:
    high, low = max(dice), min(dice)
    if high == low:
        return [(high,) * 4]
    return [(high, low), (low, high)]


def _search(
    rules: TurnRules, board: Board, side: Side, dice: tuple[int, int], limit: int | None
) -> Found:
    turn = _Turn(rules, board.layout(side), board.layout(side.other), limit)
    for order in _orders(dice):
        turn.search(order, 0, [], 0)
    return turn.found


def legal_plays(
    rules: TurnRules,
    board: Board,
    side: Side,
    dice: tuple[int, int],
    engine: Engine = CHOSEN,
) -> list[Play]:
    """Every legal play of ``side`` with ``dice``: one per distinct resulting board, by
    ``engine`` (both engines give the same plays, steps and order).

    A single empty play (the board unchanged) when no die can be played.
    """
    if engine.native is None:
        return python_legal_plays(rules, board, side, dice)
    packed = engine.native.legal_plays(
        rules.plain, board.layout(side), board.layout(side.other), dice
    )
    return unpack_plays(packed, board, side)


class _PackedSteps(dict[bytes, Step]):
    """Steps by their four packed bytes, each made once per process: steps are immutable,
    and there are at most 300 (25 starting points, 6 dice, hitting or not)."""

    def __missing__(self, packed: bytes) -> Step:
        step = self[packed] = Step(packed[0], packed[1], packed[2], packed[3] == 1)
        return step


_PACKED_STEPS = _PackedSteps()


def unpack_plays(packed: bytes, board: Board, side: Side) -> list[Play]:
    """The native engine's plays, packed one after another as: the number of steps, four
    bytes a step (from, to, die, hit), then the mover's 26 counts and the opponent's."""
    plays = []
    at, end, cells = 0, len(packed), len(board.white)
    while at < end:
        stop = at + 1 + 4 * packed[at]
        steps = tuple([_PACKED_STEPS[packed[i : i + 4]] for i in range(at + 1, stop, 4)])
        mine = tuple(packed[stop : stop + cells])
        theirs = tuple(packed[stop + cells : stop + 2 * cells])
        plays.append(Play(steps, board.with_layouts(side, mine, theirs)))
        at = stop + 2 * cells
    return plays


def native_steps(steps: Sequence[tuple[int, int, int, bool]]) -> tuple[Step, ...]:
    """The native engine's ``(from, to, die, hit)`` tuples as steps."""
    return tuple(map(Step._make, steps))


def python_legal_plays(
    rules: TurnRules, board: Board, side: Side, dice: tuple[int, int]
) -> list[Play]:
    """``legal_plays`` by the Python engine, the reference."""
    found = _search(rules, board, side, dice, rules.head_limit)
    full = 4 if dice[0] == dice[1] else 2
    if rules.head_limit_if_needed is not None and _best(found) < full:
        found = _search(rules, board, side, dice, rules.head_limit_if_needed)
    if not found:  # only under end_of_turn, when even standing still keeps a forbidden block
        return [Play((), board)]
    best = _best(found)
    kept = [(key, steps) for key, (steps, used) in found.items() if used == best]
    if best == 1 and dice[0] != dice[1]:
        larger = [(key, steps) for key, steps in kept if steps[0].die == max(dice)]
        kept = larger or kept
    return [Play(steps, _board_of(key, board, side)) for key, steps in kept]


def _best(found: Found) -> int:
    return max((used for _, used in found.values()), default=0)


def _board_of(key: bytes, board: Board, side: Side) -> Board:
    """The board a search key (mover's layout + opponent's layout) stands for."""
    return board.with_layouts(side, tuple(key[:26]), tuple(key[26:]))


def display_order(steps: Sequence[Step]) -> tuple[Step, ...]:
    """Steps in the order plays are written (NOTATION.md §4), whatever order they came in:
    a checker moving with several dice as consecutive parts in travel order, and these
    chains sorted by from-point, then to-point, descending.

    Steps are sorted before they are linked into chains, and each hit is credited to the
    first step, in the written order, that lands on its point (where a reader of the text
    finds it), so the result depends only on which points were played and hit: the
    canonical text of a record is a fixed point.
    """
    ordered = sorted(steps, key=lambda s: (s.from_point, s.to_point), reverse=True)
    chains: list[list[Step]] = []
    for step in ordered:
        for chain in reversed(chains):
            if chain[-1].to_point == step.from_point != OFF:
                chain.append(step)
                break
        else:
            chains.append([step])
    chains.sort(key=lambda chain: [(s.from_point, s.to_point) for s in chain], reverse=True)
    hit_points = {step.to_point for step in steps if step.hit}
    written = []
    for step in (step for chain in chains for step in chain):
        hit = step.to_point in hit_points
        hit_points.discard(step.to_point)
        written.append(step._replace(hit=hit) if hit != step.hit else step)
    return tuple(written)


def apply_steps(
    rules: TurnRules,
    board: Board,
    side: Side,
    steps: Sequence[tuple[int, int]],
    head_limit: int | None = None,
) -> Applied | StepFailure:
    """Play ``(from_point, die)`` steps literally, in order, checking every rule per step;
    ``head_limit`` overrides the rules' own (the head exception judged over the turn)."""
    limit = rules.head_limit if head_limit is None else head_limit
    turn = _Turn(rules, board.layout(side), board.layout(side.other), limit)
    played: list[Step] = []
    head_used = 0
    for index, (point, die) in enumerate(steps):
        reason = turn.problem(point, die, head_used)
        target, hit = (max(point - die, OFF), False) if reason else turn.play(point, die)
        step = Step(point, target, die, hit)
        if reason is None and rules.block and rules.block.timing is BlockTiming.PER_MOVE:
            reason = Reason.BLOCK_RULE if turn.blocks_illegally(target) else None
        if reason is not None:
            return StepFailure(index, step, reason)
        played.append(step)
        head_used += point == HEAD
        if turn.me[OFF] == CHECKERS and index < len(steps) - 1:
            point, die = steps[index + 1]
            return StepFailure(index + 1, Step(point, max(point - die, OFF), die), Reason.WRONG_DIE)
    if rules.block and rules.block.timing is BlockTiming.END_OF_TURN and turn.has_illegal_block():
        return StepFailure(len(steps) - 1, played[-1], Reason.BLOCK_RULE)
    final = board.with_layouts(side, tuple(turn.me), tuple(turn.opp))
    return Applied(tuple(played), final, turn.me[OFF] == CHECKERS)
