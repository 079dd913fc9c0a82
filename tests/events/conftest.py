"""A fresh site (app, archive, tokens) per test (tests/events/support.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.events.support import Site, make_site


@pytest.fixture
def site(tmp_path: Path) -> Iterator[Site]:
    made = make_site(tmp_path)
    yield made
    made.storage.close()
