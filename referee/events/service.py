"""The events service (EVENTS.md): create and start an event, the results of its pairings
(live matches that finish, records submitted and adjudicated, the host's awards), and the
next round paired as soon as the current one has every result.

Everything an event is lives in storage. Every change reads the event, changes it in
memory (``Working``) and saves it with the version it read (``EventStore.save``); when
another change came first it reads again. So a result arrives whichever worker sees it
first, and a server restart loses nothing: a restarted worker settles the running events
again (``settle``), and creates the live matches a round still lacks. Those are created
outside the event's transaction, under a lease on the event (``LEASE_SECONDS``) taken in
the change that paired the round, then attached in a change of their own; a worker that
finds them attached by another aborts its own.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from referee.adjudication.budget import WorkLimits
from referee.analysis import require_nardy_engine
from referee.archive.submit import checked_match
from referee.errors import ForbiddenError, NotFoundError
from referee.events import analysed, errors
from referee.events.brackets import (
    DOUBLE_BRACKETS,
    KNOCKOUT_BRACKETS,
    double_elimination,
    knockout_brackets,
    total_rounds,
)
from referee.events.live_matches import abort_matches, host_of, open_matches, outcome
from referee.events.pairing import knockout_rounds, round_robin_rounds
from referee.events.rated import rating_of, within_limit
from referee.events.results import (
    awarded,
    decide,
    forfeited,
    name_key,
    played,
    problem,
    rated_matches,
)
from referee.events.rounds import advance
from referee.events.standings import Tiebreak
from referee.events.state import (
    EventStatus,
    Format,
    Kind,
    PairingStatus,
    Working,
    disputed,
)
from referee.events.tagging import tagged
from referee.rules.engine import CHOSEN, Engine
from referee.rules.variants import find_variant
from referee.scopes import Scope
from referee.storage.model.events import (
    BracketOptions,
    EventSeat,
    EventSetup,
    Seeded,
    StoredEvent,
    StoredPairing,
)
from referee.storage.model.tokens import Token
from referee.storage.shared import normal_name
from referee.storage.stores import EventConflictError, Storage
from vocabulary import VariantId

MAX_ATTEMPTS = 20
LEASE_SECONDS = 30.0
"""How long the worker that paired a round has to create its live matches before another
worker may (after a crash, say)."""
MIN_ENTRANTS, MAX_ENTRANTS = 2, 256


# -- reading -----------------------------------------------------------------------------


def load(storage: Storage, event_id: int) -> StoredEvent:
    found = storage.events.get(event_id) if 0 < event_id < 2**63 else None
    if found is None:
        raise NotFoundError(f"no event with id {event_id}")
    return found


def now(storage: Storage, event_id: int, engine: Engine = CHOSEN) -> StoredEvent:
    """The event now, its ended live matches taken first (``settle``): read once, and
    again only when there was something to settle (every read of an event asks)."""
    found = load(storage, event_id)
    if not due(storage, event_id):
        return found
    settle(storage, event_id, engine)
    return load(storage, event_id)


Change = Callable[[Working], None]
"""Changes a freshly read event in memory (or raises)."""


def changed(storage: Storage, event_id: int, change: Change) -> Working:
    """Read, change and save, again while another change got in first; the event as
    saved (or as read, when the change left nothing to save). A change that decided a
    pairing of an event that analyses its matches queues their analyses."""
    for _ in range(MAX_ATTEMPTS):
        working = Working(load(storage, event_id))
        change(working)
        if not working.dirty:
            return working
        try:
            storage.events.save(working.change())
        except EventConflictError:
            continue
        analysed.queue_finished(storage, working)
        return working
    raise errors.EventBusyError(f"event {event_id} kept changing; send the request again")


def check_host(working: Working, caller: Token) -> None:
    if Scope.LIVE_HOST not in caller.scopes or caller.id != working.setup.host_token_id:
        raise ForbiddenError(f"only the host who created event {working.id} may do this")


# -- creating and starting ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EventRequest:
    """What ``POST /v1/events`` asks for (EVENTS.md §3)."""

    name: str
    variant: str
    length: int | dict[str, int]
    """A number of points, or one per bracket (EVENTS.md §13)."""
    format: str
    kind: str
    entrants: tuple[str, ...]
    options: dict[str, Any]
    rounds: int | None = None
    double: bool = False
    move_seconds: int = 60
    mirrored: bool = False
    rated: bool = True
    analyse: bool = False
    join_seconds: int = 300
    reserve_per_point: int | None = None
    delay: int = 0
    tiebreaks: tuple[str, ...] | None = None
    grand_final_reset: bool | None = None
    consolation: bool = False
    last_chance: bool = False


def create(storage: Storage, host: Token, request: EventRequest) -> int:
    """A new open event; 422 problems with stable codes for what cannot be held."""
    entrants = request.entrants
    if not MIN_ENTRANTS <= len(entrants) <= MAX_ENTRANTS:
        raise errors.EntrantCountError(
            f"an event has {MIN_ENTRANTS} to {MAX_ENTRANTS} entrants, not {len(entrants)}"
        )
    seen = [name_key(name) for name in entrants]
    twice = sorted({name for name, key in zip(entrants, seen, strict=True) if seen.count(key) > 1})
    if twice:
        raise errors.DuplicateEntrantError(f"entered twice: {', '.join(twice)}", names=twice)
    if request.mirrored and request.format in (Format.KNOCKOUT, Format.DOUBLE_ELIMINATION):
        raise errors.MirroredFormatError(
            f"a {request.format} cannot be mirrored: a pair may be drawn"
        )
    length, options_of_brackets = _brackets(request)
    if request.mirrored and request.kind == Kind.RECORDS:
        raise errors.MirroredFormatError("only a bots event is mirrored (the server's dice)")
    _check_tiebreaks(request)
    if request.kind == Kind.BOTS:
        _check_bots(storage, entrants)
    else:
        _check_people(storage, entrants)
    variant = find_variant(request.variant)
    if request.analyse and variant.id != VariantId.BACKGAMMON:
        require_nardy_engine(variant.id)  # gnubg's are checked by the workers that run it
    options = variant.options_json(variant.options_with(request.options))
    setup = EventSetup(
        name=request.name,
        variant=str(variant.id),
        length=length,
        options=options,
        format=request.format,
        rounds=_rounds(request),
        double=request.double,
        kind=request.kind,
        entrants=entrants,
        move_seconds=request.move_seconds,
        mirrored=request.mirrored,
        rated=request.rated,
        host_token_id=host.id,
        join_seconds=request.join_seconds if request.kind == Kind.BOTS else None,
        reserve_per_point=request.reserve_per_point if request.kind == Kind.BOTS else None,
        delay=request.delay if request.reserve_per_point and request.kind == Kind.BOTS else None,
        tiebreaks=request.tiebreaks,
        brackets=options_of_brackets,
        analyse=request.analyse,
    )
    return storage.events.create(setup)


def _brackets(request: EventRequest) -> tuple[int, BracketOptions | None]:
    """The event's length (its first bracket's) and its bracket options, checked: a
    consolation and a last chance only in a knockout (the last chance with a consolation,
    of 3 entrants or more), a reset only in a double elimination, lengths only for the
    brackets the event plays, its first bracket's named."""
    form = request.format
    double = form == Format.DOUBLE_ELIMINATION
    if request.consolation and form != Format.KNOCKOUT:
        raise errors.BracketsError("a consolation is for a knockout")
    if request.last_chance and not request.consolation:
        raise errors.BracketsError("a last chance needs a knockout with a consolation")
    if request.consolation and len(request.entrants) < 3:
        raise errors.BracketsError("a consolation needs 3 entrants or more")
    if request.grand_final_reset is not None and not double:
        raise errors.BracketsError("grand_final_reset is for a double elimination")
    played = _played_brackets(request)
    if isinstance(request.length, int):
        lengths: tuple[tuple[str, int], ...] = ()
        length = request.length
    else:
        if not played:
            raise errors.BracketsError(
                f"a {form} plays one bracket: its length is a number of points"
            )
        unknown = sorted(set(request.length) - set(played))
        if unknown:
            raise errors.BracketsError(
                f"this event has no {', '.join(unknown)} bracket (it plays {', '.join(played)})"
            )
        if played[0] not in request.length:
            raise errors.BracketsError(f"length needs the {played[0]} bracket's")
        length = request.length[played[0]]
        lengths = tuple((name, request.length[name]) for name in played if name in request.length)
    if not played:
        return length, None
    reset = True if request.grand_final_reset is None else request.grand_final_reset
    return length, BracketOptions(
        grand_final_reset=reset if double else True,
        consolation=request.consolation,
        last_chance=request.last_chance,
        lengths=lengths,
    )


