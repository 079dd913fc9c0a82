"""Players at the table: programs seated in a live match (docs/live.md) through the public
HTTP API, as the reference bot plays (the rules engine, Python or native, is
``referee.rules.engine``; these are opponents).

* ``fibs``: a live state as a FIBS ``board:`` line for the engine's side, and the
  engine's answer as a live action (pure functions);
* ``gnubg``: GNU Backgammon's external player (gnubg listens on HOST:PORT, we connect);
* ``ubgi``: an engine process speaking UBGI on stdin/stdout;
* ``nardy``: a live nardy state as the question a nardy engine reads (the position
  string: UBGI's draft knows backgammon only);
* ``builtin``: the project's own nardy engine (the native core's), in this process;
* ``seat``: the bridge, ``EngineStrategy``, a strategy of the reference bot's loop
  (``referee.live.bot.play_match``) that asks the engine, and ``play_engine_match``.

The bridge holds nothing of one match: the same strategy (and engine connection) can
serve one match after another, as an events loop will.
"""

from __future__ import annotations

from typing import Protocol

from referee.players.builtin import BuiltinEngine, builtin_engine
from referee.players.gnubg import EngineError, GnubgExternal
from referee.players.ubgi import UbgiEngine


class Engine(Protocol):
    """What the bridge needs of an engine: one answer line per question line."""

    name: str

    def ask(self, line: str) -> str: ...

    def close(self) -> None: ...


def open_engine(spec: str) -> GnubgExternal | UbgiEngine | BuiltinEngine:
    """The engine ``spec`` names: ``gnubg:HOST:PORT``, ``ubgi:COMMAND`` or
    ``builtin[:PLIES]`` (not yet connected; ValueError for anything else)."""
    kind, _, rest = spec.partition(":")
    if kind == "builtin":
        return builtin_engine(spec)
    if kind == "gnubg":
        host, _, port = rest.rpartition(":")
        if not host or not port.isdigit() or not 0 < int(port) < 65536:
            raise ValueError(f"expected gnubg:HOST:PORT, got {spec!r}")
        return GnubgExternal(host, int(port))
    if kind == "ubgi":
        if not rest.strip():
            raise ValueError(f"expected ubgi:COMMAND, got {spec!r}")
        return UbgiEngine(rest)
    raise ValueError(
        f"unknown engine {spec!r} (known: gnubg:HOST:PORT, ubgi:COMMAND, builtin[:PLIES])"
    )


__all__ = ["BuiltinEngine", "Engine", "EngineError", "GnubgExternal", "UbgiEngine", "open_engine"]
