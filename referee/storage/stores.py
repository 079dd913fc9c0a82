"""The interface of storage: one store each for matches, kept derived results, live
matches, tokens, bulk re-checks, the tables as rows (for copying an archive),
events, ratings and challenges, and ``Storage``, the handle that holds them.

Every method answers values of ``referee.storage.model``, and every write is one short
transaction of its own; a driver's error never leaves a method (``ArchiveBusyError`` when
a retry may help, ``StorageError`` otherwise). What spans stores is one method of one
store, never a transaction a caller holds: a finished live match is saved with its record
by ``LiveStore.save``.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import AbstractContextManager
from dataclasses import dataclass
from typing import Protocol

from referee.storage.model import Json
from referee.storage.model.analyses import (
    ClaimedAnalysis,
    Failed,
    Finished,
    MatchAnalysis,
    NewAnalysis,
    Queued,
    StoredAnalysis,
)
from referee.storage.model.challenges import (
    Answer,
    ChallengeNews,
    NewChallenge,
    Policy,
    StoredChallenge,
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
    StoredEvent,
)
from referee.storage.model.feed import Topic
from referee.storage.model.live import (
    LiveChange,
    LiveProgress,
    LiveSetup,
    LiveVersion,
    StoredLive,
    Throw,
)
from referee.storage.model.matches import (
    MatchQuery,
    MatchSummary,
    NewMatch,
    Rechecked,
    Stored,
    StoredMatch,
    Withdrawal,
)
from referee.storage.model.ratings import (
    KeptRatings,
    LedgerEntry,
    RatedMatch,
    RatingStep,
    RatingUpdate,
)
from referee.storage.model.rechecks import RecheckBatch, RecheckProgress, RecheckRun
from referee.storage.model.tokens import IssuedToken, Token


class MatchStore(Protocol):
    """Stored matches: deduplicated by the SHA-256 of their canonical record."""

    def store(self, match: NewMatch) -> Stored:
        """Store the match, or find the one stored with the same ``sha256``."""

    def get(self, match_id: int) -> StoredMatch | None:
        """Everything stored of one match (None: no such match)."""

    def search(self, query: MatchQuery) -> list[MatchSummary]:
        """One page (``query.page_size``) of the matching summaries, newest first, after
        the cursor ``query.after_id``."""

    def iterate(self, query: MatchQuery) -> Iterator[MatchSummary]:
        """Every summary the query selects, a page at a time."""

    def games_of(self, match_id: int) -> int | None:
        """How many games a stored match has (None: no such match), without its text."""

    def older_than(self, revision: int | None, page: int = 100) -> Iterator[StoredMatch]:
        """Every match whose verdict predates rules ``revision`` (every match when None),
        by ascending id, ``page`` at a time."""

    def update_verdict(self, rechecked: Rechecked) -> None:
        """Store a re-computed verdict; the original and canonical text stay as they are."""

    def withdraw(self, withdrawal: Withdrawal) -> bool:
        """Withdraw a match from searches (its row is kept, for audit); False when it was
        withdrawn already; MatchRestingError, in the same transaction as the withdrawal
        (so no result comes to rest on it meanwhile), while an event's result rests on it."""

    def withdrawal(self, match_id: int) -> Withdrawal | None:
        """Who withdrew a match, when and why (None: it is not withdrawn)."""


class DerivedStore(Protocol):
    """Results computed from a stored match (replays, re-checks), kept by key and rules
    revision."""

    def kept(self, match_id: int, key: str, revision: int) -> Json | None:
        """The result kept under ``key`` for rules ``revision`` (None: not kept)."""

    def keep(self, match_id: int, revision: int, results: Mapping[str, Json]) -> None:
        """Keep results by key, replacing what was kept under those keys before."""

    def forget(self, match_id: int, prefix: str, keep: int) -> None:
        """Of the results whose key starts ``prefix``, keep the ``keep`` kept last."""

    def claim(self, match_id: int, key: str, owner: str, now: float, seconds: float) -> bool:
        """Claim the computation of ``key`` for ``owner`` until ``now + seconds`` (Unix
        times): True when it is ``owner``'s now (nobody held it, or the holder's claim
        ran out, or ``owner`` holds it already), False while another holds it. Claims span
        every process and instance on the storage, so a result is computed once however
        many ask at the same time."""

    def release(self, match_id: int, key: str, owner: str) -> None:
        """Give up ``owner``'s claim on ``key`` (nothing when it is not ``owner``'s)."""


