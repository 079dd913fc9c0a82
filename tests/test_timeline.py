"""The suite's profiler (tests/timeline.py) records every test it runs, and sums them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from tests.timeline import by_module, tail

ROOT = Path(__file__).resolve().parents[1]

SAMPLE = """
import subprocess, sys, time

def test_waits():
    time.sleep(0.2)

def test_runs_a_child():
    subprocess.run([sys.executable, "-c", "sum(range(3_000_000))"], check=True)
"""


def test_every_test_is_timed_with_its_children(tmp_path: Path) -> None:
    sample = tmp_path / "test_sample.py"
    sample.write_text(SAMPLE)
    folder = tmp_path / "timeline"
    subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "tests.timeline", "-p", "no:cacheprovider",
         str(sample)],
        cwd=ROOT, env={**os.environ, "TEST_TIMELINE": str(folder)}, check=True,
        capture_output=True,
    )  # fmt: skip
    rows = {
        row["id"].split("::")[1]: row
        for path in folder.glob("*.jsonl")
        for row in map(json.loads, path.read_text().splitlines())
    }
    assert set(rows) == {"test_waits", "test_runs_a_child"}
    assert rows["test_waits"]["wall"] >= 0.2 > rows["test_waits"]["cpu"]
    assert rows["test_runs_a_child"]["children"] > 0
    ((wall, _cpu, children, tests),) = by_module(folder).values()
    assert tests == 2 and wall >= 0.2 and children == rows["test_runs_a_child"]["children"]
    ((_worker, module, seconds),) = tail(folder, 0.0)
    assert module.endswith("test_sample.py") and seconds == rows["test_runs_a_child"]["wall"]
    ((_worker, _module, seconds),) = tail(folder, 3600.0)
    assert seconds == rows["test_waits"]["wall"] + rows["test_runs_a_child"]["wall"]
