"""Events in SQLite: one row per event (its setup, status, round, version and lease), its
entrants, one row per pairing and per bye, the announcements of its live matches, and
the ratings' ledger its results add to (migration 0009_events). Plain SQL throughout:
``INSERT ... ON CONFLICT`` upserts, no SQLite-only functions."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from referee.storage.model.events import (
    BracketOptions,
    Correction,
    EventChange,
    EventInPlay,
    EventLive,
    EventQuery,
    EventSeat,
    EventSetup,
    EventSummary,
    Seeded,
    StoredEvent,
    StoredPairing,
    event_name,
)
from referee.storage.model.ratings import RatedMatch
from referee.storage.shared import timestamp
from referee.storage.sqlite.database import Database
from referee.storage.stores import EventConflictError

SETUP_COLUMNS = (
    *("name", "variant", "length", "format", "rounds", "kind", "move_seconds"),
    *("join_seconds", "reserve_per_point", "delay"),
)
"""The setup's fields stored as they are, each in the column of its name."""
PAIRING_COLUMNS = (
    "event_id, round, table_no, white, black, status, live_ids, match_ids, winner,"
    " points_w, points_b, termination, terminations, draw, award, verdict_id, dispute,"
    " bracket"
)
UNDECIDED = ("pending", "playing", "disputed")
"""The statuses of a pairing without a result."""
Row = sqlite3.Row | dict[str, Any]
"""A row read by column name: SQLite's, or PostgreSQL's (``postgresql/events.py`` reads
and writes the same columns through ``pairing_row``, ``stored_pairing`` and
``stored_setup``)."""


class Reader(Protocol):
    """What the reads need of a backend's database: rows by column name (``?`` marks)."""

    def rows(self, sql: str, arguments: Sequence[object] = ()) -> Sequence[Any]: ...

    def row(self, sql: str, arguments: Sequence[object] = ()) -> Any: ...