class LiveStore(Protocol):
    """Live matches, their throws and their logs. Every change checks the version it
    read, so of two changes made from one reading only the first is saved; a change
    appends a row to the match's log (its ply, its record entries and the compact state
    after it) instead of rewriting what came before, so its work does not grow with the
    match."""

    def create(self, setup: LiveSetup, progress: LiveProgress) -> int:
        """Store a new live match at version 0; its id."""

    def get(self, live_id: int) -> StoredLive | None:
        """One live match (None: no such match)."""

    def get_encoded(self, live_id: int) -> tuple[StoredLive, str] | None:
        """One live match as ``get`` reads it but its last state left as the JSON text
        stored, not decoded (``progress.state`` None): a reader that keeps what it decoded
        finds it by that text (None: no such match)."""

    def versions(self, live_ids: Sequence[int]) -> dict[int, LiveVersion]:
        """The version and deadline of each of these live matches that exists."""

    def throws(self, live_id: int) -> list[Throw]:
        """Every throw of the match's dice so far, in order."""

    def log(self, live_id: int) -> list[Json]:
        """Every entry of the match's log so far, in order (what its record says)."""

    def save(self, change: LiveChange) -> int | None:
        """Save a change of a match (its version goes up by one) in one transaction: its
        new throws, its log row (entries and state) when its table changed, and its
        record; ``LiveConflictError`` when another change came since ``change.version``
        was read. The stored record's id (a duplicate's too), None without a record."""

    def refresh_deadlines(self, now: float) -> int:
        """After a restart: the player to act in every match in play gets a fresh full
        time from ``now`` (a Unix time; its ``turn_seconds``, else ``move_seconds``), and
        every match waiting for its bots with a join deadline its full join time; how many
        matches."""

    def beat(self, now: float, gap: float) -> int:
        """Beat the service's clock at ``now`` (a Unix time), in one transaction: when it
        was last beaten more than ``gap`` seconds before (or never), no instance served
        meanwhile and every match in play first gets a fresh full time from ``now``, its
        version bumped (as ``refresh_deadlines``); how many matches got one. A negative
        ``gap`` always refreshes (a start)."""

    def served_at(self) -> float | None:
        """When the service's clock was last beaten (None: never)."""


class TokenStore(Protocol):
    """API tokens, kept as hashes of their secrets with their scopes."""

    def create(self, scopes: tuple[str, ...], name: str | None = None) -> IssuedToken:
        """A new token and its secret, which is shown once and never stored."""

    def all(self) -> list[Token]:
        """Every token, revoked ones too, by id."""

    def revoke(self, token_id: int) -> bool:
        """Revoke a live token; False when there is no live token with this id."""

    def holder(self, secret: str) -> Token | None:
        """The live token with this secret (None when unknown or revoked)."""


class EventConflictError(Exception):
    """The event changed since it was read (``EventStore.save``): read it again."""


class MatchRestingError(Exception):
    """A withdrawal refused (``MatchStore.withdraw``): an event's finished result rests on
    the match, at ``seat`` (event, round, table); nothing was written."""

    def __init__(self, seat: tuple[int, int, int]) -> None:
        super().__init__(seat)
        self.seat = seat


