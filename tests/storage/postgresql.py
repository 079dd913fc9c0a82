"""A PostgreSQL server for the tests, and a fresh database on it for each test.

``NARDY_REFEREE_TEST_POSTGRESQL`` names a server (a ``postgresql://`` URL whose user may
create databases; ``.ci/run`` starts one); without it the first test that asks starts a
temporary cluster of Debian's PostgreSQL (``initdb``, run as the ``postgres`` user when the
tests run as root), listening on a Unix socket in a private folder only, stopped and
removed when the tests end, or when they are stopped by SIGTERM or SIGINT (a time limit, a
^C: ``stop_on_signals``). Every database made is dropped at the end too. Without a server
(no PostgreSQL installed) ``server()`` is None and ``UNAVAILABLE`` says why: the
PostgreSQL tests skip, or fail under ``REQUIRE_POSTGRESQL=1``.
"""

from __future__ import annotations

import atexit
import contextlib
import glob
import itertools
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import threading
from pathlib import Path
from urllib.parse import quote, urlsplit, urlunsplit

import psycopg
import pytest

from referee.storage import open_storage
from referee.storage.postgresql import close_pools

ENVIRONMENT = "NARDY_REFEREE_TEST_POSTGRESQL"
REQUIRED = os.environ.get("REQUIRE_POSTGRESQL") == "1"


class Server:
    """A PostgreSQL server the tests may make databases on."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.made: list[str] = []
        self.numbers = itertools.count(1)
        self.lock = threading.Lock()
        self.template: str | None = None
        self.template_lock = threading.Lock()

    def url_for(self, database: str) -> str:
        """The server's URL with another database."""
        parts = urlsplit(self.url)
        return urlunsplit(parts._replace(path="/" + quote(database)))

    def fresh(self, template: str | None = None) -> str:
        """The URL of a new database: empty, or a copy of the database ``template``."""
        with self.lock:
            name = f"nardy_test_{os.getpid()}_{next(self.numbers)}"
            self.made.append(name)
        copied = f' TEMPLATE "{template}"' if template else ""
        with psycopg.connect(self.url, autocommit=True) as admin:
            admin.execute(f'CREATE DATABASE "{name}"{copied}')
        return self.url_for(name)

    def archive(self) -> str:
        """The URL of a new database holding an empty archive: a copy of one migrated once
        per process (an app's archive; the storage tests migrate their own ``fresh`` ones).
        A copy costs PostgreSQL half of what the migrations do."""
        with self.template_lock:
            if self.template is None:
                url = self.fresh()
                open_storage(url).close()
                close_pools(url)  # a template is copied only while no one is connected
                self.template = self.name(url)
                with self.lock:
                    self.made.remove(self.template)  # dropped last, not after a test
        return self.fresh(self.template)

    @staticmethod
    def name(url: str) -> str:
        """The database a URL names."""
        return urlsplit(url).path.lstrip("/")

    def drop(self, url: str) -> None:
        """Drop a database made by ``fresh`` (its pool closed first)."""
        close_pools(url)
        name = self.name(url)
        with psycopg.connect(self.url, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        with self.lock:
            if name in self.made:
                self.made.remove(name)

    def drop_all(self) -> None:
        close_pools()
        for name in [*self.made, *([self.template] if self.template else [])]:
            self.drop(self.url_for(name))


_running: list[Cluster] = []
"""The temporary clusters started and not stopped yet."""
_previous: dict[int, object] = {}
"""The handlers ``stop_on_signals`` replaced, by signal."""
_handling_pid: list[int] = []
"""The process that installed them (a forked child leaves its parent's clusters alone)."""


def _stop_running(signum: int, frame: object) -> None:
    """SIGTERM or SIGINT: every temporary cluster is stopped, then the signal does what it
    did before (SIGINT: KeyboardInterrupt; SIGTERM: the process ends by it)."""
    if os.getpid() in _handling_pid:
        for cluster in list(_running):
            with contextlib.suppress(OSError, subprocess.SubprocessError):
                cluster.stop()
    previous = _previous.get(signum)
    if callable(previous):
        previous(signum, frame)
        return
    signal.signal(signum, signal.SIG_DFL)
    os.kill(os.getpid(), signum)


def stop_on_signals() -> None:
    """Stop the temporary clusters on SIGTERM and SIGINT too (atexit runs on neither a
    SIGTERM nor a second ^C); installed once, from the main thread."""
    if _handling_pid or threading.current_thread() is not threading.main_thread():
        return
    _handling_pid.append(os.getpid())
    for signum in (signal.SIGTERM, signal.SIGINT):
        _previous[signum] = signal.signal(signum, _stop_running)


class Cluster:
    """A temporary cluster: its own folder, socket and server process."""

    def __init__(self) -> None:
        stop_on_signals()
        binaries = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"))
        if not binaries:
            raise OSError("PostgreSQL is not installed (no /usr/lib/postgresql/*/bin/initdb)")
        self.bin = Path(binaries[-1]).parent
        self.folder = Path(tempfile.mkdtemp(prefix="nardy-pg-"))
        self.user: str | None = None
        if os.geteuid() == 0:  # the server refuses to run as root
            self.user = "postgres"
            user = pwd.getpwnam(self.user)
            os.chown(self.folder, user.pw_uid, user.pw_gid)
        data = self.folder / "data"
        self._run("initdb", "-D", str(data), "-A", "trust", "-U", "postgres", "--no-sync")
        options = (
            f"-k {self.folder} -c listen_addresses='' -c fsync=off -c synchronous_commit=off"
            " -c full_page_writes=off -c max_connections=300"
        )
        log = str(self.folder / "log")
        self._run("pg_ctl", "-D", str(data), "-l", log, "-w", "-o", options, "start")
        self.data = data
        self.url = f"postgresql://postgres@/postgres?host={quote(str(self.folder))}&port=5432"
        _running.append(self)

    def _run(self, program: str, *arguments: str) -> None:
        command = [str(self.bin / program), *arguments]
        if self.user is not None:
            command = ["runuser", "-u", self.user, "--", *command]
        subprocess.run(command, check=True, capture_output=True, timeout=120)

    def stop(self) -> None:
        if self in _running:
            _running.remove(self)
        try:
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.folder, ignore_errors=True)


_server: Server | None = None
UNAVAILABLE: str | None = None
_lock = threading.Lock()


def server() -> Server | None:
    """The tests' server, started on first use (None when there can be none: UNAVAILABLE
    says why)."""
    global _server, UNAVAILABLE
    with _lock:
        if _server is not None or UNAVAILABLE is not None:
            return _server
        given = os.environ.get(ENVIRONMENT)
        try:
            if given:
                _server = Server(given)
            else:
                cluster = Cluster()
                atexit.register(cluster.stop)
                _server = Server(cluster.url)
            psycopg.connect(_server.url, connect_timeout=10).close()
        except (OSError, subprocess.SubprocessError, psycopg.Error) as error:
            _server = None
            UNAVAILABLE = f"no PostgreSQL server for the tests: {error}"
            return None
        atexit.register(_server.drop_all)  # registered last, so run before the cluster stops
        return _server


def required_server() -> Server:
    """The tests' server, or the test skips (fails under REQUIRE_POSTGRESQL=1) saying why."""
    found = server()
    if found is None:
        if REQUIRED:
            pytest.fail(f"REQUIRE_POSTGRESQL=1: {UNAVAILABLE}")
        pytest.skip(str(UNAVAILABLE))
    return found
