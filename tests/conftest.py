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


ALONE = (
    "tests/multihost/",
    "tests/reliability/test_streams.py",
    "tests/reliability/test_one_client.py",
)
"""Tests that measure the service under load (how many probes it answers, bots at pace,
deadlines of a second across instances): ``make test`` runs them by themselves after the
parallel run (marker ``alone``), so that other tests' work does not pass for theirs."""


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the ``ALONE`` tests; and under pytest-xdist (``make test`` runs ``--dist
    loadgroup``) keep the tests of a module that share a module-scoped fixture (a server, a
    browser, an event played once) on one worker, so that it is made once: every other test
    goes to whichever worker is free."""
    for item in items:
        if item.nodeid.startswith(ALONE):
            item.add_marker(pytest.mark.alone)
        definitions = getattr(item, "_fixtureinfo", None)
        if definitions is None:
            continue
        scopes = {
            fixture.scope
            for fixtures in definitions.name2fixturedefs.values()
            for fixture in fixtures
        }
        if scopes & {"module", "package", "class"}:
            item.add_marker(pytest.mark.xdist_group(item.nodeid.split("::")[0]))
