"""Rows as every backend reads and writes them: the columns of each table and the values
of ``model.py`` made from a row read by column name (``sqlite3.Row``, psycopg's dict rows),
so that a second backend shares the shape of the first instead of writing it again."""

from __future__ import annotations

import json
import zlib
from collections.abc import Mapping
from typing import Any, Protocol

from referee.storage.model import Json
from referee.storage.model.live import LiveProgress, LiveSetup, StoredLive
from referee.storage.model.matches import (
    MatchQuery,
    MatchSummary,
    NewMatch,
    Rechecked,
    StoredMatch,
)
from referee.storage.model.rechecks import RecheckProgress
from referee.storage.model.tokens import Token
from referee.storage.shared import normal_name, timestamp


class Row(Protocol):
    """A row read by column name."""

    def __getitem__(self, key: str) -> Any: ...


FACT_COLUMNS = (
    "sha256",
    "variant",
    "event",
    "site",
    "event_date",
    "match_length",
    "games",
    "winner",
)
"""The facts stored as they are, each in the column of its name."""
RECORD_COLUMNS = ("original", "canonical", "rules_revision", "referee_version")
"""The record's texts and the revision and version that checked it, stored as they are."""
SUMMARY_COLUMNS = (
    "id, sha256, variant, valid, white, black, event, site, event_date, match_length,"
    " games, winner, created_at"
)
STORED_COLUMNS = (
    f"{SUMMARY_COLUMNS}, options, verdict, original, canonical, rules_revision, referee_version"
)
TOKEN_COLUMNS = "id, name, prefix, scopes, created_at, revoked_at"


def match_row(match: NewMatch) -> dict[str, object]:
    """The columns of a new row of ``matches``."""
    return {
        **{name: getattr(match, name) for name in (*FACT_COLUMNS, *RECORD_COLUMNS)},
        "valid": match.valid,
        "white": match.players[0],
        "black": match.players[1],
        "options": json.dumps(match.options),
        "verdict": json.dumps(match.verdict),
        "created_at": timestamp(),
    }


def verdict_arguments(rechecked: Rechecked) -> tuple[object, ...]:
    """The arguments of ``queries.UPDATE_VERDICT``."""
    return (
        rechecked.valid,
        rechecked.winner,
        json.dumps(rechecked.verdict),
        rechecked.rules_revision,
        rechecked.referee_version,
        rechecked.id,
    )


def match_facts(row: Row) -> dict[str, Any]:
    """The fields a summary and a stored match share, from a row of ``matches``."""
    return {
        **{name: row[name] for name in (*FACT_COLUMNS, "id", "created_at")},
        "valid": bool(row["valid"]),
        "players": (row["white"], row["black"]),
    }


def summary(row: Row) -> MatchSummary:
    return MatchSummary(**match_facts(row))


def stored_match(row: Row) -> StoredMatch:
    return StoredMatch(
        **match_facts(row),
        **{name: row[name] for name in RECORD_COLUMNS},
        options=json.loads(row["options"] or "{}"),
        verdict=json.loads(row["verdict"]),
    )


def token(row: Row) -> Token:
    return Token(
        id=row["id"],
        name=None if row["name"] is None else normal_name(row["name"]),  # one stored before NFC
        prefix=row["prefix"],
        scopes=tuple(row["scopes"].split()),
        created_at=row["created_at"],
        revoked_at=row["revoked_at"],
    )


def live_setup_row(setup: LiveSetup) -> dict[str, object]:
    """The columns of a new row of ``live_matches`` that its setup gives."""
    return {
        "variant": setup.variant,
        "length": setup.length,
        "options": json.dumps(setup.options),
        "white": setup.players[0],
        "black": setup.players[1],
        "move_seconds": setup.move_seconds,
        "host_token_id": setup.host_token_id,
        "server_seed": setup.server_seed,
        "commitment": setup.commitment,
        "dice_id": setup.dice_id,
        "mirrored": setup.mirrored,
        "join_seconds": setup.join_seconds,
        "clock_reserve": setup.reserve,
        "clock_delay": setup.delay,
    }


def progress_columns(progress: LiveProgress) -> dict[str, object]:
    """The columns of ``live_matches`` that every change writes."""
    return {
        "status": progress.status,
        "ply": progress.ply,
        "seed_w": progress.seeds[0],
        "seed_b": progress.seeds[1],
        "deadline": progress.deadline,
        "throws": progress.throws,
        "reserve_w": None if progress.reserves is None else progress.reserves[0],
        "reserve_b": None if progress.reserves is None else progress.reserves[1],
        "turn_seconds": progress.turn_seconds,
    }


def stored_live(row: Row) -> StoredLive:
    """A live match from its row joined with its last state (``last_state``)."""
    setup = LiveSetup(
        variant=row["variant"],
        length=row["length"],
        options=json.loads(row["options"]),
        players=(row["white"], row["black"]),
        move_seconds=row["move_seconds"],
        host_token_id=row["host_token_id"],
        server_seed=row["server_seed"],
        commitment=row["commitment"],
        dice_id=row["dice_id"],
        mirrored=bool(row["mirrored"]),
        join_seconds=row["join_seconds"],
        reserve=row["clock_reserve"],
        delay=row["clock_delay"],
    )
    reserves = None if row["reserve_w"] is None else (row["reserve_w"], row["reserve_b"])
    progress = LiveProgress(
        status=row["status"],
        ply=row["ply"],
        seeds=(row["seed_w"], row["seed_b"]),
        deadline=row["deadline"],
        state=json.loads(row["last_state"]),
        throws=row["throws"],
        reserves=reserves,
        turn_seconds=row["turn_seconds"],
    )
    return StoredLive(
        id=row["id"],
        setup=setup,
        progress=progress,
        version=row["version"],
        match_id=row["match_id"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
    )


def recheck_progress(row: Row) -> RecheckProgress:
    """A run's progress from its row of ``queries.RECHECK_PROGRESS``."""
    return RecheckProgress(
        batches=row["batches"],
        batches_done=row["done"],
        matches=row["matches"],
        rechecked=row["rechecked"],
        changed=row["changed"],
        finished=row["finished_at"] is not None,
    )


def derived_rows(
    match_id: int, revision: int, results: Mapping[str, Json]
) -> list[tuple[int, str, int, bytes]]:
    """The ``derived`` rows of kept results: each body as compressed JSON."""
    return [
        (match_id, key, revision, zlib.compress(json.dumps(body).encode()))
        for key, body in results.items()
    ]


def derived_body(row: Row | None) -> Json | None:
    """A kept result read back (None: none kept)."""
    return None if row is None else json.loads(zlib.decompress(row["body"]))


def match_filters(query: MatchQuery) -> list[tuple[str, object]]:
    """The conditions of a match search that every backend writes alike (``?`` marks),
    each with its value, None for a filter not set: the player, ``?event=`` (the
    ``Event`` column, any case), the variant and the cursor (each backend adds its test
    for ``?event_id=``: the matches the event's own tables name)."""
    return [
        ("(lower(white) = lower(?) OR lower(black) = lower(?))", query.player or None),
        ("lower(event) = lower(?)", query.event or None),
        ("variant = ?", query.variant or None),
        ("id < ?", query.after_id),
    ]


EVENT_LIVE_MATCHES = (
    "SELECT live.match_id FROM event_live AS seat JOIN live_matches AS live"
    " ON live.id = seat.live_id WHERE seat.event_id = ? AND live.match_id IS NOT NULL"
)
"""The stored matches of an event's live matches (every one it made, a voided one too)."""
