"""One threaded gunicorn per test module, with the tokens of a host and three bots."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.live.harness import Tokens, live_setup
from tests.server import Server


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Tokens]]:
    with live_setup(tmp_path_factory.mktemp("live") / "archive.sqlite3") as setup:
        yield setup
