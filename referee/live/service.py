"""The live match service (LIVE.md): create, join, act, abort, time limits, the dice proof
and the finished match's record; the state lives in the archive database.

Every change reads the match, applies it to its ``Table`` outside any lock, and commits
only if nobody changed the match in between (``LiveStore.save``); otherwise it reads
again, so of two racing actions on one ply the second finds a new ply (409).
"""

from __future__ import annotations

import json
import math
import threading
import time
from collections.abc import Callable
from datetime import UTC, datetime
from functools import lru_cache
from typing import Any

from referee.errors import (
    ArchiveBusyError,
    ForbiddenError,
    InvalidPlayersError,
    LiveBusyError,
    NotFoundError,
    NotPlayingError,
    NotReadyError,
    StalePlyError,
    StorageUnavailableError,
)
from referee.live import dice
from referee.live.codec import entries_from_json, entries_json, table_as_saved, table_json
from referee.live.kept import TABLES
from referee.live.model import LiveMatch, Status
from referee.live.record import checked_record
from referee.live.shapes import (
    ActionView,
    ClockView,
    ProofView,
    StateView,
    dump_action,
    dump_proof,
    dump_state,
)
from referee.live.table import Action, GameStart, LiveAction, Table, Use
from referee.rules.engine import CHOSEN, Engine
from referee.rules.variants import find_variant
from referee.scopes import Scope
from referee.storage.errors import LiveConflictError, StorageError
from referee.storage.model.live import LiveChange, LiveProgress, LiveSetup, Throw
from referee.storage.model.tokens import Token
from referee.storage.shared import normal_name
from referee.storage.stores import Storage
from vocabulary import Side

DEFAULT_MOVE_SECONDS = 60
MAX_ATTEMPTS = 20
"""Re-reads of a match that keeps changing under a change (each re-read re-checks it)."""


class _Dice:
    """The match's next throws (LIVE.md §5), kept to be stored with the change."""

    def __init__(self, match: LiveMatch) -> None:
        self.match = match
        self.k = match.throws
        self.new: list[Throw] = []

    def __call__(self, game: int, use: Use) -> tuple[int, int]:
        self.k += 1
        seeds = self.match.client_seeds  # none in a mirrored pair, whose dice are shared
        match = self.match
        thrown = dice.throw(match.server_seed, match.dice_id, self.k, seeds["w"], seeds["b"])
        self.new.append(Throw(self.k, thrown, game, str(use)))
        return thrown


def _load(storage: Storage, live_id: int, engine: Engine = CHOSEN) -> LiveMatch:
    """The match as stored, its table playing on ``engine`` (this process's kept table
    when it is the one stored)."""
    found = storage.live.get_encoded(live_id) if 0 < live_id < 2**63 else None
    if found is None:
        raise NotFoundError(f"no live match with id {live_id}")
    stored, text = found
    return LiveMatch.from_stored(stored, TABLES.table(live_id, text, engine))


Change = Callable[[LiveMatch, _Dice], bool]
"""Applies a change to a freshly read match, on the match: whether there is one to save."""


def _change(storage: Storage, live_id: int, change: Change, engine: Engine = CHOSEN) -> LiveMatch:
    """Read, change and commit, again while another change got in first (plays are listed
    and judged by ``engine``)."""
    for _ in range(MAX_ATTEMPTS):
        match = _load(storage, live_id, engine)
        thrown = _Dice(match)
        if not change(match, thrown):
            return match
        match.throws = thrown.k
        record = None
        noted = match.table.noted
        if match.table.finished and match.status == Status.PLAYING:
            match.status = Status.FINISHED
            match.deadline = None
            entries = [*entries_from_json(storage.live.log(live_id)), *noted]
            record = checked_record(match, entries, engine, storage.events.seat(live_id))
        progress, throws = match.progress(), tuple(thrown.new)
        state = progress.state
        text = None if state is None else json.dumps(state)
        try:
            saving = LiveChange(
                live_id, match.version, progress, throws, record, tuple(entries_json(noted)), text
            )
            match_id = storage.live.save(saving)
        except LiveConflictError:
            continue
        if state is not None and text is not None:
            TABLES.keep(live_id, text, table_as_saved(match.table, state))
        match.version += 1
        match.match_id = match_id if record is not None else match.match_id
        return match  # as saved
    raise LiveBusyError(f"live match {live_id} kept changing; send the request again")


