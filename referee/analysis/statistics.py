"""gnubg's ``show statistics match`` (or ``game``) read into each player's figures
(ANALYSIS.md §3 STATS), every figure as gnubg prints it, to its printed precision, and PR
computed from them.

gnubg prints a header, then four sections (chequer play, luck, cube, overall), one row a
figure: the label in 40 characters, then one cell per player (``%-40s %-23s %-23s``), the
left column's player (White, player 0) first. A cell is a count, an equity with its match
winning chances or points in brackets (``-0.223 ( -2.524%)``), a count with its equities
(``1 (-0.013 ( -0.085%))``), a rating in words, or ``n/a``; the first number is the figure.
A row a record does not call for (the FIBS rating of a money session) is None."""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, fields
from typing import Any

from referee.analysis.errors import EngineFailedError

LABEL_WIDTH, CELL_WIDTH = 40, 23
PR_SCALE = 500
"""PR (ANALYSIS.md §3): 500 × the error in EMG per unforced move or close cube decision."""


@dataclass(frozen=True, slots=True)
class ChequerStats:
    total_moves: int | None = None
    unforced_moves: int | None = None
    unmarked: int | None = None
    doubtful: int | None = None
    bad: int | None = None
    very_bad: int | None = None
    error_total_emg: float | None = None
    error_rate_memg: float | None = None
    rating: str | None = None


@dataclass(frozen=True, slots=True)
class LuckStats:
    very_lucky: int | None = None
    lucky: int | None = None
    unmarked: int | None = None
    unlucky: int | None = None
    very_unlucky: int | None = None
    luck_total_emg: float | None = None
    luck_rate_memg: float | None = None
    rating: str | None = None


@dataclass(frozen=True, slots=True)
class CubeStats:
    total_decisions: int | None = None
    close_decisions: int | None = None
    doubles: int | None = None
    takes: int | None = None
    passes: int | None = None
    missed_doubles_below_cp: int | None = None
    missed_doubles_above_cp: int | None = None
    wrong_doubles_below_dp: int | None = None
    wrong_doubles_above_tg: int | None = None
    wrong_takes: int | None = None
    wrong_passes: int | None = None
    error_total_emg: float | None = None
    error_rate_memg: float | None = None
    rating: str | None = None


@dataclass(frozen=True, slots=True)
class OverallStats:
    error_total_emg: float | None = None
    error_rate_memg: float | None = None
    snowie_error_rate: float | None = None
    rating: str | None = None
    error_based_fibs_rating: float | None = None


@dataclass(frozen=True, slots=True)
class PlayerStats:
    """One player's figures: each section None when gnubg printed none."""

    chequer: ChequerStats | None
    luck: LuckStats | None
    cube: CubeStats | None
    overall: OverallStats | None

    @property
    def pr(self) -> float | None:
        """500 × −(chequer + cube error, EMG) ÷ (unforced moves + close cube decisions),
        to two decimals; None when nothing was decided."""
        chequer = self.chequer or ChequerStats()
        cube = self.cube or CubeStats()
        decisions = (chequer.unforced_moves or 0) + (cube.close_decisions or 0)
        if not decisions:
            return None
        error = (chequer.error_total_emg or 0.0) + (cube.error_total_emg or 0.0)
        return round(PR_SCALE * -error / decisions, 2) + 0.0


