"""The work budget of one check: how much a single record may cost (OWASP API4).

Checking counts its work as it goes (actions, legal plays enumerated, errors and position
edits, per game and per record) and watches a deadline; past any limit it stops with a
``work_limit`` problem that names the limit, long before a worker could be killed.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, fields, replace
from enum import StrEnum

from notation.errors import NotationError
from notation.records.mat_reader import ReadLimits
from referee.errors import RefereeError, TooManyGamesError


class Work(StrEnum):
    """What checking counts."""

    ACTIONS = "actions"
    PLAYS = "plays"
    """Legal plays enumerated (to judge a play that is not plainly legal, or to list
    alternatives to an illegal one): the costly part of checking."""
    ERRORS = "errors"
    EDITS = "edits"


WORKS = tuple(Work)
"""Every kind of work (a tuple: iterating the enum class costs more, per game)."""


@dataclass(frozen=True, slots=True)
class WorkLimits:
    """The limits of one check. Defaults leave every real record in the corpora (and a
    2,000-game session) far inside them; docs/reliability.md gives the figures."""

    games: int = 10_000
    actions_per_game: int = 2_000
    actions: int = 500_000
    plays_per_game: int = 20_000
    plays: int = 500_000
    errors_per_game: int = 100
    errors: int = 2_000
    edits_per_game: int = 50
    edits: int = 1_000
    findings: int = 10_000
    """Lines or cells the reader skips (each one a warning in the verdict)."""
    seconds: float = 45.0
    """The deadline of one check, well under gunicorn's 60 s worker timeout."""

    @property
    def reading(self) -> ReadLimits:
        """The limits the record reader enforces as it reads."""
        return ReadLimits(self.games, self.actions_per_game, self.actions, self.findings)

    @classmethod
    def from_text(cls, text: str) -> WorkLimits:
        """Defaults overridden by ``name=value,name=value`` (``NARDY_REFEREE_WORK_LIMITS``)."""
        known = {field.name: field.type for field in fields(cls)}
        changes: dict[str, float | int] = {}
        for item in filter(None, (part.strip() for part in text.split(","))):
            name, _, value = item.partition("=")
            name = name.strip()
            if name not in known:
                raise ValueError(f"unknown work limit {name!r}: one of {', '.join(known)}")
            changes[name] = float(value) if name == "seconds" else int(value)
        return replace(cls(), **changes)  # type: ignore[arg-type]


OFFLINE = WorkLimits(seconds=math.inf)
"""The limits of the command line: the same counts, no deadline (nobody else waits)."""


class WorkLimitError(RefereeError):
    """A check went past one of its work limits (the record is refused, not judged)."""

    code = "work_limit"
    title = "Work limit reached"
    status = 413

    @classmethod
    def naming(cls, limit: str, limits: WorkLimits, what: str | None = None) -> WorkLimitError:
        """The refusal at ``limit`` (a field of WorkLimits), saying what went past it."""
        maximum: float = getattr(limits, limit)
        return cls(
            f"{what or f'more than {maximum:,} {limit}'}: the referee stops here"
            f" (work limit {limit} = {maximum:g})",
            limit=limit,
            maximum=maximum,
        )


class Budget:
    """The work one check has done so far, against its limits and deadline."""

    def __init__(self, limits: WorkLimits | None = None) -> None:
        self.limits = limits or WorkLimits()
        self.deadline = time.monotonic() + self.limits.seconds
        self.in_record = dict.fromkeys(WORKS, 0)
        self.in_game = dict.fromkeys(WORKS, 0)
        self.game = 0
        # The maxima looked up once: charge() runs for every action of every record.
        self.per_game = {work: getattr(self.limits, f"{work}_per_game") for work in WORKS}
        self.per_record = {work: getattr(self.limits, work) for work in WORKS}

    def start_game(self, index: int) -> None:
        """Per-game counts start again at game ``index`` (1-based)."""
        self.game = index
        self.in_game = dict.fromkeys(WORKS, 0)

    def charge(self, work: Work, amount: int = 1) -> None:
        """Count ``amount`` of ``work``; WorkLimitError past a limit or the deadline."""
        in_game = self.in_game[work] = self.in_game[work] + amount
        in_record = self.in_record[work] = self.in_record[work] + amount
        limits = self.limits
        if in_game > self.per_game[work]:
            what = f"more than {self.per_game[work]:,} {work} in game {self.game}"
            raise WorkLimitError.naming(f"{work}_per_game", limits, what)
        if in_record > self.per_record[work]:
            raise WorkLimitError.naming(work, limits)
        if time.monotonic() >= self.deadline:
            what = f"checking took more than {limits.seconds:g} s"
            raise WorkLimitError.naming("seconds", limits, what)


def reading_refusal(error: NotationError, limits: WorkLimits) -> RefereeError:
    """The refusal of a record the reader stopped at a limit (``too_many_<limit>``): too
    many games, or past a work limit."""
    if error.code == "too_many_games":
        return TooManyGamesError(error.message)
    return WorkLimitError.naming(error.code.removeprefix("too_many_"), limits)
