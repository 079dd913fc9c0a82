"""The access log writes the lines gunicorn's own logger writes, whatever the format names
(its atoms are only made when asked for); the shipped server uses it."""

from __future__ import annotations

import datetime
from pathlib import Path
from typing import Any

import pytest
from gunicorn import glogging
from gunicorn.config import Config

from referee.http.access_log import AccessLog, Atoms
from tests.server import start, stop, write_token

SHIPPED = '%(h)s "%(r)s" %(s)s %(b)s %(M)sms'
FORMATS = [
    SHIPPED,
    '%(h)s %(l)s %(u)s %(t)s "%(r)s" %(s)s %(b)s "%(f)s" "%(a)s"',
    "%(m)s %(U)s %(q)s %(H)s %(B)s %(T)s %(D)s %(L)s %(p)s %(x)s %(H)s",
    "%({user-agent}i)s %({User-Agent}i)s %({content-type}o)s %({X-Missing}i)s",
    "%({raw_uri}e)s %({REMOTE_ADDR}e)s %({nothing}e)s %(M)s",
]


class Response:
    def __init__(self, status: Any, sent: int | None) -> None:
        self.status = status
        self.sent = sent
        self.headers = [("Content-Type", 'application/json; x="y"'), ("Content-Length", "12")]


class Request:
    def __init__(self) -> None:
        self.headers = [("USER-AGENT", 'bot "one"'), ("AUTHORIZATION", "Basic Ym90OnNlY3JldA==")]


def environ(uri: str) -> dict[str, Any]:
    return {
        "REQUEST_METHOD": "POST",
        "RAW_URI": uri,
        "PATH_INFO": uri.split("?")[0],
        "QUERY_STRING": uri.partition("?")[2],
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "10.0.0.7",
        "HTTP_USER_AGENT": 'bot "one"',
        "HTTP_REFERER": "http://example.org/",
    }


def config(log: Path, fmt: str) -> Config:
    cfg = Config()
    cfg.set("accesslog", str(log))
    cfg.set("access_log_format", fmt)
    return cfg


CASES = [
    (Response("200 OK", 1234), '/v1/live/3/actions?x="q"', datetime.timedelta(0, 2, 345678)),
    (Response("404 NOT FOUND", None), "/missing", datetime.timedelta(microseconds=999)),
    (Response(500, 0), "/", datetime.timedelta(0)),
]


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize(("resp", "uri", "took"), CASES)
def test_a_line_is_what_gunicorn_writes(
    fmt: str, resp: Response, uri: str, took: datetime.timedelta, tmp_path: Path
) -> None:
    cfg = config(tmp_path / "access.log", fmt.replace("%(t)s", ""))  # the clock moves on
    gunicorn = glogging.Logger(cfg)
    theirs = cfg.access_log_format % glogging.SafeAtoms(
        gunicorn.atoms(resp, Request(), environ(uri), took)
    )
    ours = AccessLog(cfg)
    assert cfg.access_log_format % Atoms(ours, resp, Request(), environ(uri), took) == theirs


def test_the_atoms_read_as_gunicorns_whole() -> None:
    cfg = Config()
    logger = AccessLog(cfg)
    took = datetime.timedelta(0, 1, 5000)
    atoms = Atoms(logger, Response("201 CREATED", 9), Request(), environ("/a"), took)
    whole = glogging.SafeAtoms(
        logger.atoms(Response("201 CREATED", 9), Request(), environ("/a"), took)
    )
    whole.pop("t"), atoms.whole().pop("t")
    assert dict(atoms) == dict(whole)
    assert "{user-agent}i" in atoms and "nothing" not in atoms
    assert atoms.get("nothing", "default") == "default"


def test_the_written_lines_are_gunicorns(tmp_path: Path) -> None:
    lines = {}
    for name, logger_class in (("theirs", glogging.Logger), ("ours", AccessLog)):
        log = tmp_path / f"{name}.log"
        logger = logger_class(config(log, SHIPPED))
        for resp, uri, took in CASES:
            logger.access(resp, Request(), environ(uri), took)
        logger.access_log.handlers[0].flush()
        lines[name] = log.read_text()
    assert lines["ours"] == lines["theirs"] and lines["ours"].count("\n") == len(CASES)
    assert '"POST /v1/live/3/actions?x=\\"q\\" HTTP/1.1" 200 1234 2345ms' in lines["ours"]


def test_the_server_logs_each_request_line(tmp_path: Path) -> None:
    database = tmp_path / "archive.sqlite3"
    write_token(database)
    server = start(database, workers=1)
    try:
        assert server.request("GET", "/healthz?from=test")[0] == 200
        assert server.request("GET", "/v1/nothing-here")[0] == 404
    finally:
        stop(server)
    written = server.log.read_text()
    assert '127.0.0.1 "GET /healthz?from=test HTTP/1.1" 200 ' in written
    assert '"GET /v1/nothing-here HTTP/1.1" 404 ' in written