def _played_brackets(request: EventRequest) -> list[str]:
    """The brackets an event plays, its first first (none: a format without brackets)."""
    if request.format == Format.DOUBLE_ELIMINATION:
        return [str(name) for name in DOUBLE_BRACKETS]
    if request.format == Format.KNOCKOUT and request.consolation:
        return [str(name) for name in KNOCKOUT_BRACKETS[: 3 if request.last_chance else 2]]
    return []


def _check_tiebreaks(request: EventRequest) -> None:
    named = request.tiebreaks
    if named is None:
        return
    if request.format in (Format.KNOCKOUT, Format.DOUBLE_ELIMINATION):
        raise errors.TiebreaksError(
            f"a {request.format} ranks by the round reached: it has no tie-breaks"
        )
    twice = sorted({name for name in named if named.count(name) > 1})
    if twice:
        raise errors.TiebreaksError(f"tie-breaks named twice: {', '.join(twice)}")
    if Tiebreak.PR in named and not request.analyse:
        raise errors.TiebreaksError(
            "pr: the performance rating needs an analysis of every match: ask for one with"
            ' "analyse": true'
        )


def _check_bots(storage: Storage, entrants: tuple[str, ...]) -> None:
    bots = {
        token.name
        for token in storage.tokens.all()
        if Scope.PLAY in token.scopes and token.revoked_at is None
    }
    unknown = [name for name in entrants if normal_name(name) not in bots]
    if unknown:
        raise errors.UnknownBotError(
            f"no bot token (scope play) is named {', '.join(unknown)}", names=unknown
        )


