"""An analysis on the match page (ANALYSIS.md §5): which of the match's analyses is shown
(the one asked for, ``?an=``, else the newest made), each player's figures as the command
line prints them, and per step of the replay the analysed actions: the mark of a loss
(``?!`` doubtful, ``?`` bad, ``??`` very bad), the engine's best play and the luck of the
roll."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from referee.analysis.table import JUDGES, ROWS, cell, figure, pr_note
from referee.players.nardy import NARDY
from referee.rules.words import play_words

MARKS = {"doubtful": "?!", "bad": "?", "very_bad": "??"}
"""The marks of a loss (gnubg's thresholds), as players write them."""
KINDS = {"double": "double", "take": "take", "drop": "drop", "no_double": "no double"}

__all__ = [
    "JUDGES",
    "ActionNote",
    "FigureRow",
    "chosen",
    "figure_rows",
    "judge_of",
    "pr_note",
    "step_notes",
]


@dataclass(frozen=True, slots=True)
class FigureRow:
    """A row of the players' table: what it is, and White's and Black's figure."""

    heading: str
    cells: tuple[str, str]


@dataclass(frozen=True, slots=True)
class ActionNote:
    """One analysed action of a step of the replay (a roll's play, or a cube action; a
    turn where a double was possible shares its roll's step)."""

    kind: str
    played: str | None
    best: str | None
    loss: float | None
    mark: str | None
    luck: float | None
    luck_mark: str | None

    @property
    def symbol(self) -> str:
        """``?!``, ``?`` or ``??`` for a marked loss, else nothing."""
        return MARKS.get(self.mark or "", "")

    @property
    def what(self) -> str:
        """The action in words: ``no double``, ``take``... or the play."""
        if self.kind == "play":
            return "" if self.played is None else play_words(self.played)
        return KINDS.get(self.kind, self.kind)

    @property
    def judged(self) -> str:
        """The engine's judgement of a marked loss: ``bad: best 13/11 13/7, −0.071``."""
        if not self.symbol or self.best is None or self.loss is None:
            return ""
        best = play_words(self.best) if self.kind == "play" else self.best
        words = (self.mark or "").replace("_", " ")
        return f"{words}: best {best}, {signed(self.loss)}"

    @property
    def luck_words(self) -> str:
        """The luck of a roll: ``luck +0.412 (lucky)``; nothing for a cube action."""
        if self.luck is None:
            return ""
        marked = f" ({self.luck_mark.replace('_', ' ')})" if self.luck_mark else ""
        return f"luck {signed(self.luck)}{marked}"


def signed(value: float) -> str:
    """An equity as players read it: its sign always, a true minus, three decimals."""
    return f"{value:+.3f}".replace("-", "\N{MINUS SIGN}")


def chosen(analyses: Sequence[Mapping[str, Any]], wanted: int | None) -> Mapping[str, Any] | None:
    """The analysis to show: the one asked for (made or not), else the newest made."""
    if wanted is not None:
        asked = next((found for found in analyses if found["id"] == wanted), None)
        if asked is not None:
            return asked
    return next((found for found in analyses if found["status"] == "done"), None)


def judge_of(shown: Mapping[str, Any] | None, variant: str) -> str:
    """The ``engine.name`` of the engine that made the analysis shown, else of the one
    that would analyse a match of ``variant``."""
    if shown is not None and shown.get("engine"):
        return str(shown["engine"]["name"])
    return "nardy-referee" if variant in NARDY else "gnubg"


def figure_rows(players: Mapping[str, Any]) -> list[FigureRow]:
    """Each row of the players' table, the left column's player first."""
    return [
        FigureRow(heading, (cell(figure(players["w"], path)), cell(figure(players["b"], path))))
        for heading, path in ROWS
    ]


def step_notes(analysis: Mapping[str, Any] | None, game: int) -> dict[int, list[ActionNote]]:
    """Game ``game``'s analysed actions by the step of the replay they stand at."""
    notes: dict[int, list[ActionNote]] = {}
    games = (analysis or {}).get("games") or []
    for found in games:
        if found["index"] != game:
            continue
        for action in found["actions"]:
            notes.setdefault(action["index"], []).append(
                ActionNote(
                    kind=action["kind"],
                    played=action["played"],
                    best=action["best"],
                    loss=action["equity_loss"],
                    mark=action["mark"],
                    luck=action["luck"],
                    luck_mark=action["luck_mark"],
                )
            )
    return notes
