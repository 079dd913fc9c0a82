"""The verdict on a record (NOTATION.md §4): per game and per match, errors and warnings."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from referee import RULES_REVISION, __version__
from referee.rules.scoring import GameResult
from vocabulary import Side


@dataclass(frozen=True, slots=True)
class Issue:
    """An error or a warning, located in the record.

    Errors carry the position string before the action, the play as written and legal
    alternatives where they apply; ``rule`` names the broken rule for illegal actions.
    """

    code: str
    message: str
    move_number: int | None = None
    side: str | None = None
    line: int | None = None
    column: int | None = None
    rule: str | None = None
    position: str | None = None
    play: str | None = None
    alternatives: tuple[str, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        body: dict[str, Any] = {"code": self.code}
        if self.rule is not None:
            body["rule"] = self.rule
        body.update(
            message=self.message,
            move_number=self.move_number,
            side=self.side,
            line=self.line,
            column=self.column,
        )
        if self.position is not None:
            body["position"] = self.position
        if self.play is not None:
            body["play"] = self.play
        if self.alternatives is not None:
            body["alternatives"] = list(self.alternatives)
        return body


@dataclass(slots=True)
class GameVerdict:
    """What the rules say about one game and what the record says."""

    index: int
    number: int
    score_before: tuple[int, int]
    result: GameResult
    recorded_winner: Side | None = None
    recorded_points: int | None = None
    recorded_line: int | None = None
    """The line of the record's ``Wins`` (not in the JSON: issues carry their lines)."""
    result_mismatch: str | None = None
    crawford: bool = False
    errors: list[Issue] = field(default_factory=list)
    warnings: list[Issue] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        result = self.result
        return {
            "index": self.index,
            "number": self.number,
            "score_before": list(self.score_before),
            "winner": None if result.winner is None else str(result.winner),
            "termination": str(result.termination),
            "kind": None if result.kind is None else str(result.kind),
            "cube": result.cube,
            "cube_owner": None if result.cube_owner is None else str(result.cube_owner),
            "jacoby_applied": result.jacoby_applied,
            "points": result.points,
            "recorded_points": self.recorded_points,
            "result_mismatch": self.result_mismatch,
            "crawford": self.crawford,
            "errors": [issue.to_json() for issue in self.errors],
            "warnings": [issue.to_json() for issue in self.warnings],
        }


@dataclass(frozen=True, slots=True)
class MatchSummary:
    """The match as a whole: scores after each game, the Crawford game, the winner."""

    length: int
    players: tuple[str, str]
    scores_after: tuple[tuple[int, int], ...]
    crawford_game: int | None
    winner: Side | None
    complete: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "length": self.length,
            "players": list(self.players),
            "scores_after": [list(score) for score in self.scores_after],
            "crawford_game": self.crawford_game,
            "winner": None if self.winner is None else str(self.winner),
            "complete": self.complete,
        }


@dataclass(frozen=True, slots=True)
class Verdict:
    """The answer to ``POST /v1/records/check``."""

    variant: str
    mode: str
    options: dict[str, Any]
    match: MatchSummary
    games: tuple[GameVerdict, ...]
    warnings: tuple[Issue, ...] = ()
    """Findings outside any game (the header zone)."""

    @property
    def valid(self) -> bool:
        return not any(game.errors for game in self.games)

    def to_json(self) -> dict[str, Any]:
        return {
            "valid": self.valid,
            "variant": self.variant,
            "mode": self.mode,
            "options": self.options,
            "match": self.match.to_json(),
            "games": [game.to_json() for game in self.games],
            "warnings": [issue.to_json() for issue in self.warnings],
            "rules_revision": RULES_REVISION,
            "referee_version": __version__,
        }
