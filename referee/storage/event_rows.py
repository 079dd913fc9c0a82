"""An event's rows and its values, both ways, on every backend: its ``events`` row, its
entrants, its pairings and its bracket options as stored (JSON text where a value is a
list or an object)."""

from __future__ import annotations

import json
from typing import Any

from referee.storage.model.events import BracketOptions, EventSetup, StoredPairing, event_name
from referee.storage.shared import timestamp
from referee.storage.sql import Row

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
        analyse_matches=setup.analyse,
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


def pairing_row(event_id: int, pairing: StoredPairing) -> tuple[Any, ...]:
    """A pairing's ``event_pairings`` row (``PAIRING_COLUMNS``)."""
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
        analyse=bool(row["analyse_matches"]),
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
