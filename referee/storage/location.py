"""Where the archive is when nothing says: ``$NARDY_REFEREE_DATABASE``, else one file per
user (``$XDG_DATA_HOME/nardy-referee/referee.sqlite3``, by default under
``~/.local/share``), never the current folder, so that the server and every command run
from anywhere find the same archive."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

ENVIRONMENT = "NARDY_REFEREE_DATABASE"
FILE = Path("nardy-referee") / "referee.sqlite3"


def user_archive(environ: Mapping[str, str] = os.environ) -> Path:
    """The user's own archive file: under ``$XDG_DATA_HOME`` when it is an absolute path
    (the XDG base directory rule ignores a relative one), else under ``~/.local/share``."""
    data = environ.get("XDG_DATA_HOME", "")
    if not Path(data).is_absolute():
        home = environ.get("HOME") or str(Path.home())
        data = str(Path(home) / ".local" / "share")
    return Path(data) / FILE


def archive_location(environ: Mapping[str, str] = os.environ) -> str:
    """``$NARDY_REFEREE_DATABASE`` when set (a path or a PostgreSQL URL), else
    ``user_archive``."""
    return environ.get(ENVIRONMENT) or str(user_archive(environ))
