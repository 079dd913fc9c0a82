"""What an analysis is asked for (ANALYSIS.md §1) and which engine made it: the plies of
chequer play and of cube decisions, default 2 and 2 (gnubg's "world class"); gnubg's
default thresholds for the marks, which are not settings."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee.analysis.errors import AnalysisError

MAX_PLIES = 3
DEFAULT_PLIES = 2


class InvalidSettingsError(AnalysisError):
    """Settings of an analysis that are not two plies between 0 and 3."""

    code = "invalid_settings"
    title = "Invalid settings"


@dataclass(frozen=True, slots=True)
class Settings:
    """The plies gnubg looks ahead for chequer play and for cube decisions."""

    chequer_plies: int = DEFAULT_PLIES
    cube_plies: int = DEFAULT_PLIES

    def __post_init__(self) -> None:
        for name in ("chequer_plies", "cube_plies"):
            value = getattr(self, name)
            if type(value) is not int or not 0 <= value <= MAX_PLIES:
                raise InvalidSettingsError(
                    f"{name} must be a whole number from 0 to {MAX_PLIES}, not {value!r}"
                )

    @classmethod
    def of(cls, given: Mapping[str, Any] | None) -> Settings:
        """Settings from their JSON (absent keys take the defaults; others are refused)."""
        given = given or {}
        unknown = sorted(set(given) - {"chequer_plies", "cube_plies"})
        if unknown:
            raise InvalidSettingsError(f"unknown settings: {', '.join(unknown)}")
        return cls(**given)

    @property
    def most_plies(self) -> int:
        return max(self.chequer_plies, self.cube_plies)

    def to_json(self) -> dict[str, int]:
        return {"chequer_plies": self.chequer_plies, "cube_plies": self.cube_plies}


@dataclass(frozen=True, slots=True)
class EngineName:
    """The engine that made an analysis and its version, part of every result."""

    name: str
    version: str

    def to_json(self) -> dict[str, str]:
        return {"name": self.name, "version": self.version}