class EventStore(Protocol):
    """Events (EVENTS.md): their setup, entrants and seeds, every round's pairings and
    byes, and the announcements of their live matches to the bots. Every change checks
    the version it read, as live matches do; a change that records results adds their
    rated matches to the ratings' ledger in the same transaction."""

    def create(self, setup: EventSetup) -> int:
        """Store a new event (open, round 0, version 0); its id."""

    def get(self, event_id: int) -> StoredEvent | None:
        """One event with every round so far (None: no such event)."""

    def search(self, query: EventQuery) -> list[EventSummary]:
        """One page of events, newest first, after the cursor ``query.after_id``."""

    def running(self) -> list[int]:
        """The ids of the running events."""

    def in_play(self, event_id: int) -> EventInPlay | None:
        """What a worker watches of a running event (None: it is not running)."""

    def save(self, change: EventChange) -> None:
        """Save a change (the version goes up by one) in one transaction: the event's
        status, round, seeds and lease, its new or changed pairings (and an announcement
        for each live match a pairing gains), its new byes and the ledger's new rated
        matches (and takes voided ones out), its withdrawals and its ledger's new
        corrections; ``EventConflictError`` when another change came since
        ``change.version`` was read."""

    def announced(self, name: str, after_seq: int = 0) -> list[EventLive]:
        """The live matches of undecided pairings in which ``name`` plays, announced
        after ``after_seq``, in the order they were announced."""

    def announced_since(self, after_seq: int) -> list[EventLive]:
        """The live matches of every undecided pairing announced after ``after_seq``, in
        the order they were announced (``announced`` for all names at once: the bot
        streams' hub reads a change once, whatever the number of streams)."""

    def last_announcement(self) -> int:
        """The ``seq`` of the last announcement (0: none yet)."""

    def versions(self, event_ids: Sequence[int]) -> dict[int, int]:
        """The versions of those of ``event_ids`` that exist (the change feed's counters)."""

    def seat(self, live_id: int) -> EventSeat | None:
        """The event, round and table of an announced live match (None: no event's)."""

    def ledger(self, event_id: int) -> list[Correction]:
        """Every correction of the event (EVENTS.md §11), in the order made."""


class RatingStore(Protocol):
    """Ratings (EVENTS.md §8): the ledger of rated matches (written by
    ``EventStore.save``), and per variant the ratings computed from it with each name's
    history, kept up to the ledger entry they were computed through."""

    def ledger(self, variant: str, after_seq: int = 0) -> list[LedgerEntry]:
        """The variant's rated matches added after ``after_seq``, in the order added."""

    def ledger_stored_since(self, variant: str, since: str) -> list[tuple[LedgerEntry, str]]:
        """The variant's rated matches whose records were stored at ``since`` or later
        (ISO 8601, UTC, as stored), each with that time, in the order added."""

    def variants(self) -> list[str]:
        """The variants with rated matches, by name."""

    def kept(self, variant: str) -> KeptRatings:
        """The ratings kept for a variant (through ledger entry 0 when none)."""

    def keep(self, update: RatingUpdate) -> bool:
        """Keep ratings computed from the ledger, if the kept ones are still those they
        started from (``update.from_seq``); whether they were kept."""

    def history(self, variant: str, name: str) -> list[RatingStep]:
        """A name's kept rating steps in a variant, in archive order."""

    def replace_ledger(self, matches: Sequence[RatedMatch]) -> None:
        """The ledger made anew from ``matches`` (re-rating), every kept rating forgotten."""


class RecheckStore(Protocol):
    """Bulk re-checks as pulled jobs: processes on any hosts join one run over the archive,
    each claims a batch nobody holds, and the run's progress is stored, so that a run
    killed part way resumes where it stopped and no match is re-checked twice in it."""

    def start(self, revision: int | None, batch_size: int = 100) -> RecheckRun:
        """Join the unfinished run over the matches older than rules ``revision`` (every
        match: None), or begin one: the matches it covers now, ``batch_size`` a batch."""

    def claim(self, run_id: int) -> AbstractContextManager[RecheckBatch | None]:
        """Hold a batch of the run that no other process holds and that is not done, while
        the block runs (None when none is left); it is done when the block ends without
        error. A process killed while it holds one lets it go to the next claimant, with
        the matches it re-checked already left out."""

    def done(self, run_id: int, rechecked: Rechecked, changed: bool) -> None:
        """Store a re-checked verdict (``MatchStore.update_verdict``) and count the match
        done in the run (``changed``: its outcome changed), in one transaction."""

    def progress(self, run_id: int) -> RecheckProgress:
        """How far the run is."""


