"""Test-wide set-up: every app the tests create uses a throwaway archive file."""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

# Rate limits would throttle the suite (one client, many requests): tests of the limits
# set them in the app's config. Set before test modules import (some build apps then).
os.environ.setdefault("NARDY_REFEREE_RATE_LIMITS", "off")


@pytest.fixture(autouse=True, scope="session")
def throwaway_database(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """Point ``NARDY_REFEREE_DATABASE`` at a temporary file, never at ./var."""
    saved = os.environ.get("NARDY_REFEREE_DATABASE")
    os.environ["NARDY_REFEREE_DATABASE"] = str(tmp_path_factory.mktemp("db") / "referee.sqlite3")
    yield
    if saved is None:
        del os.environ["NARDY_REFEREE_DATABASE"]
    else:
        os.environ["NARDY_REFEREE_DATABASE"] = saved
