"""The whole state of a game at one moment: board, whose turn, dice, cube and match score."""

from __future__ import annotations

from dataclasses import dataclass

from referee.rules.board import Board
from referee.rules.variants import Variant
from vocabulary import CHECKERS, SIDES, Phase, Side


@dataclass(frozen=True, slots=True)
class Cube:
    """The doubling cube: its value and its owner (None = centred)."""

    value: int = 1
    owner: Side | None = None


@dataclass(frozen=True, slots=True)
class Position:
    """An immutable, hashable game state; ``cube`` is None in games without a cube."""

    variant: type[Variant]
    board: Board
    turn: Side | None
    phase: Phase
    dice: tuple[int, int] | None = None
    resign: int = 0
    cube: Cube | None = None
    match_length: int = 0
    score: tuple[int, int] = (0, 0)
    crawford: bool = False
    post_crawford: bool = False

    @property
    def finished_side(self) -> Side | None:
        """A side that has borne off all its checkers, if any."""
        for side in SIDES:
            if self.board.borne_off(side) == CHECKERS:
                return side
        return None

    def after_play(self, board: Board, draw_rule: bool) -> Position:
        """The position after the side on turn played to ``board`` (NOTATION.md §4).

        The turn passes with state ``-``; a finished game gets turn ``-`` and state ``end``.
        Under the draw rule the opponent of a finisher still moves unless he is finished too
        (whether he really gets the extra turn depends on who started: the record knows).
        """
        assert self.turn is not None
        finished = [side for side in SIDES if board.borne_off(side) == CHECKERS]
        if finished and not (draw_rule and len(finished) == 1 and finished[0] is self.turn):
            return self.moved_on(board, None, Phase.END)
        return self.moved_on(board, self.turn.other, Phase.ROLL)

    def moved_on(self, board: Board, turn: Side | None, phase: Phase) -> Position:
        """This position with a new board, turn and phase and no dice.

        Built directly, not with ``dataclasses.replace``: record checking calls it per turn.
        """
        return Position(
            self.variant,
            board,
            turn,
            phase,
            None,
            self.resign,
            self.cube,
            self.match_length,
            self.score,
            self.crawford,
            self.post_crawford,
        )