class ChallengeStore(Protocol):
    """Challenges between bots (EVENTS.md §14), the news the bot streams owe about them
    (read by ``seq``, as the events' announcements), the bots' policies, and the bot
    streams open now. An answer is saved only while the challenge is open and has not
    lapsed, so of two answers at once only the first counts."""

    def create(self, challenge: NewChallenge) -> int:
        """Store an open challenge and (``told``) the news of it for the opponent's
        stream; its id."""

    def get(self, challenge_id: int) -> StoredChallenge | None:
        """One challenge, as stored (None: no such challenge)."""

    def answer(self, answer: Answer) -> bool:
        """Accept or decline an open challenge that has not lapsed at ``answer.now``, in
        one transaction with the news of its live match for both bots' streams; False
        (nothing written) when it was answered or had lapsed."""

    def lapse(self, now: float) -> int:
        """Every open challenge whose time ran out by ``now`` lapses; how many."""

    def open_count(self, token_id: int, now: float) -> int:
        """How many challenges made through a token are open and have not lapsed."""

    def rated_between(self, first: str, second: str, since: float) -> int:
        """How many rated challenges between two names (either way) were accepted at
        ``since`` or later."""

    def news(self, name: str, after_seq: int = 0) -> list[ChallengeNews]:
        """The news for ``name``'s bot stream after ``after_seq``, in order."""

    def news_since(self, after_seq: int) -> list[ChallengeNews]:
        """The news for every bot stream after ``after_seq``, in order (``news`` for all
        names at once)."""

    def last_news(self) -> int:
        """The ``seq`` of the last news (0: none yet)."""

    def policy(self, name: str) -> Policy | None:
        """A bot's policy (None: it answers its challenges itself)."""

    def set_policy(self, name: str, policy: Policy | None) -> None:
        """Keep a bot's policy (None: forget it)."""

    def seen(self, stream: str, name: str, now: float) -> None:
        """A bot stream (by a key of its own) of ``name`` is open at ``now``."""

    def left(self, stream: str) -> None:
        """A bot stream closed."""

    def online(self, since: float) -> list[str]:
        """The names with a bot stream seen open at ``since`` or later, by name."""

    def finished_rated(self, unrated_only: bool = True) -> list[tuple[StoredChallenge, int]]:
        """The accepted rated challenges whose live match finished, each with its stored
        match's id, by that id; ``unrated_only``: those not in the ratings' ledger yet."""

    def rate(self, matches: Sequence[RatedMatch]) -> None:
        """Add challenges' finished matches to the ratings' ledger (one there already
        stays as it is)."""

    def in_play(self, name: str) -> int:
        """How many live matches ``name`` plays that have not ended."""


class AnalysisQueueFullError(Exception):
    """An analysis refused (``AnalysisStore.queue``): the token has ``waiting`` analyses
    queued or running already, as many as it may; nothing was written."""

    def __init__(self, waiting: int) -> None:
        super().__init__(waiting)
        self.waiting = waiting