class EventReads:
    """The event store's reads, the same SQL on either backend (PostgreSQL's store,
    ``postgresql/events.py``, is these and its own writes)."""

    database: Reader

    def get(self, event_id: int) -> StoredEvent | None:
        row = self.database.row("SELECT * FROM events WHERE id = ?", [event_id])
        if row is None:
            return None
        entrants = self.database.rows(
            "SELECT name, seed, rating FROM event_entrants WHERE event_id = ? ORDER BY position",
            [event_id],
        )
        pairings = self.database.rows(
            f"SELECT {PAIRING_COLUMNS} FROM event_pairings WHERE event_id = ?"
            " ORDER BY round, table_no",
            [event_id],
        )
        byes = self.database.rows(
            "SELECT round, name FROM event_byes WHERE event_id = ? ORDER BY round, name",
            [event_id],
        )
        withdrawn = self.database.rows(
            "SELECT name, round FROM event_withdrawals WHERE event_id = ? ORDER BY name",
            [event_id],
        )
        seeds = tuple(
            Seeded(entrant["name"], entrant["seed"], entrant["rating"])
            for entrant in sorted(entrants, key=lambda entrant: entrant["seed"] or 0)
            if entrant["seed"] is not None
        )
        return StoredEvent(
            id=row["id"],
            setup=stored_setup(row, tuple(entrant["name"] for entrant in entrants)),
            status=row["status"],
            round=row["round"],
            seeds=seeds,
            pairings=tuple(stored_pairing(found) for found in pairings),
            byes=tuple((bye["round"], bye["name"]) for bye in byes),
            version=row["version"],
            lease_until=row["lease_until"],
            created_at=row["created_at"],
            updated_at=row["updated_at"],
            withdrawn=tuple((found["name"], found["round"]) for found in withdrawn),
        )

    def ledger(self, event_id: int) -> list[Correction]:
        rows = self.database.rows(
            "SELECT seq, at, by_name, action, round, table_no, name, reason FROM event_ledger"
            " WHERE event_id = ? ORDER BY seq",
            [event_id],
        )
        return [
            Correction(
                seq=row["seq"],
                at=row["at"],
                by=row["by_name"],
                action=row["action"],
                round=row["round"],
                table=row["table_no"],
                name=row["name"],
                reason=row["reason"],
            )
            for row in rows
        ]

    def search(self, query: EventQuery) -> list[EventSummary]:
        rows = self.database.rows(
            "SELECT e.id, e.name, e.variant, e.length, e.format, e.kind, e.status, e.round,"
            " e.rounds, e.created_at, (SELECT count(*) FROM event_entrants n"
            " WHERE n.event_id = e.id) AS entrants FROM events e"
            " WHERE (CAST(? AS TEXT) IS NULL OR e.status = ?)"
            " AND (CAST(? AS BIGINT) IS NULL OR e.id < ?)"
            " ORDER BY e.id DESC LIMIT ?",
            [query.status, query.status, query.after_id, query.after_id, query.page_size],
        )
        return [EventSummary(**dict(row)) for row in rows]

    def running(self) -> list[int]:
        rows = self.database.rows("SELECT id FROM events WHERE status = 'running' ORDER BY id")
        return [row["id"] for row in rows]

    def in_play(self, event_id: int) -> EventInPlay | None:
        row = self.database.row(
            "SELECT version, round, lease_until FROM events WHERE id = ? AND status = 'running'",
            [event_id],
        )
        if row is None:
            return None
        pairings = self.database.rows(
            "SELECT live_ids FROM event_pairings WHERE event_id = ? AND status = 'playing'",
            [event_id],
        )
        lists = [json.loads(pairing["live_ids"]) for pairing in pairings]
        return EventInPlay(
            event_id=event_id,
            version=row["version"],
            round=row["round"],
            lease_until=row["lease_until"],
            live_ids=tuple(live_id for found in lists for live_id in found),
            unattached=any(not found for found in lists),
        )

    def announced(self, name: str, after_seq: int = 0) -> list[EventLive]:
        rows = self.database.rows(
            "SELECT l.seq, l.live_id, l.event_id, l.round, l.table_no, l.white, l.black"
            " FROM event_live l JOIN event_pairings p ON p.event_id = l.event_id"
            " AND p.round = l.round AND p.table_no = l.table_no"
            " WHERE (l.white = ? OR l.black = ?) AND l.seq > ?"
            f" AND p.status IN ({', '.join('?' for _ in UNDECIDED)}) ORDER BY l.seq",
            [name, name, after_seq, *UNDECIDED],
        )
        return [
            EventLive(
                row["seq"],
                row["live_id"],
                row["event_id"],
                row["round"],
                row["table_no"],
                row["white"],
                row["black"],
            )
            for row in rows
        ]

    def last_announcement(self) -> int:
        row = self.database.row("SELECT max(seq) AS seq FROM event_live")
        return int(row["seq"] or 0) if row is not None else 0

    def versions(self, event_ids: Sequence[int]) -> dict[int, int]:
        marks = ", ".join("?" for _ in event_ids)
        rows = self.database.rows(
            f"SELECT id, version FROM events WHERE id IN ({marks})", list(event_ids)
        )
        return {row["id"]: row["version"] for row in rows}

    def seat(self, live_id: int) -> EventSeat | None:
        row = self.database.row(
            "SELECT l.event_id, e.name, l.round, l.table_no FROM event_live l"
            " JOIN events e ON e.id = l.event_id WHERE l.live_id = ?",
            [live_id],
        )
        if row is None:
            return None
        return EventSeat(row["event_id"], row["name"], row["round"], row["table_no"])