def _deadline(match: LiveMatch) -> float:
    """The deadline of the decision now due, from now: ``move_seconds``, or on a clock its
    delay and the reserve of the side to act (EVENTS.md §12), kept as the turn's full time
    (``turn_seconds``, what a restart gives again)."""
    side = match.table.to_act()
    if match.clock is None or match.reserves is None or side is None:
        match.turn_seconds = None
        return time.time() + match.move_seconds
    match.turn_seconds = match.clock[1] + match.reserves[str(side)]
    return time.time() + match.turn_seconds


def _spend(match: LiveMatch) -> None:
    """On a clock, the side acting now pays the time it took beyond the delay out of its
    reserve: what is left to the deadline, if that is less."""
    side = match.table.to_act()
    if match.reserves is None or match.deadline is None or side is None:
        return
    left = max(0.0, match.deadline - time.time())
    match.reserves[str(side)] = min(match.reserves[str(side)], left)


def _lapse(match: LiveMatch, thrown: _Dice) -> None:
    """The deadline passed: a match waiting for its bots ends by ``no_show`` (whoever
    joined wins), the player to act loses on ``time`` (a clock) or by ``timeout``."""
    if match.status == Status.WAITING:
        present = [side for side, seed in match.seeds.items() if seed is not None]
        match.table.no_show(Side(present[0]) if present else None)
        match.status, match.deadline = Status.FINISHED, None
        return
    if match.reserves is None:
        match.table.time_out(thrown)
        return
    side = match.table.to_act()
    if side is not None:
        match.reserves[str(side)] = 0.0
    match.table.time_out(thrown, "time")


# -- the service ------------------------------------------------------------------------


def _check_players(storage: Storage, players: dict[str, str]) -> None:
    """Two different bots, each the name of a live token with scope ``play``."""
    if players["w"] == players["b"]:
        raise InvalidPlayersError(f"{players['w']!r} cannot play against itself")
    bots = {
        token.name
        for token in storage.tokens.all()
        if Scope.PLAY in token.scopes and token.revoked_at is None
    }
    unknown = sorted(name for name in players.values() if name not in bots)
    if unknown:
        raise InvalidPlayersError(f"no bot token (scope play) is named {', '.join(unknown)}")


def create(
    storage: Storage,
    host: Token,
    variant: str,
    length: int,
    options: dict[str, Any],
    players: dict[str, str],
    move_seconds: int = DEFAULT_MOVE_SECONDS,
    mirrored: bool = False,
    dice_of: int | None = None,
    join_seconds: int | None = None,
    clock: tuple[int, int] | None = None,
) -> dict[str, Any]:
    """A new live match waiting for its two bots; the server seed is drawn and committed.
    A match of a mirrored pair (EVENTS.md §7, ``mirrored``) throws its dice without client
    seeds; its twin (``dice_of``: the pair's first match) shares that match's server seed,
    commitment and dice id, so throw k of one is throw k of the other. With
    ``join_seconds`` a bot that has not joined by then loses by ``no_show``; ``clock``
    (reserve, delay) plays on the backgammon clock (EVENTS.md §12). Players' names are
    kept in NFC, as token names are."""
    players = {side: normal_name(name) for side, name in players.items()}
    _check_players(storage, players)
    variant_class = find_variant(variant)
    rules = variant_class.options_with(options)
    table = Table(variant_class.id, length, variant_class.options_json(rules))
    seed = dice.new_server_seed()
    if dice_of is not None:
        first = storage.live.get(dice_of)
        if first is None:
            raise NotFoundError(f"no live match with id {dice_of}")
        seed, mirrored = first.setup.server_seed, True
        dice_of = first.setup.dice_id or first.id
    setup = LiveSetup(
        variant=variant_class.id,
        length=length,
        options=table.options,
        players=(players["w"], players["b"]),
        move_seconds=move_seconds,
        host_token_id=host.id,
        server_seed=seed,
        commitment=dice.commitment(seed),
        dice_id=dice_of,
        mirrored=mirrored,
        join_seconds=join_seconds,
        reserve=None if clock is None else clock[0],
        delay=None if clock is None else clock[1],
    )
    start = LiveProgress(
        status=Status.WAITING,
        ply=0,
        seeds=(None, None),
        deadline=None if join_seconds is None else time.time() + join_seconds,
        state=table_json(table),
        throws=0,
        reserves=None if clock is None else (float(clock[0]), float(clock[0])),
        turn_seconds=join_seconds,
    )
    return state(storage, storage.live.create(setup, start))


