"""The archive service: check a record, store it with its verdict, find it again."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, replace
from typing import Any

from referee import RULES_REVISION, __version__
from referee.adjudication import adjudicate, check_and_write, check_record
from referee.adjudication.budget import OFFLINE, WorkLimitError, WorkLimits
from referee.adjudication.game import ReplayStep
from referee.errors import (
    ArchiveBusyError,
    InvalidNotationError,
    InvalidRecordError,
    NotFoundError,
)
from referee.storage.model import Json, MatchSummary, NewMatch, Rechecked, Stored, StoredMatch
from referee.storage.stores import Storage
from vocabulary import VariantId

MAX_ID = 2**63 - 1
"""SQLite's largest integer: larger ids in a URL are simply not found."""
_DATE = re.compile(r"(\d{4})[.\-/](\d{1,2})[.\-/](\d{1,2})")


def event_date(tag: str | None) -> str | None:
    """``2025.11.08`` (the .mat tag's form) as ``2025-11-08``; None when not a date."""
    match = _DATE.match(tag or "")
    if match is None:
        return None
    year, month, day = (int(part) for part in match.groups())
    return f"{year:04d}-{month:02d}-{day:02d}"


@dataclass(frozen=True, slots=True)
class Submission:
    """A stored record: its id, the SHA-256 of its canonical text, the verdict."""

    stored: Stored
    sha256: str
    verdict: dict[str, Any]


def submit(
    storage: Storage,
    text: str,
    options: Mapping[str, object] | None = None,
    allow_invalid: bool = False,
    variant: str | None = None,
    limits: WorkLimits | None = None,
) -> Submission:
    """Check and store a record; an invalid one only with ``allow_invalid``."""
    match = checked_match(text, options, allow_invalid, variant, limits)
    stored = storage.matches.store(match)
    verdict_json = match.verdict
    if stored.duplicate:  # the answer is what is stored, whatever options came this time
        verdict_json = stored_match(storage, stored.id).verdict
    return Submission(stored, match.sha256, verdict_json)


def checked_match(
    text: str,
    options: Mapping[str, object] | None = None,
    allow_invalid: bool = False,
    variant: str | None = None,
    limits: WorkLimits | None = None,
) -> NewMatch:
    """A record checked as the archive stores it: verdict, canonical text, SHA-256."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        raise InvalidNotationError(
            f"the record is not valid Unicode text: {error.reason}"
        ) from None
    written = check_and_write(text, variant, options, limits)
    verdict = written.verdict
    verdict_json = verdict.to_json()
    if not verdict.valid and not allow_invalid:
        raise InvalidRecordError(
            "the record has errors; send allow_invalid: true to store it anyway",
            verdict=verdict_json,
        )
    canonical = written.canonical
    tags = written.tags
    match = verdict.match
    return NewMatch(
        sha256=record_key(canonical, None if verdict.valid else text),
        variant=verdict.variant,
        valid=verdict.valid,
        players=match.players,
        event=tags.get("Event"),
        site=tags.get("Site"),
        event_date=event_date(tags.get("EventDate")),
        match_length=match.length,
        games=len(verdict.games),
        winner=None if match.winner is None else str(match.winner),
        options=dict(options or {}),
        verdict=verdict_json,
        original=text,
        canonical=canonical,
        rules_revision=RULES_REVISION,
        referee_version=__version__,
    )


def record_key(canonical: str, original: str | None = None) -> str:
    """The SHA-256 that identifies a stored record: of its canonical text, and for an
    invalid record (whose canonical text stops at its first error) of its original text
    too, so two invalid records that differ after their first error are not duplicates."""
    digest = hashlib.sha256(canonical.encode())
    if original is not None:
        digest.update(b"\0" + original.encode())
    return digest.hexdigest()


@dataclass(frozen=True, slots=True)
class VerdictChange:
    """How a re-check changed a stored match's verdict: (before, after) pairs."""

    match_id: int
    valid: tuple[bool, bool]
    winner: tuple[str | None, str | None]
    points: tuple[list[int], list[int]]

    @property
    def changed(self) -> bool:
        return any(before != after for before, after in (self.valid, self.winner, self.points))

    def describe(self) -> str:
        parts = [
            f"{name} {before} -> {after}"
            for name, (before, after) in (
                ("valid", self.valid),
                ("winner", self.winner),
                ("points", self.points),
            )
            if before != after
        ]
        return f"match {self.match_id}: " + "; ".join(parts)


def recheck(storage: Storage, everything: bool = False) -> Iterator[VerdictChange]:
    """Check stored matches anew (those of older rules revisions, or ``everything``),
    store their new verdicts and yield what changed for each; stored text is untouched."""
    for stored in storage.matches.older_than(None if everything else RULES_REVISION):
        match_id = stored.id
        verdict = check_record(
            stored.original, stored.variant, "strict", stored.options, limits=OFFLINE
        )
        after = verdict.to_json()
        winner = None if verdict.match.winner is None else str(verdict.match.winner)
        storage.matches.update_verdict(
            Rechecked(match_id, verdict.valid, winner, after, RULES_REVISION, __version__)
        )
        before = stored.verdict
        yield VerdictChange(
            match_id,
            (bool(before.get("valid")), verdict.valid),
            (before.get("match", {}).get("winner"), winner),
            ([g["points"] for g in before.get("games", [])], [g["points"] for g in after["games"]]),
        )


