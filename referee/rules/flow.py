"""The game flow (RULES.md §3, §9-11, §14): one game's state and every transition to the
next state or to the game's result.

Record checking (``adjudication.game``), the live table (``live.table``) and the native
core (``native/src/rules/flow.rs``) drive this one object; none of them decides how a game
goes on or ends. Each transition is a pure method returning the next ``GameFlow``; a
finished game carries its ``result`` and a position with state ``end``. Whether an action is
allowed is asked first (the ``*_problem`` methods); the transitions themselves check
nothing, so that condoned actions can still be applied.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from referee.rules.board import Board
from referee.rules.cube import CubeContext, CubeRule, CubeState, value_problem
from referee.rules.options import DrawScoring, Options
from referee.rules.position import Cube, Position
from referee.rules.scoring import (
    GameResult,
    Stake,
    score_bore_off,
    score_draw,
    score_drop,
    score_resignation,
    score_timeout,
)
from referee.rules.variants import Variant
from vocabulary import CHECKERS, Phase, Side


class Ending(StrEnum):
    """How a game ends (RULES.md §9-11, 14.5, 14.8; LIVE.md §4). The native core's
    ``Ending`` answers the first four by these names (its ``resigned``: a ``Wins`` line)."""

    BORE_OFF = "bore_off"
    """The winner bore off his last checker."""
    DRAW = "draw"
    """Both sides bore off under the draw rule."""
    DROP = "drop"
    """The pending offer was dropped: its maker wins."""
    RESIGNED = "resigned"
    """The game was given up for some points."""
    TIMED_OUT = "timed_out"
    """The side to act missed its deadline: the winner scores what he was awarded."""


@dataclass(frozen=True, slots=True)
class GameFlow:
    """A game in progress: the position, the cube's negotiation, who moved first, the draw
    rule's extra turn and, once it is over, the result."""

    position: Position
    options: Options
    cube: CubeState
    crawford_game: bool = False
    """This is the Crawford game (nobody may double; RULES.md 14.9)."""
    first_mover: Side | None = None
    extra_turn_for: Side | None = None
    """Under the draw rule: the side whose extra turn follows the first mover's finish."""
    finish_board: Board | None = None
    """The board when the first mover finished (scored under ``draw_scoring=at_finish``)."""
    result: GameResult | None = None

    @classmethod
    def start(cls, position: Position, options: Options) -> GameFlow:
        """A game from ``position`` (to roll; ``turn`` set when the start says who rolls)."""
        cube = CubeState(position.cube)
        return cls(position, options, cube, position.crawford, first_mover=position.turn)

    # -- what the game stands at ------------------------------------------------------------

    @property
    def variant(self) -> type[Variant]:
        return self.position.variant

    @property
    def money(self) -> bool:
        return self.position.match_length == 0

    @property
    def over(self) -> bool:
        return self.result is not None

    @property
    def stake(self) -> Stake:
        """What the game is worth now: while an offer is pending, the cube before it."""
        return self.cube.stake(self.money, self.options)

    @property
    def cube_context(self) -> CubeContext:
        return CubeContext(self.crawford_game, self.money, self.options)

    # -- may this be done now? ------------------------------------------------------------

    def double_problem(self, side: Side, written: int | None = None) -> CubeRule | None:
        """Why ``side`` may not double now (``written``: the value a record names)."""
        position = self.position
        before_roll = position.turn is side and position.phase is Phase.ROLL
        return self.cube.double_problem(self.cube_context, side, before_roll, written)

    def beaver_problem(
        self, side: Side, written: int | None = None, raccoon: bool = False
    ) -> CubeRule | None:
        """Why ``side`` may not beaver (or, with ``raccoon``, redouble a beaver) now."""
        return self.cube.beaver_problem(self.cube_context, side, written, raccoon)

    def answer_problem(self, side: Side) -> CubeRule | None:
        """Why ``side`` may not take or drop now."""
        return self.cube.answer_problem(side)

    def implied_take_problem(self, roller: Side) -> CubeRule | None:
        """Why ``roller`` may not roll while an offer is pending (a beaver's take is implied
        by the original doubler's roll)."""
        return self.cube.implied_take_problem(roller)

    # -- the opening (RULES.md 3.1, 14.2, 14.7) ----------------------------------------------

    def opening_tie(self) -> GameFlow:
        """The opening throw was a tie: in money play the cube doubles automatically, at most
        ``auto_doubles`` times and within the cube limit (RULES.md 14.7)."""
        cube = self.position.cube
        if cube is None or not self.money:
            return self
        doubles = cube.value.bit_length() - 1
        value = 2 * cube.value
        if doubles >= self.options.auto_doubles or value_problem(value, self.options) is not None:
            return self
        doubled = Cube(value)
        return replace(self, position=replace(self.position, cube=doubled), cube=CubeState(doubled))

    def opened(self, white: int, black: int) -> GameFlow:
        """The opening throw (``white`` ≠ ``black``): the higher die moves first. Where the
        variant forbids an opening doublet the two dice are his first roll (RULES.md 14.2);
        otherwise he rolls afresh (3.1)."""
        starter = Side.WHITE if white > black else Side.BLACK
        flow = replace(self, position=replace(self.position, turn=starter), first_mover=starter)
        return flow if self.variant.opening_doublets else flow.rolled(starter, (white, black))

    # -- turns ----------------------------------------------------------------------------

    def rolled(self, side: Side, dice: tuple[int, int]) -> GameFlow:
        """``side`` rolled ``dice`` and must play them (larger die first)."""
        high, low = max(dice), min(dice)
        position = replace(self.position, turn=side, phase=Phase.MOVE, dice=(high, low))
        return replace(self, position=position, first_mover=self.first_mover or side)

    def played(self, side: Side, board: Board) -> GameFlow:
        """``side`` played to ``board``: the next turn, the draw rule's extra turn, or the end
        (a bear-off or, after the extra turn, a draw; RULES.md §9-11)."""
        first_mover = self.first_mover or side
        finished = board.borne_off(side) == CHECKERS
        if self.extra_turn_for is side:
            if finished:
                return self.ended(Ending.DRAW, board=board)
            scored = board
            if self.finish_board is not None and self.options.draw_scoring is DrawScoring.AT_FINISH:
                scored = self.finish_board
            return self.ended(Ending.BORE_OFF, side.other, scored=scored, board=board)
        extra_turn_for, finish_board = self.extra_turn_for, self.finish_board
        if finished:
            opponent_done = board.borne_off(side.other) == CHECKERS
            if not (self.options.draw_rule and side is first_mover and not opponent_done):
                return self.ended(Ending.BORE_OFF, side, board=board)
            extra_turn_for, finish_board = side.other, board
        position = self.position.moved_on(board, side.other, Phase.ROLL)
        # Built directly, not with dataclasses.replace: a record's checking plays every turn.
        return GameFlow(
            position,
            self.options,
            self.cube,
            self.crawford_game,
            first_mover,
            extra_turn_for,
            finish_board,
        )

    def edited(self, board: Board, shown_cube: Cube | None) -> GameFlow:
        """A record's board edit (XG's ``Set Pos``): the board and the cube shown change."""
        return replace(self, position=replace(self.position, board=board, cube=shown_cube))

    # -- the cube (RULES.md 14.5-14.6) ------------------------------------------------------

    def doubled(self, side: Side) -> GameFlow:
        """``side`` offers a double; the other side must answer."""
        return self._offered(self.cube.after_double(side), side.other)

    def beavered(self, side: Side) -> GameFlow:
        """``side`` beavers (or raccoons) the pending offer; its maker must answer."""
        assert self.cube.offer is not None
        return self._offered(self.cube.after_beaver(side), self.cube.offer.by)

    def _offered(self, cube: CubeState, answering: Side) -> GameFlow:
        """A new offer stands; the position shows the value offered (NOTATION.md §1, d)."""
        position = replace(
            self.position,
            cube=cube.shown,
            turn=answering,
            phase=Phase.DOUBLED,
            crawford=self._crawford_shown(cube.shown),
        )
        return replace(self, position=position, cube=cube)

    def _crawford_shown(self, cube: Cube | None) -> bool:
        """Whether a position shows the Crawford game: only while its cube is untouched
        (NOTATION.md §1; a condoned double in the Crawford game leaves positions no
        legal game reaches, which are written without the flag)."""
        return self.crawford_game and cube == Cube()

    def taken(self, taker: Side) -> GameFlow:
        """The pending offer is taken: the original doubler rolls next."""
        offer = self.cube.offer
        roller = offer.roller if offer is not None else self.position.turn
        cube = self.cube.after_take(taker)
        position = replace(
            self.position,
            cube=cube.cube,
            turn=roller,
            phase=Phase.ROLL,
            crawford=self._crawford_shown(cube.cube),
        )
        return replace(self, position=position, cube=cube)

    def dropped(self) -> GameFlow:
        """The pending offer is dropped: its maker wins the cube before it."""
        return self.ended(Ending.DROP, self.cube.drop_winner)

    # -- other ends -----------------------------------------------------------------------

    def resigned(self, winner: Side, points: int) -> GameFlow:
        """The game is given up for ``points`` (a ``Wins N`` line, or a live resignation of
        N times the cube), valued by the variant (RULES.md §9, §11, 14.8)."""
        return self.ended(Ending.RESIGNED, winner, points)

    def timed_out(self, winner: Side, points: int) -> GameFlow:
        """The side to act missed its deadline: ``winner`` scores what he was awarded."""
        return self.ended(Ending.TIMED_OUT, winner, points)

    def ended(
        self,
        ending: Ending,
        winner: Side | None = None,
        points: int = 0,
        scored: Board | None = None,
        board: Board | None = None,
    ) -> GameFlow:
        """The game is over by ``ending``, won by ``winner`` (nobody in a draw), on ``board``
        (else the board as it stands): ``points`` are what a resignation gives up or a
        timeout awards, ``scored`` the board a bear-off counts (else ``board``)."""
        board = self.position.board if board is None else board
        result = self.ending_result(ending, winner, points, board if scored is None else scored)
        position = self.position.moved_on(board, None, Phase.END)
        return replace(self, position=position, result=result)

    def ending_result(
        self,
        ending: Ending,
        winner: Side | None = None,
        points: int = 0,
        scored: Board | None = None,
    ) -> GameResult:
        """The result ``ended`` gives the game, without making the ended game (the record
        fast path asks no more): the one scoring of every ending, for the game's stake
        (``scored``: the board a bear-off counts, else the board as it stands; ``points``: a
        resignation's or a timeout's)."""
        board = self.position.board if scored is None else scored
        stake = self.stake
        if ending is Ending.DRAW:
            return score_draw(stake)
        assert winner is not None
        if ending is Ending.BORE_OFF:
            return score_bore_off(self.variant, board, winner, stake, self.options)
        if ending is Ending.DROP:
            return score_drop(winner, stake)
        if ending is Ending.RESIGNED:
            return score_resignation(self.variant, winner, points, stake, self.options)
        return score_timeout(winner, points, stake)
