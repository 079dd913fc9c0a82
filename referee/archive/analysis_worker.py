"""A worker that makes the queued analyses (ANALYSIS.md §4), on any host that reaches the
archive: it claims the oldest waiting analysis under a lease, has its gnubg (one kept
running between analyses) make it (the record checked and written again, gnubg's time
the one queued with it), renews its lease
from a thread of its own while gnubg works, and stores the analysis or why it failed,
if it still holds it. A worker killed meanwhile holds nothing once its lease runs out:
the next worker takes the analysis again (at most ``MOST_ATTEMPTS`` times). gnubg
missing fails the analysis in hand and stops the worker (it would fail every other). A
nardy match is judged by the project's own engine in the worker's process instead."""

from __future__ import annotations

import logging
import os
import secrets
import socket
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field

from referee.adjudication.budget import OFFLINE
from referee.analysis import (
    EngineMissingError,
    Settings,
    analyse_nardy,
    is_nardy,
    prepare,
    read_back,
)
from referee.analysis.errors import EngineFailedError
from referee.analysis.gnubg import Gnubg
from referee.archive.stored import known_variant
from referee.errors import ArchiveBusyError, RefereeError, StorageUnavailableError
from referee.rules.engine import CHOSEN, Engine
from referee.storage import Location, open_storage
from referee.storage.errors import StorageError
from referee.storage.model.analyses import ClaimedAnalysis, Failed, Finished
from referee.storage.stores import Storage

log = logging.getLogger(__name__)

LEASE_SECONDS = 30.0
"""How long a worker holds an analysis without renewing it; it renews every third of it."""
POLL_SECONDS = 2.0
"""How often an idle worker looks for an analysis to make."""
MOST_ATTEMPTS = 3
"""Takings of one analysis (its workers dying each time) before it is given up."""
GIVEN_UP = Failed(
    {
        "code": EngineFailedError.code,
        "title": EngineFailedError.title,
        "detail": f"the workers analysing it stopped {MOST_ATTEMPTS} times without a result"
        " (killed, or gnubg took the machine down): it was given up",
    }
)
PASSING = (ArchiveBusyError, StorageUnavailableError, StorageError)
"""What the archive answers on a bad moment: the worker tries again at its next look."""


def new_owner() -> str:
    """A worker's name in the archive: its host, its process, and a token of its own."""
    return f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"


@dataclass(frozen=True, slots=True)
class Made:
    """What a worker did with one analysis: how it ended, whether that was stored (False:
    another worker had taken it meanwhile), and how long it took (seconds)."""

    claimed: ClaimedAnalysis
    outcome: Finished | Failed
    stored: bool
    seconds: float


@dataclass(slots=True)
class Worker:
    """One worker: one gnubg at a time, over the archive at ``location``; ``run`` keeps its
    gnubg running while analyses wait."""

    location: Location
    program: str
    lease_seconds: float = LEASE_SECONDS
    owner: str = field(default_factory=new_owner)
    engine: Engine = CHOSEN
    gnubg: Gnubg = field(init=False)

    def __post_init__(self) -> None:
        self.gnubg = Gnubg(self.program)

    def make_next(self, storage: Storage) -> Made | None:
        """Claim the oldest waiting analysis and make it (None: none waits). A stop while
        gnubg works (KeyboardInterrupt) gives the analysis back to the queue."""
        if not storage.analyses.claimable(time.time()):
            return None
        claimed = storage.analyses.claim(
            self.owner, time.time(), self.lease_seconds, GIVEN_UP, MOST_ATTEMPTS
        )
        if claimed is None:
            return None
        began = time.monotonic()
        try:
            with self._renewing(claimed):
                outcome = made(storage, claimed, self.gnubg, self.engine)
        except EngineMissingError as missing:
            storage.analyses.finish(claimed.id, self.owner, failed(missing))
            raise
        except BaseException:
            with suppress(*PASSING):
                storage.analyses.release(claimed.id, self.owner)
            raise
        stored = storage.analyses.finish(claimed.id, self.owner, outcome)
        return Made(claimed, outcome, stored, time.monotonic() - began)

    @contextmanager
    def _renewing(self, claimed: ClaimedAnalysis) -> Iterator[None]:
        """Renew the lease on ``claimed`` every third of it while the block runs, from a
        thread with a connection of its own (a bad moment of the archive is tried again
        at the next renewal; the lease has two more thirds)."""
        stopping = threading.Event()

        def renew() -> None:
            storage = open_storage(self.location)
            try:
                while not stopping.wait(self.lease_seconds / 3):
                    with suppress(*PASSING):
                        storage.analyses.renew(
                            claimed.id, self.owner, time.time(), self.lease_seconds
                        )
            finally:
                storage.close()

        thread = threading.Thread(target=renew, name=f"lease-{claimed.id}", daemon=True)
        thread.start()
        try:
            yield
        finally:
            stopping.set()
            thread.join()

    def run(
        self,
        stop: threading.Event,
        said: Callable[[Made], None] = lambda made: None,
        until_idle: bool = False,
        poll_seconds: float = POLL_SECONDS,
    ) -> int:
        """Make analyses until ``stop`` is set (or, ``until_idle``, until none waits),
        telling ``said`` of each; how many were made. gnubg missing stops it
        (EngineMissingError)."""
        count = 0
        storage = open_storage(self.location)
        try:
            while not stop.is_set():
                try:
                    done = self.make_next(storage)
                except PASSING as error:
                    log.warning("analysis worker %s: %s", self.owner, error)
                    stop.wait(poll_seconds)
                    continue
                if done is None:
                    self.gnubg.close()  # kept while analyses wait, not while none does
                    if until_idle:
                        break
                    stop.wait(poll_seconds)
                    continue
                count += 1
                said(done)
        finally:
            self.gnubg.close()
            storage.close()
        return count