def join(
    storage: Storage, live_id: int, bot: Token, seed: str, engine: Engine = CHOSEN
) -> dict[str, Any]:
    """A bot joins with its client seed; play starts (the opening throw) once both have.
    Until then a bot may join again with another seed; afterwards joining changes nothing."""

    def joined(match: LiveMatch, thrown: _Dice) -> bool:
        sides = match.sides_of(bot)
        if not sides:
            raise ForbiddenError(f"{bot.name!r} is not a player of live match {live_id}")
        if _expired(storage, match):  # too late to join: the match ended by no-show
            _lapse(match, thrown)
            return True
        if match.status != Status.WAITING or all(match.seeds[s] == seed for s in sides):
            return False  # a bot that joins again (to resume) changes nothing once play began
        for side in sides:
            match.seeds[side] = seed
        if all(value is not None for value in match.seeds.values()):
            match.table.start_game(thrown)
            match.status = Status.PLAYING
            match.deadline = _deadline(match)
        return True

    _change(storage, live_id, joined, engine)
    sides = _load(storage, live_id).sides_of(bot)
    return {**state(storage, live_id), "you": sorted(sides)}


def act(
    storage: Storage,
    live_id: int,
    bot: Token,
    ply: int,
    action: str,
    details: dict[str, Any],
    engine: Engine = CHOSEN,
) -> dict[str, Any]:
    """A player's action (LIVE.md §4), committed before the new state is returned."""
    if not 0 < live_id < 2**63:
        raise NotFoundError(f"no live match with id {live_id}")
    timed_out = False

    def acted(match: LiveMatch, thrown: _Dice) -> bool:
        nonlocal timed_out
        sides = match.sides_of(bot)
        if not sides:
            raise ForbiddenError(f"{bot.name!r} is not a player of live match {live_id}")
        if _expired(storage, match):  # a deadline missed while the service served is lost
            _lapse(match, thrown)
            timed_out = True
            return True
        if match.status != Status.PLAYING:
            raise NotPlayingError(
                f"live match {live_id} is {match.status}", live_status=match.status
            )
        if ply != match.ply:
            raise StalePlyError(f"the current ply is {match.ply}, not {ply}", ply=match.ply)
        to_act = match.table.to_act()
        if to_act is None or str(to_act) not in sides:
            raise ForbiddenError(f"it is not {bot.name!r}'s turn to act", ply=match.ply)
        _spend(match)  # a refused action raises: nothing of the change is saved
        match.table.apply(to_act, Action(action), thrown, **details)
        match.ply += 1
        match.deadline = _deadline(match)
        return True

    changed = _change(storage, live_id, acted, engine)
    if timed_out:
        raise NotPlayingError(
            f"live match {live_id} is {changed.status}", live_status=changed.status
        )
    return state_json(changed)


def abort(storage: Storage, live_id: int, caller: Token) -> dict[str, Any]:
    """Abort: the host at any time before the end, a bot before its first roll, that is
    while the match waits (once both have joined the opening throw is made at once, and a
    bot that has seen its dice may not throw them away)."""

    def aborted(match: LiveMatch, thrown: _Dice) -> bool:
        host = Scope.LIVE_HOST in caller.scopes and caller.id == match.host_token_id
        sides = match.sides_of(caller) if Scope.PLAY in caller.scopes else set()
        early = bool(sides) and match.status == Status.WAITING
        if not (host or early):
            raise ForbiddenError("only the host, or a bot before the first roll, aborts")
        if match.ended:
            raise NotPlayingError(
                f"live match {live_id} is {match.status}", live_status=match.status
            )
        match.status = Status.ABORTED
        match.deadline = None
        return True

    _change(storage, live_id, aborted)
    return state(storage, live_id)


