"""A fresh site (app, archive, two hosts and five bots b1..b5) per test, on either backend
(tests/events/support.py): under NARDY_REFEREE_TEST_BACKEND=postgresql each test's
databases are dropped after it."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.api.conftest import dropped_after_the_test  # noqa: F401 (a fixture, autouse)
from tests.events.support import Site, make_site


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    made = make_site(tmp_path)
    yield made
    made.storage.close()
