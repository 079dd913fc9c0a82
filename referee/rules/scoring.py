"""How games end and what they are worth (RULES.md §9-11, §14.5-14.8)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from referee.rules.board import Board
from referee.rules.options import Options
from referee.rules.variants import Variant, Win, WinKind
from vocabulary import Side


class Termination(StrEnum):
    """How a game ended."""

    BORE_OFF = "bore_off"
    DROP = "drop"
    RESIGN = "resign"
    DRAW = "draw"
    TIMEOUT = "timeout"
    UNFINISHED = "unfinished"


@dataclass(frozen=True, slots=True)
class GameResult:
    """The end of a game and its value by the rules (never capped at the points needed)."""

    winner: Side | None
    termination: Termination
    kind: WinKind | None
    cube: int
    cube_owner: Side | None
    jacoby_applied: bool
    points: int


@dataclass(frozen=True, slots=True)
class Stake:
    """What the game is played for when it ends: the cube and whether Jacoby can apply."""

    cube: int = 1
    cube_owner: Side | None = None
    jacoby: bool = False
    """The Jacoby rule is in force (money play, option on) and no double has been offered."""


def value_win(win: Win, winner: Side, termination: Termination, stake: Stake) -> GameResult:
    """A won game's result: cube times the kind's value, or single under Jacoby."""
    jacoby = stake.jacoby and win.kind is not WinKind.SINGLE
    points = stake.cube * (1 if jacoby else win.points)
    return GameResult(winner, termination, win.kind, stake.cube, stake.cube_owner, jacoby, points)


def score_bore_off(
    variant: type[Variant], board: Board, winner: Side, stake: Stake, options: Options
) -> GameResult:
    """The result of a game ``winner`` ended by bearing off his last checker."""
    win = variant.classify_win(board, winner, options)
    return value_win(win, winner, Termination.BORE_OFF, stake)


def score_drop(doubler: Side, stake: Stake) -> GameResult:
    """A dropped double: the doubler wins the cube value before the double."""
    return GameResult(
        doubler, Termination.DROP, None, stake.cube, stake.cube_owner, False, stake.cube
    )


def score_resignation(
    variant: type[Variant], winner: Side, value: int, stake: Stake, options: Options
) -> GameResult:
    """A resignation for ``Wins N``: the variant values it (``Variant.resignation_win``)."""
    win = variant.resignation_win(value, stake.cube, options)
    return value_win(win, winner, Termination.RESIGN, stake)


def score_timeout(winner: Side, points: int, stake: Stake) -> GameResult:
    """A game lost on time (LIVE.md §4): the winner scores what the referee awarded him
    (the points he needed for the match, or the cube in a money game)."""
    return GameResult(
        winner, Termination.TIMEOUT, None, stake.cube, stake.cube_owner, False, points
    )


def score_draw(stake: Stake) -> GameResult:
    return GameResult(None, Termination.DRAW, None, stake.cube, stake.cube_owner, False, 0)


def unfinished(stake: Stake) -> GameResult:
    return GameResult(None, Termination.UNFINISHED, None, stake.cube, stake.cube_owner, False, 0)
