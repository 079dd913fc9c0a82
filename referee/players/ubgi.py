"""An engine process speaking UBGI (Universal Backgammon Interface, public draft 0.01,
Øystein Schønning-Johansen, 2025: github.com/oysteijo/Universal-Backgammon-Interface).

What the draft says and this client relies on: the UI starts the engine and talks over
its stdin/stdout, one line each way; ``ubgi`` first, answered by ``id name|author|version
...`` lines and ``readyok`` (or ``sorry``); then a position as a FIBS rawboard string (or
an XGID), answered by one line: a move (from/to pairs in the mover's numbering, bar 25
or ``bar``, off 0 or ``off``, separated by ``/``, ``-`` or a blank), ``double``, ``roll``,
``take``, ``drop``, or a blank line when there is no legal move; ``quit`` ends the
engine. The draft names no beaver answer and no session options, so the board goes
bare (the Crawford state is in the board's own fields) and a ``beaver`` answer is taken
as gnubg's is (fibs.action_of). The draft says nothing of ``info`` lines; lines starting
``id ``, ``info `` or a stray ``readyok`` before an answer are skipped, as a UCI client would.

One extension, for the nardy games the draft does not know: an engine that answers
``ubgi`` with ``id variants long-nardy khachapuri`` is asked about those variants' matches
with the position string (``referee.players.nardy``); without that line it plays
backgammon only.
"""

from __future__ import annotations

import contextlib
import queue
import shlex
import subprocess
import threading
from dataclasses import dataclass, field

from referee.players.gnubg import ANSWER_SECONDS, EngineError
from vocabulary import VariantId

START_SECONDS = 60.0
_SKIPPED = ("id ", "info ", "readyok")


@dataclass
class UbgiEngine:
    """An engine process started from ``command`` (split as a shell would, not run by one)."""

    command: str
    answer_seconds: float = ANSWER_SECONDS
    identity: dict[str, str] = field(default_factory=dict)
    _process: subprocess.Popen[str] | None = field(default=None, init=False, repr=False)
    _lines: queue.Queue[str | None] = field(default_factory=queue.Queue, init=False, repr=False)
    _lock: threading.Lock = field(default_factory=threading.Lock, init=False, repr=False)

    name = "ubgi"

    def connect(self) -> None:
        """Start the engine and wait for its ``readyok``."""
        try:
            self._process = subprocess.Popen(
                shlex.split(self.command),
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                bufsize=1,
            )
        except OSError as error:
            raise EngineError(f"cannot start the UBGI engine {self.command!r}: {error}") from None
        threading.Thread(target=self._read, daemon=True).start()
        self._send("ubgi")
        while True:
            line = self._next(START_SECONDS)
            if line == "readyok":
                return
            if line == "sorry":
                raise EngineError(f"the UBGI engine {self.command!r} could not start (sorry)")
            if line.startswith("id "):
                key, _, value = line[3:].partition(" ")
                self.identity[key] = value.strip()

    @property
    def variants(self) -> frozenset[str]:
        """The variants the engine plays (its ``id variants`` line; started to ask)."""
        with self._lock:
            if self._process is None:
                self.connect()
        return frozenset(self.identity.get("variants", VariantId.BACKGAMMON).split())

    def ask(self, line: str) -> str:
        """The engine's answer to one position line."""
        with self._lock:
            if self._process is None:
                self.connect()
            self._send(line)
            while True:
                answer = self._next(self.answer_seconds)
                if not answer.startswith(_SKIPPED):
                    return answer

    def _send(self, line: str) -> None:
        assert self._process is not None and self._process.stdin is not None
        try:
            self._process.stdin.write(line + "\n")
            self._process.stdin.flush()
        except OSError as error:
            raise EngineError(f"the UBGI engine stopped reading: {error}") from None

    def _read(self) -> None:
        assert self._process is not None and self._process.stdout is not None
        for line in self._process.stdout:
            self._lines.put(line.rstrip("\r\n"))
        self._lines.put(None)

    def _next(self, seconds: float) -> str:
        try:
            line = self._lines.get(timeout=seconds)
        except queue.Empty:
            raise EngineError(f"the UBGI engine did not answer within {seconds:g} s") from None
        if line is None:
            raise EngineError("the UBGI engine closed its output")
        return line

    def close(self) -> None:
        """``quit``, then end the process if it does not end by itself."""
        with self._lock:
            process, self._process = self._process, None
            if process is None:
                return
            with contextlib.suppress(OSError):
                assert process.stdin is not None
                process.stdin.write("quit\n")
                process.stdin.close()
            try:
                process.wait(timeout=5)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