def current(storage: Storage, live_id: int) -> LiveMatch:
    """The match after applying a missed deadline (LIVE.md §4): lazily, on any read or
    action, and only while the service's clock runs (``CLOCK``): a deadline that passed
    while no instance served is not applied, the next instance gives a fresh full time."""

    def expired(match: LiveMatch, thrown: _Dice) -> bool:
        if not _expired(storage, match):
            return False
        _lapse(match, thrown)
        return True

    return _change(storage, live_id, expired)


def _expired(storage: Storage, match: LiveMatch) -> bool:
    """Whether the match in play (or waiting for its bots) has missed its deadline while
    the service's clock ran (suspended, the gap is mended with a fresh full time:
    ``beat``)."""
    if match.status not in (Status.PLAYING, Status.WAITING) or match.deadline is None:
        return False
    return time.time() > match.deadline and CLOCK.runs(storage)


def state(storage: Storage, live_id: int) -> dict[str, Any]:
    """The state of LIVE.md §3, after applying a missed deadline."""
    return state_json(current(storage, live_id))


def _action_view(action: LiveAction, number: int) -> ActionView:
    return ActionView(
        number=number,
        side=str(action.side),
        action=str(action.kind),
        dice=None if action.dice is None else list(action.dice),
        play=action.play,
        value=action.value,
    )


def game_actions(storage: Storage, match: LiveMatch) -> list[dict[str, Any]]:
    """The current game's actions so far (read from the match's log), each as the state's
    ``last_action`` shows it (the watch page lists them; the stream then adds each new
    ``last_action``)."""
    entries = entries_from_json(storage.live.log(match.id))
    starts = [at for at, entry in enumerate(entries) if isinstance(entry, GameStart)]
    game = entries[starts[-1] + 1 :] if starts else []
    actions = [entry for entry in game if isinstance(entry, LiveAction)]
    return [dump_action(_action_view(action, n)) for n, action in enumerate(actions, start=1)]


def state_json(match: LiveMatch) -> dict[str, Any]:
    table = match.table
    last, number = table.last_action, table.game_actions
    playing = match.status == Status.PLAYING
    expect = [str(action) for action in table.expect()] if playing else []
    to_act = table.to_act() if playing else None
    rolled = table.dice() if "play" in expect else None
    finished = match.status == Status.FINISHED
    return dump_state(
        StateView(
            id=match.id,
            variant=table.variant,
            length=table.length,
            options=table.options,
            players=match.players,
            status=match.status,
            game=max(table.game, 1),
            score=table.score,
            position=table.position,
            ply=match.ply,
            to_act=None if to_act is None else str(to_act),
            expect=expect,
            dice=None if rolled is None else list(rolled),
            legal_plays=table.legal if rolled is not None else None,
            deadline=_iso(match.deadline) if playing else None,
            commitment=match.commitment,
            algorithm=dice.ALGORITHM,
            client_seeds=match.client_seeds,
            server_seed=match.server_seed if match.ended else None,
            games=table.games,
            winner=table.winner if finished else None,
            termination=table.termination if finished else None,
            match_id=match.match_id,
            move_seconds=match.move_seconds,
            joined={side: seed is not None for side, seed in match.seeds.items()},
            created_at=match.created_at,
            last_action=_action_view(last, number) if last is not None and number else None,
            dice_id=match.dice_id,
            join_seconds=match.join_seconds,
            join_deadline=_iso(match.deadline) if match.status == Status.WAITING else None,
            clock=_clock_view(match),
        )
    )


def _clock_view(match: LiveMatch) -> ClockView | None:
    if match.clock is None or match.reserves is None:
        return None
    reserves = {side: round(left, 3) for side, left in match.reserves.items()}
    return ClockView(reserve=match.clock[0], delay=match.clock[1], reserves=reserves)


