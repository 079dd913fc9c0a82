"""Where the suite's time goes: a pytest plugin and its report (docs/performance.md).

``pytest -p tests.timeline ...`` writes, for every test a process runs (each xdist worker
its own file), its wall time, its own CPU time and the CPU time of the child processes it
reaped (servers, browsers, gnubg) as JSON lines under ``$TEST_TIMELINE`` (default
``/tmp/nardy-timeline``); ``python -m tests.timeline [DIR] [--by wall|cpu]`` sums them per
module, largest first. Wait-bound modules show much more wall than CPU. ``--tail S`` lists
instead the modules still running in the run's last S seconds, per worker: what to start
sooner.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import time
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path
from typing import IO

import pytest

DEFAULT = Path("/tmp/nardy-timeline")
_out: list[IO[str]] = []


def _file() -> IO[str]:
    if not _out:
        folder = Path(os.environ.get("TEST_TIMELINE", DEFAULT))
        folder.mkdir(parents=True, exist_ok=True)
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        _out.append((folder / f"{worker}-{os.getpid()}.jsonl").open("a"))
    return _out[0]


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[None]:
    """Time one test's set-up, call and tear-down where it runs (a worker, not the
    controller, which only hears of it)."""
    wall, cpu, children = time.monotonic(), time.process_time(), _children_cpu()
    yield
    row = {
        "id": item.nodeid,
        "wall": time.monotonic() - wall,
        "cpu": time.process_time() - cpu,
        "children": _children_cpu() - children,
        "ended": time.time(),
    }
    out = _file()
    out.write(json.dumps(row) + "\n")
    out.flush()


def by_module(folder: Path) -> dict[str, list[float]]:
    """Per test module: [wall, cpu, children's cpu, tests]."""
    sums: dict[str, list[float]] = defaultdict(lambda: [0.0, 0.0, 0.0, 0.0])
    for path in folder.glob("*.jsonl"):
        for line in path.read_text().splitlines():
            row = json.loads(line)
            total = sums[row["id"].split("::")[0]]
            for index, key in enumerate(("wall", "cpu", "children")):
                total[index] += row[key]
            total[3] += 1
    return sums


def tail(folder: Path, seconds: float) -> list[tuple[str, str, float]]:
    """(worker file, module, seconds of its tests that ended in the last ``seconds`` of the
    run), in the order they ended."""
    rows = [
        (path.stem, json.loads(line))
        for path in folder.glob("*.jsonl")
        for line in path.read_text().splitlines()
    ]
    end = max(row["ended"] for _, row in rows)
    late: dict[tuple[str, str], float] = defaultdict(float)
    last: dict[tuple[str, str], float] = {}
    for worker, row in rows:
        if row["ended"] >= end - seconds:
            key = (worker, row["id"].split("::")[0])
            late[key] += row["wall"]
            last[key] = max(last.get(key, 0.0), row["ended"])
    return [(w, m, late[(w, m)]) for w, m in sorted(late, key=lambda key: last[key])]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", nargs="?", type=Path, default=DEFAULT)
    parser.add_argument("--by", choices=("wall", "cpu"), default="wall")
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--tail", type=float, metavar="S")
    options = parser.parse_args()
    if options.tail:
        for worker, module, seconds in tail(options.folder, options.tail):
            print(f"{seconds:8.1f}  {worker:14}  {module}")
        return
    sums = by_module(options.folder)
    order = (lambda s: s[0]) if options.by == "wall" else (lambda s: s[1] + s[2])
    totals = [sum(s[index] for s in sums.values()) for index in range(4)]
    print(f"{'wall s':>8} {'cpu s':>7} {'child s':>8} {'tests':>6}  module")
    largest = sorted(sums.items(), key=lambda item: -order(item[1]))[: options.top]
    for module, (wall, cpu, children, tests) in [("(all)", totals), *largest]:
        print(f"{wall:8.1f} {cpu:7.1f} {children:8.1f} {tests:6.0f}  {module}")


if __name__ == "__main__":
    main()