def _check_people(storage: Storage, entrants: tuple[str, ...]) -> None:
    """A records event's entrants are people: none may be a bot's name (a play token's,
    revoked or not, as a director reads names), so no made-up record moves a bot's
    rating (docs/events.md)."""
    bots = {name_key(t.name or "") for t in storage.tokens.all() if Scope.PLAY in t.scopes}
    named = [name for name in entrants if name_key(name) in bots]
    if named:
        raise errors.BotEntrantError(
            f"a records event's entrants are people; {', '.join(named)} is a bot's name",
            names=named,
        )


def _rounds(request: EventRequest) -> int:
    count = len(request.entrants)
    if request.double and request.format != Format.ROUND_ROBIN:
        raise errors.RoundsError("double is for a round robin")
    if request.format == Format.SWISS:
        if request.rounds is None:
            raise errors.RoundsError("a Swiss needs its number of rounds")
        return request.rounds
    if request.format == Format.ROUND_ROBIN:
        computed = round_robin_rounds(count, request.double)
    elif request.format == Format.DOUBLE_ELIMINATION:
        reset = request.grand_final_reset is not False
        computed = total_rounds(double_elimination(count, reset))
    elif request.consolation:
        computed = total_rounds(knockout_brackets(count, True, request.last_chance))
    else:
        computed = knockout_rounds(count)
    if request.rounds is not None and request.rounds != computed:
        raise errors.RoundsError(
            f"a {request.format} of {count} has {computed} rounds, not {request.rounds}"
        )
    return computed


def provisional_seeds(storage: Storage, setup: EventSetup) -> tuple[Seeded, ...]:
    """The seed order if the event started now: rating high to low, then name."""
    rated = [(rating_of(storage, setup.variant, name), name) for name in setup.entrants]
    ordered = sorted(rated, key=lambda item: (-item[0], item[1]))
    return tuple(Seeded(name, seed, rating) for seed, (rating, name) in enumerate(ordered, 1))


