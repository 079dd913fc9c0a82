"""What the tests of analyses as jobs share: an archive on the tests' backend (SQLite, or
PostgreSQL under ``NARDY_REFEREE_TEST_BACKEND=postgresql``) with records stored and
analyses queued as the API queues them, and workers started as programs
(``nardy-referee analyse --worker``) whose lines say what each made."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from referee.analysis import Settings
from referee.archive.analyses import queue_analysis
from referee.archive.submit import submit
from referee.storage import open_storage, prepare_storage
from referee.storage.model.analyses import StoredAnalysis
from referee.storage.stores import Storage
from tests.api.support import archive_at
from tests.server import ROOT

ZERO = Settings(0, 0)


@dataclass
class Archive:
    location: str
    storage: Storage

    def store(self, text: str) -> int:
        return submit(self.storage, text, {}, False, None).stored.id

    def queue(self, match_id: int, settings: Settings = ZERO) -> int:
        return queue_analysis(self.storage, match_id, settings, None).analysis.id

    def get(self, analysis_id: int) -> StoredAnalysis:
        found = self.storage.analyses.get(analysis_id)
        assert found is not None
        return found


@pytest.fixture
def archive(tmp_path: Path) -> Iterator[Archive]:
    location = archive_at(tmp_path)
    prepare_storage(location)
    storage = open_storage(location)
    yield Archive(location, storage)
    storage.close()


def start_worker(
    location: str, program: str, *options: str, log: Path | None = None
) -> subprocess.Popen[str]:
    """``nardy-referee analyse --worker --json`` over ``location`` with gnubg at
    ``program``, a line of JSON on stdout for each analysis made (stderr to ``log``)."""
    command = [sys.executable, "-m", "referee.cli", "analyse", "--worker", "--json",
               "--database", location, "--gnubg", program, *options]  # fmt: skip
    errors = subprocess.DEVNULL if log is None else log.open("a")
    return subprocess.Popen(
        command, cwd=ROOT, env=dict(os.environ), stdout=subprocess.PIPE, stderr=errors, text=True
    )


def lines_of(worker: subprocess.Popen[str], timeout: float = 120) -> list[dict[str, Any]]:
    """What a worker said it made, once it has ended (within ``timeout`` seconds)."""
    out, _ = worker.communicate(timeout=timeout)
    return [json.loads(line) for line in out.splitlines() if line.strip()]
