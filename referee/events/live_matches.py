"""A bots event's live matches, through the live service's public functions (LIVE.md):
created for the pairings of a round (a mirrored pair's two on one seed, EVENTS.md §7),
and read for their results once they have finished, whichever worker looks."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace

from referee.errors import InvalidPlayersError, NotPlayingError, RefereeError
from referee.events.results import Played, played
from referee.live import service as live
from referee.live.model import Status
from referee.rules.engine import CHOSEN, Engine
from referee.storage.model.events import EventSetup, StoredPairing
from referee.storage.model.tokens import Token
from referee.storage.stores import Storage


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a pairing's live matches stand: every one finished (``matches``), one of them
    cannot give a result (``dispute``), or one ended before its first game because a bot
    did not join in time (``forfeit``: the winner's name, None when neither joined, and
    the absent names)."""

    matches: tuple[Played, ...] = ()
    dispute: str | None = None
    verdict_id: int | None = None
    forfeit: tuple[str | None, tuple[str, ...]] | None = None


def host_of(storage: Storage, setup: EventSetup) -> Token:
    """The event's host token (the one that created it), which hosts its live matches."""
    for token in storage.tokens.all():
        if token.id == setup.host_token_id:
            return token
    raise InvalidPlayersError("the event's host token is gone")


def open_matches(
    storage: Storage, setup: EventSetup, pairing: StoredPairing, host: Token
) -> tuple[int, ...] | str:
    """The pairing's live match (a mirrored pair's two, the second with the sides
    swapped on the first's dice), or why it cannot be created (a bot token revoked)."""
    players = {"w": pairing.white, "b": pairing.black}
    length = setup.match_length(pairing.bracket)
    clock = None
    if setup.reserve_per_point is not None:
        clock = (setup.reserve_per_point * length, setup.delay or 0)
    try:
        first = live.create(
            storage,
            host,
            setup.variant,
            length,
            setup.options,
            players,
            setup.move_seconds,
            mirrored=setup.mirrored,
            join_seconds=setup.join_seconds,
            clock=clock,
        )
        if not setup.mirrored:
            return (first["id"],)
        second = live.create(
            storage,
            host,
            setup.variant,
            length,
            setup.options,
            {"w": pairing.black, "b": pairing.white},
            setup.move_seconds,
            dice_of=first["id"],
            join_seconds=setup.join_seconds,
            clock=clock,
        )
    except InvalidPlayersError as error:
        return f"the live match cannot be created: {error.message}"
    return (first["id"], second["id"])


def abort_matches(storage: Storage, live_ids: Sequence[int], host: Token) -> None:
    """Abort live matches that are no pairing's (made twice by two workers at once, or
    decided by an award): nothing of them is stored."""
    for live_id in live_ids:
        with contextlib.suppress(NotPlayingError, RefereeError):  # it ended meanwhile
            live.abort(storage, live_id, host)


def outcome(storage: Storage, pairing: StoredPairing, engine: Engine = CHOSEN) -> Outcome | None:
    """The pairing's outcome once all its live matches have ended; None while one plays.
    A missed deadline is applied first (the player to act loses, LIVE.md §4; a bot not
    joined in time, EVENTS.md §12)."""
    matches = []
    for live_id in pairing.live_ids:
        stored = storage.live.get(live_id)
        if stored is None:
            return Outcome(dispute=f"live match {live_id} is not there")
        status, match_id = stored.progress.status, stored.match_id
        state = stored.progress.state or {}
        deadline = stored.progress.deadline
        if status != Status.FINISHED and deadline is not None and time.time() > deadline:
            match = live.current(storage, live_id)
            status, match_id = match.status, match.match_id
            state = {"termination": match.table.termination, "winner": match.table.winner}
        if status == Status.ABORTED:
            return Outcome(dispute=f"live match {live_id} was aborted")
        if status != Status.FINISHED:
            return None
        players = stored.setup.players
        if state.get("termination") == "no_show":
            return _no_show(stored.progress.seeds, players, state.get("winner"))
        assert match_id is not None
        record = storage.matches.get(match_id)
        assert record is not None
        found = played(match_id, record.verdict)
        if not found.valid or found.winner is None:
            return Outcome(dispute=f"live match {live_id}'s record is invalid", verdict_id=match_id)
        if state.get("termination") == "time":  # the record says timeout: its clock ran out
            found = replace(found, termination="time")
        matches.append(found)
    return Outcome(matches=tuple(matches))


def _no_show(
    seeds: tuple[str | None, str | None], players: tuple[str, str], winner: str | None
) -> Outcome:
    """The outcome of a live match no bot (or one) joined in time."""
    absent = tuple(name for name, seed in zip(players, seeds, strict=True) if seed is None)
    name = None if winner is None else players[0 if winner == "w" else 1]
    return Outcome(forfeit=(name, absent))
