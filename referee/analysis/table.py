"""Each player's figures as people read them, the same on the command line and on the
match page: the rows shown (a heading and where the figure is in a player's STATS), a
figure as a cell, and what PR is (ANALYSIS.md §3: say so wherever it is shown)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

PR_NOTE = "PR: gnubg's judgement on eXtreme Gammon's scale (not XG's own figure)."
NARDY_PR_NOTE = (
    "PR: the referee's own nardy engine's judgement (its strength is measured in"
    " docs/engine.md) on eXtreme Gammon's scale; not a master's nor XG's figure."
)
JUDGES = {"gnubg": "GNU Backgammon", "nardy-referee": "the referee's nardy engine"}
"""Who made an analysis, by its ``engine.name``, in people's words."""


def pr_note(engine_name: str) -> str:
    """What PR is, said of the engine that judged (ANALYSIS.md §3: wherever it is shown)."""
    return NARDY_PR_NOTE if engine_name == "nardy-referee" else PR_NOTE


ROWS = (
    ("PR", "pr"),
    ("Overall error rate (mEMG)", "overall.error_rate_memg"),
    ("Overall rating", "overall.rating"),
    ("Chequer play error rate (mEMG)", "chequer.error_rate_memg"),
    ("Chequer play error total (EMG)", "chequer.error_total_emg"),
    ("Chequer play rating", "chequer.rating"),
    ("Moves", "chequer.total_moves"),
    ("Unforced moves", "chequer.unforced_moves"),
    ("Marked doubtful (?!)", "chequer.doubtful"),
    ("Marked bad (?)", "chequer.bad"),
    ("Marked very bad (??)", "chequer.very_bad"),
    ("Cube error rate (mEMG)", "cube.error_rate_memg"),
    ("Cube error total (EMG)", "cube.error_total_emg"),
    ("Cube rating", "cube.rating"),
    ("Cube decisions, close", "cube.close_decisions"),
    ("Luck rate (mEMG)", "luck.luck_rate_memg"),
    ("Luck rating", "luck.rating"),
)
"""The table's rows: a heading and where the figure is in a player's statistics."""


def figure(stats: Any, path: str) -> Any:
    """The figure at ``path`` (``section.name``) of a player's statistics (the value or
    its JSON), None where gnubg printed no section."""
    value: Any = stats
    for name in path.split("."):
        if value is None:
            return None
        value = value.get(name) if isinstance(value, Mapping) else getattr(value, name)
    return value


def cell(value: Any) -> str:
    """A figure as printed: ``n/a`` for none, a number to at most three decimals."""
    if value is None:
        return "n/a"
    if isinstance(value, float):
        return f"{value:.3f}".rstrip("0").rstrip(".") if value % 1 else f"{value:.1f}"
    return str(value)
