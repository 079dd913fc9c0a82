"""The test harness's temporary PostgreSQL clusters are stopped and removed when a run is
stopped by SIGTERM (a time limit) or SIGINT (^C), not only at a normal exit (issue 33)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.storage.postgresql import REQUIRED

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = """
import time
from tests.storage.postgresql import Cluster
cluster = Cluster()
print(cluster.folder, flush=True)
time.sleep(120)
"""


def postmaster_alive(folder: Path) -> bool:
    pid_file = folder / "data" / "postmaster.pid"
    try:
        pid = int(pid_file.read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_run_stopped_by_a_signal_stops_its_clusters(signum: signal.Signals) -> None:
    run = subprocess.Popen(
        [sys.executable, "-c", SCRIPT],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert run.stdout is not None and run.stderr is not None
    line = run.stdout.readline().strip()
    if not line:  # no cluster could start here (no PostgreSQL installed)
        message = f"no temporary PostgreSQL cluster: {run.stderr.read()[-300:]}"
        if REQUIRED:
            pytest.fail(f"REQUIRE_POSTGRESQL=1: {message}")
        pytest.skip(message)
    folder = Path(line)
    assert postmaster_alive(folder)
    pid_file = folder / "data" / "postmaster.pid"
    postmaster = int(pid_file.read_text().split()[0])
    run.send_signal(signum)
    assert run.wait(timeout=60) != 0
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline and Path(f"/proc/{postmaster}").exists():
        time.sleep(0.1)
    assert not Path(f"/proc/{postmaster}").exists(), "the cluster's server still runs"
    assert not folder.exists(), "the cluster's folder was left behind"