class SqliteEvents(EventReads):
    """The event store of one connection."""

    def __init__(self, database: Database) -> None:
        self.database = database
        self.writer = database

    def create(self, setup: EventSetup) -> int:
        row = new_event_row(setup)
        with self.writer.writing() as connection:
            cursor = connection.execute(
                f"INSERT INTO events ({', '.join(row)}) VALUES ({', '.join('?' for _ in row)})",
                tuple(row.values()),
            )
            event_id = cursor.lastrowid
            assert event_id is not None
            connection.executemany(ENTRANT_INSERT, entrant_rows(event_id, setup))
        return event_id

    def save(self, change: EventChange) -> None:
        with self.writer.writing() as connection:
            row = connection.execute(
                "SELECT version FROM events WHERE id = ?", [change.event_id]
            ).fetchone()
            if row is None or row[0] != change.version:
                raise EventConflictError(change.event_id)
            connection.execute(
                "UPDATE events SET status = ?, round = ?, version = ?, lease_until = ?,"
                " updated_at = ? WHERE id = ?",
                (
                    change.status,
                    change.round,
                    change.version + 1,
                    change.lease_until,
                    timestamp(),
                    change.event_id,
                ),
            )
            save_rows(connection.executemany, change)


Many = Callable[[str, list[tuple[Any, ...]]], object]
"""Runs one statement (``?`` marks) for each of its rows, in the change's transaction."""


ENTRANT_INSERT = "INSERT INTO event_entrants (event_id, position, name) VALUES (?, ?, ?)"


def new_event_row(setup: EventSetup) -> dict[str, object]:
    """The ``events`` row of a new event (open, round 0, version 0), by column; its name
    cleaned as its records' tags write it (``event_name``)."""
    stamp = timestamp()
    row: dict[str, object] = {name: getattr(setup, name) for name in SETUP_COLUMNS}
    row.update(
        name=event_name(setup.name),
        options=json.dumps(setup.options),
        tiebreaks=None if setup.tiebreaks is None else json.dumps(list(setup.tiebreaks)),
        brackets=brackets_text(setup.brackets),
        double=setup.double,
        mirrored=setup.mirrored,
        rated=setup.rated,
        host_token_id=setup.host_token_id,
        status="open",
        round=0,
        version=0,
        lease_until=None,
        created_at=stamp,
        updated_at=stamp,
    )
    return row


def entrant_rows(event_id: int, setup: EventSetup) -> list[tuple[int, int, str]]:
    """The ``event_entrants`` rows of a new event: its entrants in the order given."""
    return [(event_id, at, name) for at, name in enumerate(setup.entrants, start=1)]


def save_rows(many: Many, change: EventChange) -> None:
    """The rows of a change besides the event's own (checked and updated by the backend):
    seeds, pairings upserted (and an announcement for each live match a pairing gains,
    once), new byes, and the ledger's new rated matches."""
    event_id = change.event_id
    if change.seeds is not None:
        many(
            "UPDATE event_entrants SET seed = ?, rating = ? WHERE event_id = ? AND name = ?",
            [(seeded.seed, seeded.rating, event_id, seeded.name) for seeded in change.seeds],
        )
    updates = ", ".join(
        f"{column} = excluded.{column}" for column in PAIRING_COLUMNS.split(", ")[3:]
    )
    many(
        f"INSERT INTO event_pairings ({PAIRING_COLUMNS})"
        f" VALUES ({', '.join('?' for _ in PAIRING_COLUMNS.split(', '))})"
        f" ON CONFLICT (event_id, round, table_no) DO UPDATE SET {updates}",
        [pairing_row(event_id, pairing) for pairing in change.pairings],
    )
    announcements = []
    for pairing in change.pairings:
        for index, live_id in enumerate(pairing.live_ids):
            white, black = (pairing.white, pairing.black)[:: 1 if index % 2 == 0 else -1]
            announcements.append((live_id, event_id, pairing.round, pairing.table, white, black))
    many(
        "INSERT INTO event_live (live_id, event_id, round, table_no, white, black)"
        " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (live_id) DO NOTHING",
        announcements,
    )
    many(
        "INSERT INTO event_byes (event_id, round, name) VALUES (?, ?, ?)",
        [(event_id, number, name) for number, name in change.byes],
    )
    many(
        "INSERT INTO event_withdrawals (event_id, name, round) VALUES (?, ?, ?)",
        [(event_id, name, number) for name, number in change.withdrawn],
    )
    many(
        "INSERT INTO event_ledger (event_id, at, by_name, action, round, table_no, name, reason)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (event_id, c.at, c.by, c.action, c.round, c.table, c.name, c.reason)
            for c in change.corrections
        ],
    )
    unrate(many, change.unrated)
    insert_rated(many, change.rated)


