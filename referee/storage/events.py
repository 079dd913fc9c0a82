"""Events, on every backend: one row per event (its setup, status, round, version and
lease), its entrants, one row per pairing and per bye, its withdrawals and its ledger of
corrections, the announcements of its live matches, and the ratings' ledger its results
add to. A change checks the version it read in the statement that updates the event's
row, as live matches do, and holds ``Serial.NUMBERS``: the announcements to the bots and
the ratings' ledger are read by ``seq`` (``after_seq``), so a reader never sees a later
``seq`` committed before an earlier one."""

from __future__ import annotations

import json
from collections.abc import Sequence

from referee.storage.event_rows import (
    PAIRING_COLUMNS,
    entrant_rows,
    new_event_row,
    pairing_row,
    stored_pairing,
    stored_setup,
)
from referee.storage.model.events import (
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
)
from referee.storage.model.feed import ANNOUNCEMENTS, EVENT_TOPIC
from referee.storage.ratings import insert_rated, unrate
from referee.storage.shared import timestamp
from referee.storage.sql import Database, Dialect, Serial, Transaction, insert_sql, marks
from referee.storage.stores import EventConflictError

UNDECIDED = ("pending", "playing", "disputed")
"""The statuses of a pairing without a result."""
ENTRANT_INSERT = "INSERT INTO event_entrants (event_id, position, name) VALUES (?, ?, ?)"


class Events:
    """The event store."""

    def __init__(self, database: Database, dialect: Dialect) -> None:
        self.database = database
        self.dialect = dialect

    def create(self, setup: EventSetup) -> int:
        row = new_event_row(setup)
        with self.database.writing() as tx:
            event_id = tx.insert(insert_sql("events", list(row)), list(row.values()))
            tx.many(ENTRANT_INSERT, entrant_rows(event_id, setup))
        return event_id

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
        return [EventSummary(**{name: row[name] for name in SUMMARY_FIELDS}) for row in rows]

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

    def save(self, change: EventChange) -> None:
        with self.database.writing() as tx:
            self.dialect.serialize(tx, Serial.NUMBERS)
            checked = tx.execute(
                "UPDATE events SET status = ?, round = ?, version = ?, lease_until = ?,"
                " updated_at = ? WHERE id = ? AND version = ?",
                [
                    change.status,
                    change.round,
                    change.version + 1,
                    change.lease_until,
                    timestamp(),
                    change.event_id,
                    change.version,
                ],
            )
            if checked != 1:
                raise EventConflictError(change.event_id)  # rolls the transaction back
            save_rows(tx, change)
            self.dialect.notify(tx, EVENT_TOPIC, change.event_id, change.version + 1)
            if any(pairing.live_ids for pairing in change.pairings):  # maybe announced
                self.dialect.notify_news(tx, ANNOUNCEMENTS, "event_live")

    def announced(self, name: str, after_seq: int = 0) -> list[EventLive]:
        return self._announced("(l.white = ? OR l.black = ?) AND ", [name, name], after_seq)

    def announced_since(self, after_seq: int) -> list[EventLive]:
        return self._announced("", [], after_seq)

    def _announced(self, names: str, arguments: list[str], after_seq: int) -> list[EventLive]:
        """The live matches of undecided pairings announced after ``after_seq``, in
        order; ``names``: a condition on the announcement's players (its ``arguments``)."""
        rows = self.database.rows(
            "SELECT l.seq, l.live_id, l.event_id, l.round, l.table_no, l.white, l.black"
            " FROM event_live l JOIN event_pairings p ON p.event_id = l.event_id"
            " AND p.round = l.round AND p.table_no = l.table_no"
            f" WHERE {names}l.seq > ?"
            f" AND p.status IN ({marks(len(UNDECIDED))}) ORDER BY l.seq",
            [*arguments, after_seq, *UNDECIDED],
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
        if not event_ids:
            return {}
        rows = self.database.rows(
            f"SELECT id, version FROM events WHERE id IN ({marks(len(event_ids))})",
            list(event_ids),
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


SUMMARY_FIELDS = (
    *("id", "name", "variant", "length", "format", "kind", "status", "round", "rounds"),
    *("entrants", "created_at"),
)
"""The columns of a search's row, each an ``EventSummary`` field of its name."""


def save_rows(tx: Transaction, change: EventChange) -> None:
    """The rows of a change besides the event's own (checked and updated by ``save``):
    seeds, pairings upserted (and an announcement for each live match a pairing gains,
    once), new byes, withdrawals and corrections, and the ledger's rated matches (new
    ones added, voided ones taken out)."""
    event_id = change.event_id
    if change.seeds is not None:
        tx.many(
            "UPDATE event_entrants SET seed = ?, rating = ? WHERE event_id = ? AND name = ?",
            [(seeded.seed, seeded.rating, event_id, seeded.name) for seeded in change.seeds],
        )
    columns = PAIRING_COLUMNS.split(", ")
    updates = ", ".join(f"{column} = excluded.{column}" for column in columns[3:])
    tx.many(
        f"{insert_sql('event_pairings', columns)}"
        f" ON CONFLICT (event_id, round, table_no) DO UPDATE SET {updates}",
        [pairing_row(event_id, pairing) for pairing in change.pairings],
    )
    announcements = []
    for pairing in change.pairings:
        for index, live_id in enumerate(pairing.live_ids):
            white, black = (pairing.white, pairing.black)[:: 1 if index % 2 == 0 else -1]
            announcements.append((live_id, event_id, pairing.round, pairing.table, white, black))
    tx.many(
        "INSERT INTO event_live (live_id, event_id, round, table_no, white, black)"
        " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (live_id) DO NOTHING",
        announcements,
    )
    tx.many(
        "INSERT INTO event_byes (event_id, round, name) VALUES (?, ?, ?)",
        [(event_id, number, name) for number, name in change.byes],
    )
    tx.many(
        "INSERT INTO event_withdrawals (event_id, name, round) VALUES (?, ?, ?)",
        [(event_id, name, number) for name, number in change.withdrawn],
    )
    tx.many(
        "INSERT INTO event_ledger (event_id, at, by_name, action, round, table_no, name, reason)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        [
            (event_id, c.at, c.by, c.action, c.round, c.table, c.name, c.reason)
            for c in change.corrections
        ],
    )
    unrate(tx, change.unrated)
    insert_rated(tx, change.rated)
