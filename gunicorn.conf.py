"""gunicorn settings for ``make serve`` and the tests (override with GUNICORN_CMD_ARGS).

The worker model is ``gthread`` (docs/operations.md, "Workers"): a request holds a thread,
an idle connection holds none, so idle or slow clients cannot take every worker. Live
streams hold a thread each and are admitted under hard limits that keep a quarter of the
threads for ordinary requests (``referee/http/streams.py``).
"""

import os

bind = os.environ.get("NARDY_REFEREE_BIND", "127.0.0.1:8000")
worker_class = "gthread"
workers = int(os.environ.get("NARDY_REFEREE_WORKERS", "2"))
# One thread per request in flight; a live NDJSON stream holds one for its whole life. The
# streams a worker admits are its threads less a quarter (at least 8), kept for ordinary
# requests; checking is bounded by its own budget (referee/adjudication/budget.py).
threads = int(os.environ.get("NARDY_REFEREE_THREADS", "128"))
# Connections open at once per worker (idle keep-alive ones included; they hold no thread).
worker_connections = 1000
# gthread workers beat their heartbeat from the main thread, busy threads or not: this only
# kills a worker that is stuck, not a long request (those end at the work budget's deadline).
timeout = 60
# An idle connection (kept alive, or opened with nothing sent) is closed after this long.
keepalive = 5
graceful_timeout = 30
# The longest request line gunicorn reads (its maximum; 0, unlimited, would let one client
# make a worker buffer any length of line): every query parameter at its documented maximum
# length, whatever its characters, fits (referee/http/queries.py); a longer URL is refused by
# gunicorn with 414, as problem+json like its other refusals (post_worker_init below).
limit_request_line = 8190
# Build the app (and migrate the archive) once in the master, before the workers fork.
preload_app = True
# A new master binds at once even while workers of a killed one linger (they die with it
# anyway, post_fork below): a supervisor's restart never waits for the port. A server that
# answers on the address already is refused (on_starting below): it would share the port.
reuse_port = True
# The workers' heartbeat files in memory, not on the archive's disk: a full disk must not
# keep a worker from starting (docs/operations.md, "A full disk").
worker_tmp_dir = "/dev/shm" if os.path.isdir("/dev/shm") else None
# gunicornc's control socket: off unless a path is given (one path per instance).
control_socket = os.environ.get("NARDY_REFEREE_CONTROL_SOCKET", "")
control_socket_disable = not control_socket
accesslog = "-"
# The access log records the request line only: never headers, so never a bearer token.
access_log_format = '%(h)s "%(r)s" %(s)s %(b)s %(M)sms'
# gunicorn's logger, its access lines' atoms made only as the format names them (the same
# lines; referee/http/access_log.py). With --statsd-host, name gunicorn's statsd logger
# instead (--logger-class gunicorn.instrument.statsd.Statsd): this setting keeps gunicorn
# from choosing it by itself.
logger_class = "referee.http.access_log.AccessLog"


def on_starting(server: object) -> None:
    """Refuse to start where another server already answers: ``reuse_port`` would let both
    bind and share the requests (referee/http/address_guard.py). Not when the address is
    handed over on purpose: a new master of a USR2 upgrade, systemd's socket."""
    from referee.http.address_guard import refuse_taken

    handed = os.environ.get("LISTEN_PID") == str(os.getpid()) and os.environ.get("LISTEN_FDS")
    if server.master_pid or handed:  # type: ignore[attr-defined]
        return
    refuse_taken(server.cfg.address)  # type: ignore[attr-defined]


def when_ready(server: object) -> None:
    """Say where the server listens and which archive it serves: with ``reuse_port`` the
    workers bind, not the master, so gunicorn's own "Listening at" line names no address."""
    from referee.storage import backend_of

    cfg = server.cfg  # type: ignore[attr-defined]
    for address in cfg.address:
        where = f"unix:{address}" if isinstance(address, str) else _url(*address)
        server.log.info("Listening at: %s (each worker binds it)", where)  # type: ignore[attr-defined]
    database = str(server.app.wsgi().config["DATABASE"])  # type: ignore[attr-defined]
    shown = database if backend_of(database) == "sqlite" else "PostgreSQL ($NARDY_REFEREE_DATABASE)"
    server.log.info("The archive: %s", shown)  # type: ignore[attr-defined]


def _url(host: str, port: int) -> str:
    return f"http://[{host}]:{port}" if ":" in host else f"http://{host}:{port}"


def post_fork(server: object, worker: object) -> None:
    """A worker dies with its master (the kernel kills it), so no orphan outlives a
    ``kill -9`` of the master holding streams or applying deadlines."""
    from referee.http.serving import die_with_parent

    die_with_parent(worker.ppid)  # type: ignore[attr-defined]


def post_worker_init(worker: object) -> None:
    """gunicorn's own error answers (414, 431, 400 for what it cannot read) as problem+json;
    the worker serves while its master lives, beats the live clock and sizes its streams."""
    from referee.http.gunicorn_errors import answer_problems
    from referee.http.serving import worker_started

    answer_problems()
    worker_started(worker)