class AnalysisStore(Protocol):
    """Analyses as jobs (ANALYSIS.md §4): one per match and plies, queued, claimed by
    workers on any hosts under a lease the holder renews, and stored once, by whoever
    holds it when it ends: a worker that died lets its lease run out, and the next
    claimant takes the analysis again."""

    def queue(self, new: NewAnalysis, most_waiting: int | None = None) -> Queued:
        """Queue an analysis of the match at the plies, or find the one there (a failed
        one is queued again, its problem forgotten); AnalysisQueueFullError when the
        token has ``most_waiting`` analyses queued or running already (None: no bound)."""

    def get(self, analysis_id: int) -> StoredAnalysis | None:
        """One analysis (None: no such analysis)."""

    def of_match(self, match_id: int) -> list[StoredAnalysis]:
        """The match's analyses, newest first."""

    def claimable(self, now: float) -> bool:
        """Whether an analysis waits to be claimed at ``now`` (a Unix time): queued, or
        running under a lease that ran out."""

    def claim(
        self, owner: str, now: float, lease_seconds: float, given_up: Failed, most_attempts: int
    ) -> ClaimedAnalysis | None:
        """Take the oldest claimable analysis for ``owner`` until ``now + lease_seconds``
        (None: none waits); one taken ``most_attempts`` times already (its workers died)
        fails with ``given_up`` instead, and the next is looked at."""

    def renew(self, analysis_id: int, owner: str, now: float, lease_seconds: float) -> bool:
        """Hold the analysis until ``now + lease_seconds``; False when ``owner`` no longer
        holds it (its lease ran out and another took it)."""

    def finish(self, analysis_id: int, owner: str, outcome: Finished | Failed) -> bool:
        """Store how the analysis ended, in one transaction, if ``owner`` still holds it
        (else nothing is written: False)."""

    def release(self, analysis_id: int, owner: str) -> bool:
        """Give a held analysis back to the queue (a worker stopping), this taking of it
        not counted; False when ``owner`` no longer holds it."""

    def of_matches(
        self, match_ids: Sequence[int], chequer_plies: int, cube_plies: int
    ) -> list[MatchAnalysis]:
        """The analyses at the plies of those of ``match_ids`` that have one, in brief
        (their status and, once done, each side's PR), by match id."""


TableRow = tuple[object, ...]
"""A row of one of the archive's tables in the columns ``referee.storage.tables`` names."""


class TableStore(Protocol):
    """Every row of the archive's tables as plain values, the same on every backend: what
    ``nardy-referee copy-archive`` moves from one backend to another."""

    def counts(self) -> dict[str, int]:
        """The rows of each table of ``tables.TABLES``."""

    def rows(self, table: str) -> Iterator[TableRow]:
        """Every row of ``table``, in its order (``tables.TABLES``)."""

    def load(self, rows: Callable[[str], Iterable[TableRow]]) -> None:
        """Insert ``rows(table)`` into each table of an empty archive, in the order of
        ``tables.TABLES`` and keeping every id, in one transaction."""


class ChangeFeed(Protocol):
    """How a process learns that storage changed, whoever changed it (another worker, an
    instance on another host): every change moves a counter up, named by a ``Topic`` and a
    key (a live match's version, by its id), and the feed wakes those waiting on it. One
    feed per process and storage, shared by all its ``Storage``s; a waiter holds no
    connection. SQLite's polls the counters being waited on (``sqlite/feed.py``);
    PostgreSQL's listens on one connection of its own to the ``NOTIFY`` each change sends
    in its transaction, carrying the topic, the key and the counter only
    (``postgresql/feed.py``). Either way the waiter reads the rows afterwards, itself.

    What a caller does: read (a live match, say), then ``wait`` with the counter it read;
    on True read again (nothing may have moved: wait again), on False it was quiet."""

    def wait(self, topic: Topic, key: int, seen: int, timeout: float) -> bool:
        """Whether the counter of ``key`` moved from ``seen`` within ``timeout`` seconds.
        True too whenever the feed may have missed a change since the caller's thread last
        asked (it has just started, or lost storage and found it again): the caller reads
        again. False: nothing moved in ``timeout``."""

    def wait_any(self, topic: Topic, seen: Mapping[int, int], timeout: float) -> bool:
        """``wait`` on several counters of ``topic`` at once (``seen``: the value read of
        each key): whether any moved within ``timeout`` seconds (or the feed may have
        missed a change)."""


class Connection(Protocol):
    """What a backend's connection answers for beyond its stores."""

    def ready(self) -> None:
        """Read from storage: ``ArchiveBusyError`` when it cannot be read now,
        ``NotReadyError`` when it cannot be read at all."""

    def unwritable(self) -> str | None:
        """Why this process's last write was refused for want of a writable archive (a
        full disk, read-only, its server failing over), while it remembers; else None."""

    def close(self) -> None:
        """Give the connection back; the stores are not used afterwards."""


