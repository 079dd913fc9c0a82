"""What the checking of one game says: the errors and warnings of its verdict, each where
the record wrote it, and whether checking stopped."""

from __future__ import annotations

from dataclasses import replace

from notation.records.model import ActionText
from referee.adjudication.budget import Budget, Work
from referee.adjudication.setting import Mode
from referee.adjudication.verdict import GameVerdict, Issue
from vocabulary import IssueCode


class GameReport:
    """The findings of one game's checking, written into its verdict."""

    def __init__(self, verdict: GameVerdict, line: int, mode: Mode, budget: Budget) -> None:
        self.verdict = verdict
        self.line = line
        self.mode = mode
        self.budget = budget
        self.stopped = False
        """Checking stopped (at an error in strict mode, an impossible action, an edit)."""
        self.unchecked = False
        """Checking stopped at a position edit it cannot apply (not an error)."""

    def warn(self, action: ActionText | None, code: IssueCode, message: str) -> None:
        """A warning at ``action`` (None: at the game's header line)."""
        if action is None:
            self.verdict.warnings.append(Issue(code, message, line=self.line))
        else:
            self.verdict.warnings.append(Issue.at(action, code, message))

    def error(
        self,
        action: ActionText,
        code: IssueCode,
        message: str,
        position: str,
        rule: str | None = None,
        play: str | None = None,
        alternatives: tuple[str, ...] | None = None,
        stop: bool | None = None,
    ) -> None:
        """An error at ``action`` in ``position``; checking stops at it when ``stop`` says
        so, by default in strict mode."""
        issue = replace(
            Issue.at(action, code, message),
            rule=rule,
            position=position,
            play=play,
            alternatives=alternatives,
        )
        self.verdict.errors.append(issue)
        self.budget.charge(Work.ERRORS)
        if stop if stop is not None else self.mode is Mode.STRICT:
            self.stopped = True

    def stop_unchecked(self) -> None:
        """The rest of the game cannot be checked (an edit that cannot be read)."""
        self.stopped = self.unchecked = True