def start(storage: Storage, event_id: int, host: Token, engine: Engine = CHOSEN) -> None:
    """Seed the entrants and pair round 1; a bots event's live matches are created."""
    stored = load(storage, event_id)
    if stored.setup.kind == Kind.BOTS:
        _check_bots(storage, stored.setup.entrants)
    seeds = provisional_seeds(storage, stored.setup)

    def started(working: Working) -> None:
        check_host(working, host)
        if working.status != EventStatus.OPEN:
            raise errors.EventStateError(f"event {event_id} is {working.status}, not open")
        working.set_seeds(seeds)
        working.status = EventStatus.RUNNING
        advanced(working)

    working = changed(storage, event_id, started)
    if working.lease_until is not None:
        create_live_matches(storage, event_id, held=True)


# -- results -----------------------------------------------------------------------------


def due(storage: Storage, event_id: int, waiting: dict[int, int] | None = None) -> bool:
    """Whether a running event has anything to settle: a pairing without its live
    matches, or one whose live match has ended (or passed its deadline). A live match
    without a deadline is waiting or has ended; ``waiting`` (live id: version) names those
    known to wait, which are not looked at again until their version changes."""
    watched = storage.events.in_play(event_id)
    if watched is None:
        return False
    if watched.unattached:
        return True
    seen = storage.live.versions(watched.live_ids)
    now = time.time()
    for live_id in watched.live_ids:
        found = seen.get(live_id)
        if found is None:
            return True
        if found.deadline is not None:
            if now > found.deadline:
                return True
        elif waiting is None or waiting.get(live_id) != found.version:
            return True
    return False


def waiting_matches(storage: Storage, event_id: int) -> dict[int, int]:
    """The live matches of a running event's undecided pairings that have no deadline
    (waiting for their bots), with their versions."""
    watched = storage.events.in_play(event_id)
    if watched is None:
        return {}
    seen = storage.live.versions(watched.live_ids)
    return {i: found.version for i, found in seen.items() if found.deadline is None}


def settle(storage: Storage, event_id: int, engine: Engine = CHOSEN) -> None:
    """Take the results of the live matches that have finished, withdraw the bots whose
    tokens were revoked, and pair the next round when the current one has every result
    (any worker, any time: idempotent); then create the live matches the round still
    lacks and abort those of pairings forfeited meanwhile."""
    paired = False
    spare: list[int] = []
    revoked = _revoked(storage)

    def settled(working: Working) -> None:
        nonlocal paired
        spare.clear()
        if working.status != EventStatus.RUNNING:
            return
        if working.setup.kind == Kind.BOTS:
            for pairing in _may_end(storage, working):
                spare.extend(_take_outcome(storage, working, pairing, engine))
            for name in sorted(revoked & set(working.seed_names()) - set(working.withdrawn)):
                spare.extend(withdrawn(working, name, "server", "the bot's token was revoked"))
        paired = advanced(working)

    follow_up(storage, changed(storage, event_id, settled), spare, paired)


def advanced(working: Working) -> bool:
    """Pair what can be paired (``advance``); a round paired with live matches to create
    takes the lease on creating them. Whether one was."""
    paired = advance(working)
    if paired:
        working.lease_until = time.time() + LEASE_SECONDS
    return paired


def follow_up(storage: Storage, saved: Working, spare: Sequence[int], paired: bool) -> None:
    """After a change: abort the live matches of the pairings it decided without them
    (``spare``), and create those the event's pairings still lack."""
    if spare:
        abort_matches(storage, spare, host_of(storage, saved.setup))
    create_live_matches(storage, saved.id, held=paired)


def _may_end(storage: Storage, working: Working) -> list[StoredPairing]:
    """The playing pairings whose live matches may give a result now: those whose first
    live match has ended or passed its deadline (a match ended has none). A match in play
    before its deadline gives none (``outcome`` stops at it), so its row is not read: one
    query of versions in place of a live match read per pairing, on every settle."""
    playing = [
        pairing
        for pairing in working.pairings.values()
        if pairing.status == PairingStatus.PLAYING and pairing.live_ids
    ]
    seen = storage.live.versions([pairing.live_ids[0] for pairing in playing]) if playing else {}
    now = time.time()
    return [
        pairing
        for pairing in playing
        if (found := seen.get(pairing.live_ids[0])) is None
        or found.deadline is None
        or now > found.deadline
    ]


