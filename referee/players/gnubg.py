"""GNU Backgammon's external player, over TCP.

How gnubg's ``external`` command works (read in gnubg's ``external.c`` and its command
grammar ``external_y.y`` / ``external_l.l``): the user starts gnubg and types
``external HOST:PORT``; gnubg **listens** there, accepts one controller, and answers one
line for each line the controller sends, until the controller sends ``exit`` or closes
(then gnubg listens again). A line is a FIBS ``board:`` string followed by session
options (``crawfordrule on|off``, ``jacobyrule on|off``, ``beavers on|off``,
``resignation N``); gnubg answers, from the board's own point of view:

* dice on the board: the best move, as ``24/18 13/11`` (25 the bar, 0 off, ``*`` a hit),
  or an empty line when there is none;
* no dice, not doubled: ``double`` or ``roll``;
* "was doubled": ``take``, ``drop`` or ``beaver``;
* ``resignation N`` given: ``accept`` or ``reject``.

Also ``version`` (``Interface: 2``), ``set debug on|off`` (the parsed board and gnubg's
reading of it, each line prefixed ``DBG:``, before the answer) and ``help``. A line gnubg
cannot parse is answered ``Error: ...``.
"""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from dataclasses import dataclass, field

CONNECT_SECONDS = 10.0
ANSWER_SECONDS = 120.0


class EngineError(RuntimeError):
    """The engine cannot be reached, or stopped answering."""


@dataclass
class GnubgExternal:
    """A connection to gnubg's external player at ``host:port``; one question at a time
    (a lock makes it safe to share between threads, as an events loop would)."""

    host: str
    port: int
    connect_seconds: float = CONNECT_SECONDS
    _socket: socket.socket | None = field(default=None, init=False, repr=False)
    _buffer: bytes = field(default=b"", init=False, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)

    name = "gnubg"

    def connect(self) -> None:
        """Connect, retrying until gnubg listens or ``connect_seconds`` have passed."""
        deadline = time.monotonic() + self.connect_seconds
        while True:
            try:
                self._socket = socket.create_connection((self.host, self.port), timeout=5)
                self._socket.settimeout(ANSWER_SECONDS)
                return
            except OSError as error:
                if time.monotonic() >= deadline:
                    raise EngineError(
                        f"gnubg's external player is not listening at {self.host}:{self.port}"
                        f" ({error}); start gnubg -t and type: external {self.host}:{self.port}"
                    ) from None
                time.sleep(0.1)

    def ask(self, line: str) -> str:
        """gnubg's answer to one line (``DBG:`` lines skipped)."""
        with self._lock:
            if self._socket is None:
                self.connect()
            assert self._socket is not None
            try:
                self._socket.sendall(line.encode() + b"\n")
                while True:
                    answer = self._read_line()
                    if not answer.startswith("DBG:"):
                        return answer
            except OSError as error:
                raise EngineError(f"gnubg's external player: {error}") from None

    def debug(self, line: str) -> list[str]:
        """gnubg's ``DBG:`` lines and answer for one board line, with debug output on."""
        with self._lock:
            if self._socket is None:
                self.connect()
            assert self._socket is not None
            self._socket.sendall(b"set debug on\n")
            self._read_line()
            self._socket.sendall(line.encode() + b"\n")
            lines = []
            while True:
                answer = self._read_line()
                lines.append(answer)
                if not answer.startswith("DBG:"):
                    break
            self._socket.sendall(b"set debug off\n")
            self._read_line()
            return lines

    def _read_line(self) -> str:
        assert self._socket is not None
        while b"\n" not in self._buffer:
            chunk = self._socket.recv(65536)
            if not chunk:
                raise EngineError("gnubg closed the external connection")
            self._buffer += chunk
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode(errors="replace").rstrip("\r")

    def close(self) -> None:
        """Say ``exit`` (gnubg then listens for the next controller) and close."""
        with self._lock:
            if self._socket is not None:
                with contextlib.suppress(OSError):
                    self._socket.sendall(b"exit\n")
                self._socket.close()
                self._socket = None
