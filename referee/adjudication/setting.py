"""What one game's checking needs to know about its match, and the two modes of checking:
light to import (the record fast path needs them; the Python game checker only for the
games it checks)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from referee.rules.engine import CHOSEN, Engine
from referee.rules.flow import Ending
from referee.rules.options import Options


class Mode(StrEnum):
    """Strict stops a game at its first error; condone lets physically possible plays stand."""

    STRICT = "strict"
    CONDONE = "condone"


@dataclass(frozen=True, slots=True)
class Checking:
    """How a record is checked: the mode, the engine, and what is kept beside the verdict."""

    mode: Mode = Mode.STRICT
    engine: Engine = CHOSEN
    replay: bool = False
    """Keep every game's replay (every position before and after every action)."""
    writing: bool = False
    """Write each game's canonical lines as soon as it is checked."""


@dataclass(frozen=True, slots=True)
class GameSetting:
    """Everything about the match that one game's checking needs."""

    options: Options
    mode: Mode
    crawford_game: bool
    hits_marked: bool
    """The record marks hits with ``*`` somewhere, so a missing mark is worth a warning."""
    timed_out: bool = False
    """The game ended on time (``[Termination "timeout"]`` on its record's last game): its
    ``Wins`` line is what the referee awarded, not a resignation."""
    engine: Engine = CHOSEN

    @property
    def wins_line(self) -> Ending:
        """How a ``Wins`` line ends a game no other way ended: the referee's award of a game
        lost on time, else a resignation."""
        return Ending.TIMED_OUT if self.timed_out else Ending.RESIGNED
