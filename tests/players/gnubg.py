"""Test-only helpers: find Debian's gnubg, start it as an external player, run it in batch.

gnubg is GPL and is used only as a separate program. Without it these tests skip with
the reason; under REQUIRE_GNUBG=1 (CI) they fail instead (``make gnubg`` installs it).
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from referee.players.gnubg import GnubgExternal
from tests.server import free_port


def gnubg_path() -> str | None:
    """gnubg's executable (Debian installs it in /usr/games, often not on PATH)."""
    found = shutil.which("gnubg")
    if found:
        return found
    games = Path("/usr/games/gnubg")
    return str(games) if games.exists() else None


def require_gnubg() -> str:
    """gnubg's path, or a visible skip (a failure under REQUIRE_GNUBG=1)."""
    path = gnubg_path()
    if path is not None:
        return path
    message = "gnubg not found (make gnubg installs Debian's package)"
    if os.environ.get("REQUIRE_GNUBG") == "1":
        pytest.fail(message + " (REQUIRE_GNUBG=1)")
    pytest.skip(message)


@contextmanager
def external_player() -> Iterator[GnubgExternal]:
    """gnubg -t listening as an external player on a free loopback port, connected."""
    process = subprocess.Popen(
        [require_gnubg(), "-t", "-q"],
        stdin=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    port = free_port()
    assert process.stdin is not None
    # gnubg plays as its evaluation settings say, 2-ply unless told: at 0-ply it speaks the
    # same protocol for a fraction of the processor time (tests/players/test_gnubg_live.py:
    # 35 s at 2-ply, 9 s at 0-ply)
    for setting in ("chequerplay", "cubedecision"):
        process.stdin.write(f"set evaluation {setting} evaluation plies 0\n")
    process.stdin.write(f"external 127.0.0.1:{port}\n")
    process.stdin.flush()
    engine = GnubgExternal("127.0.0.1", port, connect_seconds=30)
    try:
        engine.connect()
        yield engine
    finally:
        engine.close()
        process.kill()
        process.wait()


def run_batch(commands: list[str], cwd: Path, timeout: float = 300) -> str:
    """gnubg -t running ``commands`` (one a line) in ``cwd``; what it printed."""
    script = cwd / "commands.txt"
    script.write_text("\n".join(commands) + "\n")
    done = subprocess.run(
        [require_gnubg(), "-t", "-q", "-c", str(script)],
        cwd=cwd,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    return done.stdout + done.stderr