def made(
    storage: Storage, claimed: ClaimedAnalysis, gnubg: Gnubg, engine: Engine = CHOSEN
) -> Finished | Failed:
    """The analysis of the claimed match, or why there is none: the record checked and
    written again (as when it was queued), analysed by ``gnubg`` in the time queued with it, its
    output read back; a nardy match judged by the project's own engine in this process.
    An error reading gnubg's output fails this analysis only."""
    stored = storage.matches.get(claimed.match_id)
    if stored is None:
        return Failed({"code": "not_found", "title": "Not Found", "detail": "no such match"})
    settings = Settings(claimed.chequer_plies, claimed.cube_plies)
    variant = known_variant(stored)
    record, options = stored.original, stored.options
    try:
        if is_nardy(record, variant, OFFLINE):  # the project's own engine, in this process
            analysis = analyse_nardy(
                record, settings, variant=variant, options=options, limits=OFFLINE, engine=engine
            )
        else:
            prepared = prepare(
                record, variant=variant, options=options, limits=OFFLINE, engine=engine
            )
            games = len(prepared.games)
            output = gnubg.analyse(prepared.sgf, settings, games, claimed.seconds)
            analysis = read_back(output, prepared, settings)
    except EngineMissingError:
        raise
    except RefereeError as error:
        return failed(error)
    except Exception as error:  # gnubg printed what cannot be read: this analysis fails
        log.exception("analysis %s: gnubg's output could not be read", claimed.id)
        return failed(EngineFailedError(f"gnubg's output could not be read: {error}"))
    players = analysis.players
    return Finished(analysis.to_json(), analysis.engine.version, (players.w.pr, players.b.pr))


def failed(error: RefereeError) -> Failed:
    return Failed({"code": error.code, "title": error.title, "detail": error.message})


WORKERS_VARIABLE = "NARDY_REFEREE_ANALYSIS_WORKERS"


def server_workers(environ: dict[str, str] | None = None) -> int:
    """How many analysis workers each server process runs (``NARDY_REFEREE_ANALYSIS_WORKERS``,
    default 0: none); ValueError for anything but a whole number from 0 to 64."""
    text = (os.environ if environ is None else environ).get(WORKERS_VARIABLE, "0").strip()
    if not text.isdigit() or int(text) > 64:
        raise ValueError(f"{WORKERS_VARIABLE} must be a whole number from 0 to 64, not {text!r}")
    return int(text)


def start_server_workers(
    location: Location, count: int, serving: Callable[[], bool]
) -> list[threading.Thread]:
    """``count`` workers in threads of this process, each making analyses while the
    process serves; none (a warning logged) when gnubg is not installed here: the
    analyses wait for a worker elsewhere."""
    from referee.analysis.gnubg import find_gnubg

    if count == 0:
        return []
    try:
        program = find_gnubg()
    except EngineMissingError as missing:
        log.warning("no analysis worker in process %s: %s", os.getpid(), missing.message)
        return []
    stop = threading.Event()

    def work() -> None:
        worker = Worker(location, program)
        try:
            while serving() and not stop.is_set():
                worker.run(stop, until_idle=True)
                stop.wait(POLL_SECONDS)
        except EngineMissingError as missing:
            log.error("analysis worker %s stopped: %s", worker.owner, missing.message)

    threads = [
        threading.Thread(target=work, name=f"analysis-{number}", daemon=True)
        for number in range(count)
    ]
    for thread in threads:
        thread.start()
    return threads