def summary_json(summary: MatchSummary | StoredMatch) -> dict[str, Any]:
    """A stored match as the list endpoint shows it."""
    return {
        "id": summary.id,
        "sha256": summary.sha256,
        "variant": summary.variant,
        "valid": summary.valid,
        "players": list(summary.players),
        "event": summary.event,
        "site": summary.site,
        "event_date": summary.event_date,
        "match_length": summary.match_length,
        "games": summary.games,
        "winner": summary.winner,
        "created_at": summary.created_at,
    }


def stored_match(storage: Storage, match_id: int) -> StoredMatch:
    """Everything stored of a match, or NotFoundError."""
    stored = storage.matches.get(match_id) if 0 < match_id <= MAX_ID else None
    if stored is None:
        raise NotFoundError(f"no match with id {match_id}")
    return stored


def replay(
    storage: Storage, match_id: int, index: int, limits: WorkLimits | None = None
) -> dict[str, Any]:
    """Every action of one game, with the positions before and after it. The game index is
    checked before any work; the replays of every game are computed once per stored record
    and rules revision, then kept."""
    games = storage.matches.games_of(match_id) if 0 < match_id <= MAX_ID else None
    if games is None:
        raise NotFoundError(f"no match with id {match_id}")
    if not 1 <= index <= games:
        raise NotFoundError(f"match {match_id} has no game {index}")
    key = f"replay/{index}"
    actions = _kept(storage, match_id, key)
    if actions is None:
        _kept(storage, match_id, REPLAY_REFUSED)  # a refusal kept for this record: again
        stored = stored_match(storage, match_id)
        limits = limits or WorkLimits()
        # Writing every position costs about as much again as checking: a record that was
        # checked within the deadline is replayed within twice that, once.
        replaying = replace(limits, seconds=2 * limits.seconds)
        with _keeping_refusal(storage, match_id, REPLAY_REFUSED):
            adjudication = adjudicate(
                stored.original, _known_variant(stored), "condone", stored.options, True, replaying
            )
        replays = {
            f"replay/{number}": replay_actions(steps)
            for number, steps in enumerate(adjudication.replays, start=1)
        }
        _keep(storage, match_id, replays)
        actions = replays.get(key)
        if actions is None:  # a variation the referee cannot check has no replays
            raise NotFoundError(f"match {match_id} has no replay of game {index}")
    return {"match_id": match_id, "game": index, "actions": actions}


def check_stored(
    storage: Storage,
    match_id: int,
    mode: str,
    options: Mapping[str, object],
    limits: WorkLimits | None = None,
) -> dict[str, Any]:
    """The verdict on a stored record under ``mode`` and other ``options`` (over the stored
    ones), computed once per stored record, request and rules revision, then kept."""
    stored = stored_match(storage, match_id)
    merged = {**stored.options, **options}
    key = "check/" + json.dumps({"mode": mode, "options": merged}, sort_keys=True)
    verdict = _kept(storage, match_id, key)
    if verdict is None:
        variant = _known_variant(stored)
        with _keeping_refusal(storage, match_id, key):
            verdict = check_record(stored.original, variant, mode, merged, limits=limits).to_json()
        _keep(storage, match_id, {key: verdict})
        storage.derived.forget(match_id, "check/", MAX_KEPT_CHECKS)
    return verdict


REPLAY_REFUSED = "replay/refused"
MAX_KEPT_CHECKS = 16
"""Re-checks kept per stored match (the most recent): anonymous clients choose the options,
so what they may make the archive keep is bounded."""


def _kept(storage: Storage, match_id: int, key: str) -> Json | None:
    """What was kept under ``key`` for this rules revision (None: nothing); a kept refusal
    is raised again rather than redone."""
    body = storage.derived.kept(match_id, key, RULES_REVISION)
    if isinstance(body, dict) and "refused" in body:
        refusal = body["refused"]
        raise WorkLimitError(refusal["message"], **refusal["extensions"])
    return body


@contextmanager
def _keeping_refusal(storage: Storage, match_id: int, key: str) -> Iterator[None]:
    """Keep a work-limit refusal under ``key``: the same record, revision and limits would
    be refused again. Not a deadline: that one depends on the machine's load."""
    try:
        yield
    except WorkLimitError as error:
        if error.extensions.get("limit") != "seconds":
            refusal = {"message": error.message, "extensions": error.extensions}
            _keep(storage, match_id, {key: {"refused": refusal}})
        raise


def _known_variant(stored: StoredMatch) -> str | None:
    """The stored match's variant when the referee knows it; None for a variation it cannot
    check (NackGammon...), whose record then speaks for itself (a verdict, not a 422)."""
    variant = stored.variant
    return variant if variant in frozenset(VariantId) else None


def _keep(storage: Storage, match_id: int, results: dict[str, Json]) -> None:
    """Keep derived results; a busy archive only means they are computed again next time."""
    with suppress(ArchiveBusyError):
        storage.derived.keep(match_id, RULES_REVISION, results)


def replay_actions(steps: Sequence[ReplayStep]) -> list[dict[str, Any]]:
    """The replay of one game as the API answers it: each action with its positions."""
    actions = []
    for step in steps:
        action = step.action
        entry: dict[str, Any] = {
            "move_number": action.move_number,
            "side": action.side,
            "action": str(action.kind),
            "dice": list(action.dice) if action.dice else None,
            "play": step.play,
            "value": action.value,
            "position_before": step.position_before,
            "position_after": step.position_after,
            "line": action.line,
        }
        if step.error is not None:
            entry["error"] = step.error.to_json()
        actions.append(entry)
    return actions