def _revoked(storage: Storage) -> set[str]:
    """The names of the bot tokens revoked (and of no live bot token)."""
    tokens = [token for token in storage.tokens.all() if Scope.PLAY in token.scopes]
    live = {token.name for token in tokens if token.revoked_at is None}
    return {token.name for token in tokens if token.name and token.name not in live}


def withdrawn(working: Working, name: str, by: str, reason: str) -> list[int]:
    """Withdraw an entrant (EVENTS.md §11): paired no more, and each undecided pairing of
    it forfeited to the opponent; the live matches of those pairings, to abort."""
    working.withdraw(name)
    working.note("withdraw", by, reason, name=name)
    spare: list[int] = []
    for pairing in list(working.pairings.values()):
        undecided = pairing.status != PairingStatus.FINISHED
        if undecided and name in (pairing.white, pairing.black):
            other = pairing.black if name == pairing.white else pairing.white
            spare.extend(pairing.live_ids)
            working.put(forfeited(pairing, other, "forfeit", working.setup))
            working.note("forfeit", by, f"{name} withdrew: {reason}", pairing, name)
    return spare


def _take_outcome(
    storage: Storage, working: Working, pairing: StoredPairing, engine: Engine
) -> tuple[int, ...]:
    """The pairing's result once its live matches give one; the live matches to abort (a
    mirrored pair decided by a no-show in one of its matches: the other)."""
    found = outcome(storage, pairing, engine)
    if found is None:
        return ()
    if found.forfeit is not None:
        winner, absent = found.forfeit
        working.put(forfeited(pairing, winner, "no_show", working.setup))
        why = f"{' and '.join(absent)} did not join within {working.setup.join_seconds} s"
        working.note("no_show", "server", why, pairing, absent[0])
        return pairing.live_ids
    if found.dispute is not None:
        working.put(disputed(pairing, found.dispute, found.verdict_id))
    else:
        working.put(decide(pairing, found.matches))
        # A bots event's matches are all rated: the daily limit is for records events.
        working.rated.extend(rated_matches(working.id, working.setup, pairing, found.matches))
    return ()


def create_live_matches(storage: Storage, event_id: int, held: bool = False) -> None:
    """Create the live matches of the current round's pairings that have none yet: by the
    worker that holds the event's lease (``held``), or by any once the lease has run out
    (it takes the lease first). Then attach them, aborting those another worker made."""
    watched = storage.events.in_play(event_id)
    if watched is None or not watched.unattached:
        return
    if not held:
        lease = watched.lease_until
        if lease is not None and lease > time.time():
            return  # another worker is creating them

        def leased(working: Working) -> None:
            if working.stored.version != watched.version:
                raise EventConflictError(event_id)
            working.lease_until = time.time() + LEASE_SECONDS

        try:
            changed(storage, event_id, leased)
        except (EventConflictError, errors.EventBusyError):
            return  # someone changed it meanwhile: the next look decides
    stored = load(storage, event_id)
    host = host_of(storage, stored.setup)
    made: dict[int, tuple[int, ...] | str] = {}
    for pairing in stored.pairings:
        if pairing.status == PairingStatus.PLAYING and not pairing.live_ids:
            made[pairing.table] = open_matches(storage, stored.setup, pairing, host)
    _attach(storage, event_id, stored.round, made, host)


def _attach(
    storage: Storage,
    event_id: int,
    number: int,
    made: dict[int, tuple[int, ...] | str],
    host: Token,
) -> None:
    spare: list[int] = []

    def attached(working: Working) -> None:
        spare.clear()
        for table, created in made.items():
            pairing = working.find(number, table)
            free = pairing is not None and pairing.status == PairingStatus.PLAYING
            if pairing is None or not free or pairing.live_ids:
                spare.extend(created if isinstance(created, tuple) else ())
            elif isinstance(created, str):
                working.put(disputed(pairing, created))
            else:
                working.put(replace(pairing, live_ids=created))
        working.lease_until = None

    try:
        changed(storage, event_id, attached)
    except errors.EventBusyError:
        spare = [i for created in made.values() if isinstance(created, tuple) for i in created]
    abort_matches(storage, spare, host)


