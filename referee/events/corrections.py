"""Corrections of an event (EVENTS.md §11), running or finished: a result voided (a
``records`` pairing waits for a new record or an award, a ``bots`` pairing is played again
in new live matches), an entrant withdrawn (paired no more, its undecided pairings
forfeited), each kept in the event's ledger; the standings follow from the pairings, and
the ratings are computed again without a voided match."""

from __future__ import annotations

import time

from referee.events import errors
from referee.events.results import same_name
from referee.events.rounds import advance, forfeit_withdrawn
from referee.events.service import (
    LEASE_SECONDS,
    advanced,
    changed,
    check_host,
    create_live_matches,
    follow_up,
    load,
    withdrawn,
)
from referee.events.state import EventStatus, Kind, PairingStatus, Working
from referee.storage.model.events import Correction, StoredEvent, StoredPairing
from referee.storage.model.tokens import Token
from referee.storage.stores import Storage


def void(
    storage: Storage, event_id: int, number: int, table: int, reason: str, host: Token
) -> StoredPairing:
    """Void a pairing's result; rounds already paired stay as they are, and the event is
    running again until the pairing has a new result."""
    bots = False

    def voided(working: Working) -> None:
        nonlocal bots
        check_host(working, host)
        if working.status == EventStatus.OPEN:
            raise errors.EventStateError(f"event {event_id} has not started")
        pairing = working.find(number, table)
        if pairing is None:
            raise errors.UnknownPairingError(
                f"event {event_id} has no table {table} in round {number}"
            )
        if pairing.status != PairingStatus.FINISHED:
            raise errors.PairingUndecidedError(
                f"round {number}, table {table} has no result to void ({pairing.status})"
            )
        bots = working.setup.kind == Kind.BOTS
        working.unrated.extend(pairing.match_ids)
        status = PairingStatus.PLAYING if bots else PairingStatus.PENDING
        again = StoredPairing(
            round=number,
            table=table,
            white=pairing.white,
            black=pairing.black,
            status=status,
            bracket=pairing.bracket,
        )
        working.put(again)
        working.note("void", host.name or "host", reason, pairing)
        gone = [name for name in (again.white, again.black) if name in working.withdrawn]
        if gone:
            forfeit_withdrawn(working, again, gone)
        working.status = EventStatus.RUNNING
        advance(working)
        if bots:
            working.lease_until = time.time() + LEASE_SECONDS

    changed(storage, event_id, voided)
    if bots:
        create_live_matches(storage, event_id, held=True)
    stored = load(storage, event_id)  # with the live matches made to play it again
    return next(p for p in stored.pairings if (p.round, p.table) == (number, table))


def withdraw(storage: Storage, event_id: int, name: str, reason: str, host: Token) -> StoredEvent:
    """Withdraw an entrant of a running event: not paired from the next round on, and a
    pairing of it in play (or waiting for a record) forfeited to the opponent."""
    spare: list[int] = []
    paired = False

    def out(working: Working) -> None:
        nonlocal paired
        check_host(working, host)
        if working.status != EventStatus.RUNNING:
            raise errors.EventStateError(f"event {event_id} is {working.status}, not running")
        entrant = next((e for e in working.seed_names() if same_name(e, name)), None)
        if entrant is None:
            raise errors.UnknownEntrantError(f"{name!r} is not an entrant of event {event_id}")
        if entrant in working.withdrawn:
            raise errors.AlreadyWithdrawnError(f"{entrant} is withdrawn already")
        spare[:] = withdrawn(working, entrant, host.name or "host", reason)
        paired = advanced(working)

    follow_up(storage, changed(storage, event_id, out), spare, paired)
    return load(storage, event_id)


def ledger(storage: Storage, event_id: int) -> list[Correction]:
    """Every correction, award, forfeit and no-show of an event, in the order made."""
    load(storage, event_id)  # 404 for no such event
    return storage.events.ledger(event_id)