def unrate(many: Many, match_ids: Sequence[int]) -> None:
    """Take voided matches out of the ratings' ledger; their variants' kept ratings are
    forgotten, so the next read computes them again from the ledger's start."""
    for table in ("ratings", "rating_history", "rating_marks"):
        many(
            f"DELETE FROM {table} WHERE variant IN"
            " (SELECT variant FROM rated_matches WHERE match_id = ?)",
            [(match_id,) for match_id in match_ids],
        )
    many("DELETE FROM rated_matches WHERE match_id = ?", [(match_id,) for match_id in match_ids])


def insert_rated(many: Many, rated: Sequence[RatedMatch]) -> None:
    """Add rated matches to the ledger (a match already in it stays as it is)."""
    many(
        "INSERT INTO rated_matches (match_id, event_id, variant, white, black, winner, length)"
        " VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (match_id) DO NOTHING",
        [(m.match_id, m.event_id, m.variant, m.white, m.black, m.winner, m.length) for m in rated],
    )


def pairing_row(event_id: int, pairing: StoredPairing) -> tuple[Any, ...]:
    points = pairing.points or (None, None)
    return (
        event_id,
        pairing.round,
        pairing.table,
        pairing.white,
        pairing.black,
        pairing.status,
        json.dumps(list(pairing.live_ids)),
        json.dumps(list(pairing.match_ids)),
        pairing.winner,
        points[0],
        points[1],
        pairing.termination,
        json.dumps(list(pairing.terminations)),
        pairing.draw,
        pairing.award,
        pairing.verdict_id,
        pairing.dispute,
        pairing.bracket,
    )


def stored_pairing(row: Row) -> StoredPairing:
    points = None if row["points_w"] is None else (row["points_w"], row["points_b"])
    return StoredPairing(
        round=row["round"],
        table=row["table_no"],
        white=row["white"],
        black=row["black"],
        status=row["status"],
        live_ids=tuple(json.loads(row["live_ids"])),
        match_ids=tuple(json.loads(row["match_ids"])),
        winner=row["winner"],
        points=points,
        termination=row["termination"],
        terminations=tuple(json.loads(row["terminations"])),
        draw=bool(row["draw"]),
        award=row["award"],
        verdict_id=row["verdict_id"],
        dispute=row["dispute"],
        bracket=row["bracket"],
    )


def stored_setup(row: Row, entrants: tuple[str, ...]) -> EventSetup:
    return EventSetup(
        **{name: row[name] for name in SETUP_COLUMNS},
        options=json.loads(row["options"]),
        tiebreaks=None if row["tiebreaks"] is None else tuple(json.loads(row["tiebreaks"])),
        brackets=None if row["brackets"] is None else stored_brackets(row["brackets"]),
        double=bool(row["double"]),
        entrants=entrants,
        mirrored=bool(row["mirrored"]),
        rated=bool(row["rated"]),
        host_token_id=row["host_token_id"],
    )


def brackets_text(options: BracketOptions | None) -> str | None:
    """An event's bracket options as stored: a JSON object (None: none)."""
    if options is None:
        return None
    return json.dumps(
        {
            "grand_final_reset": options.grand_final_reset,
            "consolation": options.consolation,
            "last_chance": options.last_chance,
            "lengths": dict(options.lengths),
        }
    )


def stored_brackets(text: str) -> BracketOptions:
    found = json.loads(text)
    return BracketOptions(
        grand_final_reset=bool(found["grand_final_reset"]),
        consolation=bool(found["consolation"]),
        last_chance=bool(found["last_chance"]),
        lengths=tuple((str(name), int(length)) for name, length in found["lengths"].items()),
    )