@dataclass(frozen=True, slots=True)
class Storage:
    """The stores of one connection: one per request, per stream, per command.

    A new store is a Protocol here, a field below, and one class that implements it on
    every backend (``NAME.py`` beside this module, over ``sql.Database`` and
    ``sql.Dialect``, made in ``assembly.py``), its values in ``model/NAME.py``, its
    tables in each backend's migrations and in ``tables.TABLES``
    (so that ``copy-archive`` moves them), and its contract tests in ``tests/storage``,
    which run on every backend."""

    matches: MatchStore
    derived: DerivedStore
    live: LiveStore
    tokens: TokenStore
    rechecks: RecheckStore
    tables: TableStore
    connection: Connection
    events: EventStore
    ratings: RatingStore
    feed: ChangeFeed
    challenges: ChallengeStore
    analyses: AnalysisStore

    def ready(self) -> None:
        """Read from storage; raises when it cannot be read (``Connection.ready``)."""
        self.connection.ready()

    def unwritable(self) -> str | None:
        """Why writes are refused now, as far as this process knows (``Connection``)."""
        return self.connection.unwritable()

    def close(self) -> None:
        """Give the connection back; the stores are not used afterwards."""
        self.connection.close()


@dataclass(frozen=True, slots=True, eq=False)
class Waiter:
    """One waiter of a change feed: the counter it waits on, the value it saw."""

    topic: Topic
    key: int
    seen: int
    event: threading.Event

    def wait(self, timeout: float) -> bool:
        return self.event.wait(max(timeout, 0.0))


class FeedWaiters:
    """The waiting side of a change feed, the same on every backend: who waits on which
    counter, and from which value; woken by what the backend learns (``moved``) or all at
    once (``wake_all``: the feed cannot tell what it missed)."""

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.waiting: dict[tuple[Topic, int], list[Waiter]] = {}

    def enter(
        self, topic: Topic, key: int, seen: int, event: threading.Event | None = None
    ) -> Waiter:
        """Wait from now on the counter of ``key`` (``Waiter.wait``, then ``leave``); with
        ``event``, one that other waiters share (``enter_all``)."""
        waiter = Waiter(topic, key, seen, event or threading.Event())
        with self.lock:
            self.waiting.setdefault((topic, key), []).append(waiter)
        return waiter

    def enter_all(self, topic: Topic, seen: Mapping[int, int]) -> list[Waiter]:
        """Wait from now on each counter of ``seen`` (key: the value read), all sharing
        one event: whichever moves wakes the first's ``wait`` (then ``leave_all``)."""
        event = threading.Event()
        return [self.enter(topic, key, value, event) for key, value in seen.items()]

    def leave_all(self, waiters: list[Waiter]) -> None:
        for waiter in waiters:
            self.leave(waiter)

    def leave(self, waiter: Waiter) -> None:
        with self.lock:
            entries = self.waiting[(waiter.topic, waiter.key)]
            entries.remove(waiter)
            if not entries:
                del self.waiting[(waiter.topic, waiter.key)]

    def wait(self, topic: Topic, key: int, seen: int, timeout: float) -> bool:
        """Sleep until ``moved`` gives the counter of ``key`` another value than ``seen``,
        or ``wake_all`` (True), or ``timeout`` passes (False)."""
        waiter = self.enter(topic, key, seen)
        try:
            return waiter.wait(timeout)
        finally:
            self.leave(waiter)

    def keys(self) -> dict[Topic, list[int]]:
        """The keys waited on now, by topic."""
        found: dict[Topic, list[int]] = {}
        with self.lock:
            for topic, key in self.waiting:
                found.setdefault(topic, []).append(key)
        return found

    def moved(self, topic: Topic, key: int, counter: int) -> None:
        """The counter of ``key`` is ``counter`` now: wake those who saw another value."""
        with self.lock:
            for waiter in self.waiting.get((topic, key), ()):
                if waiter.seen != counter:
                    waiter.event.set()

    def wake_all(self) -> None:
        """Wake every waiter: each reads again."""
        with self.lock:
            for entries in self.waiting.values():
                for waiter in entries:
                    waiter.event.set()

    def __len__(self) -> int:
        with self.lock:
            return len(self.waiting)
