"""gunicorn's access log with its atoms made only as the line's format asks for them.

gunicorn's ``Logger.access`` makes every atom of every request before it writes a line:
the time formatted, and every request header, response header and environ entry under its
own name, then each of them again with its quotes escaped; the shipped format uses five
(``gunicorn.conf.py``). ``AccessLog`` writes the same line through the same logging
(files, syslog, a ``logconfig``) with atoms that are made when the format names them.
"""

from __future__ import annotations

import traceback
from collections.abc import Callable, Iterator, Mapping
from datetime import timedelta
from typing import Any

from gunicorn import glogging  # type: ignore[import-untyped]


class Atoms(Mapping[str, Any]):
    """The atoms of one request as gunicorn's ``SafeAtoms(Logger.atoms(...))`` gives them:
    an atom it does not know is ``-``, a text has its double quotes escaped; ``{name}i``,
    ``{name}o`` and ``{name}e`` are a request header, a response header and an environ
    entry, named in any case. Iterating (a ``logconfig`` formatter may) makes them all."""

    def __init__(
        self,
        logger: glogging.Logger,
        resp: Any,
        req: Any,
        environ: Mapping[str, Any],
        request_time: timedelta,
    ) -> None:
        self.logger = logger
        self.resp = resp
        self.req = req
        self.environ = environ
        self.request_time = request_time
        self._whole: glogging.SafeAtoms | None = None

    def __getitem__(self, key: str) -> Any:
        made = _MADE.get(key)
        if made is None:
            return self.whole()[key]
        value = made(self)
        return value.replace('"', '\\"') if isinstance(value, str) else value

    def whole(self) -> glogging.SafeAtoms:
        """Every atom, as gunicorn makes them (the escaped texts included)."""
        if self._whole is None:
            atoms = self.logger.atoms(self.resp, self.req, self.environ, self.request_time)
            self._whole = glogging.SafeAtoms(atoms)
        return self._whole

    def __bool__(self) -> bool:
        return True  # logging takes a lone non-empty mapping as the format's arguments

    def __iter__(self) -> Iterator[str]:
        return iter(self.whole())

    def __len__(self) -> int:
        return len(self.whole())

    def __contains__(self, key: object) -> bool:
        return key in self.whole()

    def get(self, key: str, default: Any = None) -> Any:
        return self.whole().get(key, default)


def _request_line(atoms: Atoms) -> str:
    environ = atoms.environ
    return f"{environ['REQUEST_METHOD']} {environ['RAW_URI']} {environ['SERVER_PROTOCOL']}"


def _status(atoms: Atoms) -> Any:
    status = atoms.resp.status
    return status.split(None, 1)[0] if isinstance(status, str) else status


def _sent(atoms: Atoms) -> str:
    sent = getattr(atoms.resp, "sent", None)
    return "-" if sent is None else str(sent)


def _milliseconds(atoms: Atoms) -> int:
    time = atoms.request_time
    return time.seconds * 1000 + int(time.microseconds / 1000)


_MADE: dict[str, Callable[[Atoms], Any]] = {
    "h": lambda atoms: atoms.environ.get("REMOTE_ADDR", "-"),
    "r": _request_line,
    "s": _status,
    "b": _sent,
    "M": _milliseconds,
}
"""The atoms the shipped format uses, each made alone as ``Logger.atoms`` makes it (any
other is taken from all of them)."""


class AccessLog(glogging.Logger):  # type: ignore[misc]
    """gunicorn's logger, its access lines made with ``Atoms``."""

    def access(self, resp: Any, req: Any, environ: Any, request_time: timedelta) -> None:
        if not self.access_log_enabled:
            return
        try:
            atoms = Atoms(self, resp, req, environ, request_time)
            self.access_log.info(self.cfg.access_log_format, atoms)
        except Exception:
            self.error(traceback.format_exc())
