"""Stand-ins for gnubg: small shell scripts, on their own or in front of Debian's gnubg
(which they start with ``exec`` once they did what a test needs: record their process,
wait, spoil the record gnubg is given, crash once), and whether a process of theirs has
ended."""

from __future__ import annotations

import stat
from pathlib import Path


def program(folder: Path, body: str, name: str = "gnubg") -> str:
    """A stand-in for gnubg: a shell script doing ``body``."""
    path = folder / name
    path.write_text("#!/bin/sh\n" + body + "\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def gone(pid: int) -> bool:
    """Whether process ``pid`` has ended (a zombie not yet reaped by whoever inherited it
    has ended too)."""
    try:
        status = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return True
    return status.rpartition(")")[2].split()[0] == "Z"
