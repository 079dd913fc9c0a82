"""A threaded gunicorn (the shipped config) and one gnubg external player per module."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from referee.players.gnubg import GnubgExternal
from tests.live.harness import Tokens, live_setup
from tests.players.gnubg import external_player
from tests.server import Server


@pytest.fixture(scope="module")
def setup(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Tokens]]:
    with live_setup(tmp_path_factory.mktemp("engines") / "archive.sqlite3") as setup:
        yield setup


@pytest.fixture(scope="module")
def gnubg() -> Iterator[GnubgExternal]:
    with external_player() as engine:
        yield engine
