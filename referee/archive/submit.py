"""Submitting a record to the archive: checked, keyed by its canonical text, stored once."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from notation.records.mat_writer import write_mat
from referee import RULES_REVISION, __version__
from referee.adjudication import Adjudication, check_and_write
from referee.adjudication.budget import WorkLimits
from referee.adjudication.verdict import Verdict
from referee.archive.stored import stored_match
from referee.errors import (
    InvalidNotationError,
    InvalidRecordError,
)
from referee.rules.engine import CHOSEN, Engine
from referee.storage.model.matches import NewMatch, Stored
from referee.storage.stores import Storage

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
    engine: Engine = CHOSEN,
    record_format: str | None = None,
    first_line: int = 1,
) -> Submission:
    """Check and store a record (in the format named, else detected); an invalid one only
    with ``allow_invalid``; ``first_line`` numbers its first line (a later match of a file)."""
    match = checked_match(
        text, options, allow_invalid, variant, limits, engine, record_format, first_line
    )
    return store_match(storage, match)


def store_match(storage: Storage, match: NewMatch) -> Submission:
    """Store a checked record once (``checked_match`` or ``adjudicated_match``): the
    stored verdict answers a duplicate."""
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
    engine: Engine = CHOSEN,
    record_format: str | None = None,
    first_line: int = 1,
) -> NewMatch:
    """A record checked as the archive stores it: verdict, canonical text, SHA-256."""
    _unicode_text(text)
    written = check_and_write(text, variant, options, limits, engine, record_format, first_line)
    return _new_match(
        text, written.verdict, written.tags, written.canonical, options, allow_invalid, API_REFUSAL
    )


API_REFUSAL = "the record has errors; send allow_invalid: true to store it anyway"


def adjudicated_match(
    text: str,
    adjudication: Adjudication,
    options: Mapping[str, object] | None,
    allow_invalid: bool,
    refusal: str = API_REFUSAL,
) -> NewMatch:
    """A record already adjudicated (``adjudicate``, in its mode, the check page's) as the
    archive stores it, from that adjudication (no second one): its verdict, its canonical
    text (``write_mat`` of ``adjudication.canonical``), SHA-256; ``refusal``: the
    InvalidRecordError's message for a record with errors without ``allow_invalid``."""
    _unicode_text(text)
    canonical = write_mat(adjudication.canonical)
    record = adjudication.record
    verdict = adjudication.verdict
    return _new_match(text, verdict, record.tags, canonical, options, allow_invalid, refusal)


def _unicode_text(text: str) -> None:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as error:
        raise InvalidNotationError(
            f"the record is not valid Unicode text: {error.reason}"
        ) from None


def _new_match(
    text: str,
    verdict: Verdict,
    tags: Mapping[str, str],
    canonical: str,
    options: Mapping[str, object] | None,
    allow_invalid: bool,
    refusal: str,
) -> NewMatch:
    verdict_json = verdict.to_json()
    if not verdict.valid and not allow_invalid:
        raise InvalidRecordError(refusal, verdict=verdict_json)
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