def _iso(epoch: float | None) -> str | None:
    """A Unix time as the state writes it, to the second (as ``datetime`` rounds it: to
    the microsecond first)."""
    if epoch is None:
        return None
    second = math.floor(epoch)
    if round((epoch - second) * 1e6) >= 1_000_000:
        second += 1
    return _iso_second(second)


@lru_cache(maxsize=16)
def _iso_second(second: int) -> str:
    """One second as the state writes it: made once for all the deadlines that fall in it
    (every action made in the same second sets one)."""
    return datetime.fromtimestamp(second, UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def proof(storage: Storage, live_id: int) -> dict[str, Any]:
    """The dice proof of LIVE.md §5 (the server seed only once the match has ended)."""
    match = current(storage, live_id)
    return dump_proof(
        ProofView(
            id=match.id,
            algorithm=dice.ALGORITHM,
            commitment=match.commitment,
            server_seed=match.server_seed if match.ended else None,
            client_seeds=match.client_seeds,
            throws=storage.live.throws(live_id),
            dice_id=match.dice_id,
        )
    )


def refresh_deadlines(storage: Storage) -> int:
    """At start: the player to act in every match in play gets a fresh full time (and the
    service's clock runs from now)."""
    return storage.live.beat(time.time(), -1.0)


CLOCK_GAP_SECONDS = 10.0
"""A service clock not beaten for this long has stopped: no instance served meanwhile."""
BEAT_SECONDS = 1.0
"""How often a serving process beats the clock."""


class ServiceClock:
    """The service's clock (LIVE.md §4: a restart loses nothing). Every serving process
    beats it (``LiveStore.beat``: at most once a ``BEAT_SECONDS``, from a thread of each
    gunicorn worker and from every deadline check); a deadline is applied only while it
    runs (beaten within ``CLOCK_GAP_SECONDS``), and the first beat after a gap gives the
    player to act in every match in play a fresh full ``move_seconds``, in the same
    transaction. So deadlines are suspended whenever no instance serves: the master
    killed, every worker hung, a disk too full to write (a beat is a write); and in a
    process that met a write refused for want of a writable archive (``unwritable``: a
    full disk, a read-only database, a failover), until it stores again, when its first
    beat gives every match in play a fresh full time (no one loses on time while the
    referee cannot take a move, issue 33).

    ``serving`` says whether this process serves: always, outside gunicorn; in a gunicorn
    worker, while its master lives and it is not stopping (``referee.http.serving``), so an
    orphaned worker neither beats nor applies deadlines."""

    def __init__(self) -> None:
        self.serving: Callable[[], bool] = lambda: True
        self.lock = threading.Lock()
        self.beaten = 0.0
        self.stopped = False
        """An action could not be stored since the last beat (issue 33): the next beat
        gives every match in play a fresh full time."""

    def beat(self, storage: Storage, force: bool = False) -> bool:
        """Beat the clock when this process serves and has not beaten it for a
        ``BEAT_SECONDS``; whether it was beaten (a busy or full archive: not now)."""
        now = time.time()
        with self.lock:
            if not self.serving() or (not force and now - self.beaten < BEAT_SECONDS):
                return False
            self.beaten = now
        if storage.unwritable() is not None:
            self.stopped = True
            return False
        stopped = self.stopped
        try:
            storage.live.beat(now, -1.0 if stopped else CLOCK_GAP_SECONDS)
        except (ArchiveBusyError, StorageUnavailableError, NotReadyError, StorageError):
            return False
        self.stopped = self.stopped and not stopped
        return True

    def runs(self, storage: Storage) -> bool:
        """Whether deadlines may be applied now: this process serves, it stores actions
        (none was refused for want of a writable archive since the last beat, else the
        clock stops, and its next beat gives a fresh full time) and the clock was beaten
        within ``CLOCK_GAP_SECONDS`` (beaten first, where this process may)."""
        if not self.serving():
            return False
        if self.stopped or storage.unwritable() is not None:
            self.beat(storage, force=True)  # the deadlines read before it are stale
            return False
        self.beat(storage)
        served = storage.live.served_at()
        return served is not None and time.time() - served <= CLOCK_GAP_SECONDS


CLOCK = ServiceClock()