@dataclass(frozen=True, slots=True)
class Submitted:
    """A record submitted for a pairing: the pairing after it, the stored match (its
    verdict) and whether it was stored already."""

    pairing: StoredPairing
    match_id: int
    duplicate: bool
    verdict: dict[str, Any]


def submit_record(
    storage: Storage,
    event_id: int,
    number: int,
    table: int,
    text: str,
    host: Token,
    limits: WorkLimits | None = None,
    engine: Engine = CHOSEN,
    record_format: str | None = None,
) -> Submitted:
    """A records event's pairing gets its record (in the format named, else the one it
    shows), tagged with the event's tags and adjudicated as ``POST /v1/matches`` does
    (stored even when invalid): a valid record of the match gives the result; an invalid
    or incomplete one, or one of other players or of another length, is stored and leaves
    the pairing disputed with the verdict's id and why (EVENTS.md §6), in the submit's
    normal answer (only a 2xx answer stores)."""
    working = Working(load(storage, event_id))
    _open_pairing(working, number, table, host, records=True)
    setup = working.setup
    seat = EventSeat(event_id, setup.name, number, table)
    record = tagged(text, seat.tags(), record_format)
    match = checked_match(record, setup.options, True, setup.variant, limits, engine, record_format)
    stored = storage.matches.store(match)
    found = played(stored.id, match.verdict)

    def recorded(working: Working) -> None:
        pairing = _open_pairing(working, number, table, host, records=True)
        for other in working.pairings.values():
            if stored.id in other.match_ids:
                raise errors.RecordInUseError(
                    f"match {stored.id} is already the result of round {other.round},"
                    f" table {other.table}"
                )
        why = problem(found, pairing, setup)
        if why is not None:
            working.put(disputed(pairing, why[1], stored.id))
        else:
            working.put(decide(pairing, [found]))
            rated = rated_matches(working.id, setup, pairing, [found])
            working.rated.extend(within_limit(storage, working.rated, rated))
        advance(working)

    saved = changed(storage, event_id, recorded)
    return Submitted(saved.pairings[(number, table)], stored.id, stored.duplicate, match.verdict)


def _open_pairing(
    working: Working, number: int, table: int, host: Token, records: bool = False
) -> StoredPairing:
    """The pairing a record or an award is for, which must exist and have no result."""
    check_host(working, host)
    if records and working.setup.kind != Kind.RECORDS:
        raise errors.WrongKindError("a bots event's matches are played live, not submitted")
    if working.status != EventStatus.RUNNING:
        raise errors.EventStateError(f"event {working.id} is {working.status}, not running")
    pairing = working.find(number, table)
    if pairing is None:
        raise errors.UnknownPairingError(
            f"event {working.id} has no table {table} in round {number}"
        )
    if pairing.status == PairingStatus.FINISHED:
        raise errors.PairingDecidedError(f"round {number}, table {table} has its result already")
    return pairing


def award(
    storage: Storage,
    event_id: int,
    number: int,
    table: int,
    side: str,
    reason: str,
    host: Token,
) -> StoredPairing:
    """The host decides a pairing (termination ``award``): it counts for standings, not
    for ratings. A live match of it still in play is aborted."""
    live_ids: tuple[int, ...] = ()
    paired = False

    def decided(working: Working) -> None:
        nonlocal live_ids, paired
        pairing = _open_pairing(working, number, table, host)
        live_ids = pairing.live_ids
        result = awarded(pairing, side, reason, working.setup)
        working.put(result)
        working.note("award", host.name or "host", reason, pairing, result.winner)
        paired = advanced(working)

    saved = changed(storage, event_id, decided)
    follow_up(storage, saved, live_ids, paired)
    return saved.pairings[(number, table)]
