"""The project's own engine for long nardy and khachapuri (the native core's ``engine``,
docs/engine.md) as a player at the table. It answers the nardy question
(``referee.players.nardy``) in this process, as a UBGI engine answers over a pipe, so the
bridge seats it like the others; ``nardy-referee engine --ubgi`` serves it on
stdin/stdout. Its trained weights ship with the package (``weights/VARIANT.net``)."""

from __future__ import annotations

import importlib
from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import Any

from referee.players.gnubg import EngineError
from referee.players.nardy import NARDY, Question, read_question
from referee.rules.engine import NATIVE_MODULE
from referee.rules.options import Options
from vocabulary import Phase, VariantId

PLIES = (0, 1)
DEFAULT_PLIES = 1
"""1-ply (expectimax over the 21 rolls) decides within 50 ms (docs/engine.md)."""


@dataclass(frozen=True, slots=True)
class RankedPlay:
    """A legal play as the engine judges it: its text, the points it expects for the side
    to play (the equity), the chances of winning and of each mars, the plies searched."""

    play: str
    equity: float
    win: float
    win_mars: float
    lose_mars: float
    plies: int

    @classmethod
    def of(cls, ranked: tuple[str, float, list[float], int]) -> RankedPlay:
        """A play as the native engine ranks it: (text, equity, outputs, plies)."""
        play, equity, outputs, plies = ranked
        return cls(play, equity, outputs[0], outputs[1], outputs[2], plies)


def native_core() -> Any:
    try:
        return importlib.import_module(NATIVE_MODULE)
    except ImportError:
        raise EngineError(
            "the builtin engine is part of the native core, which is not built here"
            " (`make native` builds it)"
        ) from None


@cache
def network(variant: VariantId) -> Any:
    """The shipped network of ``variant`` (loaded once per process)."""
    data = files("referee.players").joinpath("weights", f"{variant}.net").read_bytes()
    return native_core().EngineNetwork.load(data)


def play_options(options: Options) -> tuple[str, str, str, str]:
    """The options the engine's move generator reads, as the native core takes them."""
    return (
        str(options.head_exception),
        str(options.first_turn_scope),
        str(options.block_rule),
        str(options.block_timing),
    )


@dataclass
class BuiltinEngine:
    """The nardy engine searching ``plies`` deep (0: the network's best resulting position;
    1: expectimax over the opponent's 21 rolls)."""

    plies: int = DEFAULT_PLIES

    name = "builtin"
    variants = NARDY

    def __post_init__(self) -> None:
        if self.plies not in PLIES:
            raise ValueError(f"the builtin engine searches 0 or 1 ply, not {self.plies}")

    def ask(self, line: str) -> str:
        """The answer to a question line: a move, a blank line (no move), or ``roll``."""
        return self.answer(read_question(line))

    def answer(self, question: Question) -> str:
        position = question.position
        if position.phase is Phase.ROLL:
            return "roll"
        if position.phase is not Phase.MOVE:
            raise EngineError(f"the builtin engine has no answer in phase {position.phase}")
        return self.best(question).play

    def best(self, question: Question) -> RankedPlay:
        """The best play for the position's dice (at 1-ply only when more than one play is
        a candidate)."""
        return RankedPlay.of(network(question.position.variant.id).choose(*self._roll(question)))

    def ranked(self, question: Question) -> list[RankedPlay]:
        """Every legal play for the position's dice, best first (at 1-ply the best few at
        0-ply are searched again and lead; the rest follow at 0-ply)."""
        ranked = network(question.position.variant.id).rank(*self._roll(question))
        return [RankedPlay.of(play) for play in ranked]

    def _roll(self, question: Question) -> tuple[Any, ...]:
        """The native engine's arguments for the question's roll."""
        position = question.position
        assert position.turn is not None and position.dice is not None
        board = position.board
        return (
            list(board.layout(position.turn)),
            list(board.layout(position.turn.other)),
            position.dice,
            self.plies,
            play_options(question.options),
        )

    def close(self) -> None:
        """Nothing to close: the engine runs in this process."""


def builtin_engine(spec: str) -> BuiltinEngine:
    """``builtin`` or ``builtin:PLIES`` (ValueError for anything else)."""
    _, _, plies = spec.partition(":")
    if plies and not plies.isdigit():
        raise ValueError(f"expected builtin or builtin:PLIES, got {spec!r}")
    return BuiltinEngine(int(plies) if plies else DEFAULT_PLIES)
