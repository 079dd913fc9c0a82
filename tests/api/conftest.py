"""The API tests on either backend (``support.archive_at``): under
``NARDY_REFEREE_TEST_BACKEND=postgresql`` the apps built without an archive of their own
use one database for the package, and each test's own databases are dropped after it."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from referee.events.keeper import stop_keepers
from referee.http.serving import stop_clocks
from tests.api.support import BACKEND, archive_at

POSTGRESQL = BACKEND == "postgresql"


@pytest.fixture(autouse=True, scope="package")
def package_archive(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    """``NARDY_REFEREE_DATABASE`` (what ``create_app()`` uses by default) on the backend."""
    if not POSTGRESQL:
        yield
        return
    saved = os.environ.get("NARDY_REFEREE_DATABASE")
    os.environ["NARDY_REFEREE_DATABASE"] = archive_at(Path(tmp_path_factory.mktemp("api")))
    yield
    if saved is None:
        del os.environ["NARDY_REFEREE_DATABASE"]
    else:
        os.environ["NARDY_REFEREE_DATABASE"] = saved


@pytest.fixture(autouse=True)
def dropped_after_the_test() -> Iterator[None]:
    """The databases a test made (those of module fixtures are made before this one's
    set-up) are dropped after it, and every pool closed (an app reopens its own)."""
    if not POSTGRESQL:
        yield
        return
    from tests.storage.postgresql import server

    found = server()
    before = set(found.made) if found is not None else set()
    yield
    stop_keepers()  # none may look at a database being dropped
    stop_clocks()
    if found is not None:
        from referee.storage.postgresql import close_pools

        close_pools()
        for name in set(found.made) - before:
            found.drop(found.url_for(name))
