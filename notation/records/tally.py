"""A reading's counts held against its ReadLimits, for the readers that build the record
model line by line (tmg, oldmoves): each count checked as it grows."""

from __future__ import annotations

from dataclasses import dataclass, field

from notation.records.mat_reader import ReadLimits, past_limit
from notation.records.model import ReadingProblem
from vocabulary import IssueCode


@dataclass
class Tally:
    """Games, actions and findings read so far; NotationError ``too_many_<limit>`` at
    the first one past its limit."""

    limits: ReadLimits
    games: int = 0
    actions: int = 0
    findings: int = 0
    record_findings: list[ReadingProblem] = field(default_factory=list)
    """Findings before the first game."""

    def game(self) -> None:
        self.games += 1
        _within(self.limits.games, self.games, "games")

    def action(self, in_game: int) -> None:
        """One more action, the game's ``in_game``-th."""
        self.actions += 1
        _within(self.limits.actions_per_game, in_game, "actions_per_game")
        _within(self.limits.actions, self.actions, "actions")

    def finding(
        self,
        target: list[ReadingProblem] | None,
        code: IssueCode,
        message: str,
        line: int,
        column: int = 1,
    ) -> None:
        """A finding for ``target`` (a game's findings; None: the record's)."""
        self.findings += 1
        _within(self.limits.findings, self.findings, "findings")
        found = ReadingProblem(code, message, line, column)
        (self.record_findings if target is None else target).append(found)


def _within(limit: int | None, count: int, name: str) -> None:
    if limit is not None and count > limit:
        raise past_limit(name, limit)