SECTIONS: dict[str, tuple[type[Any], dict[str, str]]] = {
    "Chequerplay statistics": (
        ChequerStats,
        {
            "Total moves": "total_moves",
            "Unforced moves": "unforced_moves",
            "Unmarked moves": "unmarked",
            "Moves marked doubtful": "doubtful",
            "Moves marked bad": "bad",
            "Moves marked very bad": "very_bad",
            "Error total EMG": "error_total_emg",
            "Error rate mEMG": "error_rate_memg",
            "Chequerplay rating": "rating",
        },
    ),
    "Luck statistics": (
        LuckStats,
        {
            "Rolls marked very lucky": "very_lucky",
            "Rolls marked lucky": "lucky",
            "Rolls unmarked": "unmarked",
            "Rolls marked unlucky": "unlucky",
            "Rolls marked very unlucky": "very_unlucky",
            "Luck total EMG": "luck_total_emg",
            "Luck rate mEMG": "luck_rate_memg",
            "Luck rating": "rating",
        },
    ),
    "Cube statistics": (
        CubeStats,
        {
            "Total cube decisions": "total_decisions",
            "Close or actual cube decisions": "close_decisions",
            "Doubles": "doubles",
            "Takes": "takes",
            "Passes": "passes",
            "Missed doubles below CP": "missed_doubles_below_cp",
            "Missed doubles above CP": "missed_doubles_above_cp",
            "Wrong doubles below DP": "wrong_doubles_below_dp",
            "Wrong doubles above TG": "wrong_doubles_above_tg",
            "Wrong takes": "wrong_takes",
            "Wrong passes": "wrong_passes",
            "Error total EMG": "error_total_emg",
            "Error rate mEMG": "error_rate_memg",
            "Cube decision rating": "rating",
        },
    ),
    "Overall statistics": (
        OverallStats,
        {
            "Error total EMG": "error_total_emg",
            "Error rate mEMG": "error_rate_memg",
            "Snowie error rate": "snowie_error_rate",
            "Overall rating": "rating",
            "Error based abs. FIBS rating": "error_based_fibs_rating",
        },
    ),
}
"""Each section's title, its figures' type and the figure each row label gives (the label
without its units in brackets: ``EMG (MWC)`` in a match, ``EMG (Points)`` for money)."""

_NUMBER = r"[-+]?(?:\d+(?:\.\d+)?|nan|inf)%?"
_CELL = rf"n/a|\d+ \(\s*{_NUMBER} \(\s*{_NUMBER}\)\)|{_NUMBER}(?:\s+\(\s*{_NUMBER}\))?"
_TWO_CELLS = re.compile(rf"\s*({_CELL})\s+({_CELL})\s*")
_FIRST_NUMBER = re.compile(_NUMBER.removesuffix("%?"))


def read_statistics(text: str) -> tuple[PlayerStats, PlayerStats]:
    """Both players' figures (the left column's first) in gnubg's printed statistics."""
    found: list[dict[str, dict[str, str]]] = [{}, {}]
    section = None
    for line in text.splitlines():
        if line.strip() in SECTIONS:
            section = line.strip()
            continue
        label = line[:LABEL_WIDTH].split(" (")[0].strip()
        if section is None or label not in SECTIONS[section][1]:
            continue
        for player, cell in enumerate(_cells(line[LABEL_WIDTH + 1 :])):
            found[player].setdefault(section, {})[SECTIONS[section][1][label]] = cell
    stats = tuple(
        PlayerStats(*(_section(name, cells.get(name)) for name in SECTIONS)) for cells in found
    )
    return stats[0], stats[1]


def _cells(rest: str) -> tuple[str, str]:
    """A row's two cells: two numbers wherever they stand, else the fixed columns."""
    numbers = _TWO_CELLS.fullmatch(rest)
    if numbers is not None:
        return numbers.group(1), numbers.group(2)
    return rest[:CELL_WIDTH].strip(), rest[CELL_WIDTH + 1 :].strip()


def _section(name: str, cells: dict[str, str] | None) -> Any:
    if cells is None:
        return None
    kind = SECTIONS[name][0]
    values = {}
    for field in fields(kind):
        cell = cells.get(field.name)
        values[field.name] = None if cell is None else _value(cell, field.type)
    return kind(**values)


def _value(cell: str, kind: Any) -> int | float | str | None:
    """A cell as its figure: the first number (a count, an equity), or words (a rating)."""
    if cell in ("n/a", ""):
        return None
    if kind == "str | None":
        return cell
    number = _FIRST_NUMBER.search(cell)
    if number is None:
        raise EngineFailedError(f"gnubg printed {cell!r} where a number was expected")
    value = float(number.group())
    if not math.isfinite(value):
        raise EngineFailedError(f"gnubg's analysis has no number here: it printed {cell!r}")
    return int(value) if kind == "int | None" else value + 0.0
