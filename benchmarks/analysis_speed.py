"""Analysis speed: matches analysed per minute at 0-ply and at 2-ply.

``steps``: the referee's path (``referee.analysis.analyse`` in its three steps:
``prepare``, checking the record and its SGF export; ``run_gnubg``, one gnubg process with
the per-game statistics and the figures script; ``read_back``) beside gnubg run by hand on
the same files (one ``gnubg -t -q`` process a file: ``import mat``, ``analyse match``,
``show statistics match``), one analysis at a time. The two are interleaved file by file,
``--rounds`` times, and each file's best time of each is kept (a shared machine's other
work only ever adds time), as wall time and as processor time (this process's and
gnubg's: what a busy machine disturbs least). The overhead is the referee's time over
gnubg's.

``jobs``: the same files through the job system, as a server queues and workers make
them: stored in a new SQLite archive, queued (``queue_analysis``: the record checked and
written for gnubg), made by one or two worker processes (``nardy-referee analyse
--worker --until-idle``: claim, gnubg, store), from the first queueing to the last
worker's exit; beside gnubg by hand on the same files, one or two processes at a time
(a process a file), and beside gnubg by hand with one process for all of a worker's
share of the files (a worker keeps its gnubg running between analyses: this is gnubg's
own time without its start for each file). The three alternate run by run (``--rounds``
each), every run is reported, and the overhead is the job system's time over gnubg's by
hand, as wall time and as processor time (the queueing process's, the workers' and every
gnubg's: what a busy machine disturbs least); and again without the workers' start-up
(the same workers started and stopped on an empty queue: a deployment starts its
workers once).

0-ply runs the 44 corpus records; 2-ply the ``--two-ply`` shortest ones of 20 actions or
more (a long match takes minutes at 2-ply), once each in ``steps``.

    python benchmarks/analysis_speed.py [--part steps|jobs|all] [--rounds 3] [--two-ply 4]
                                        [--workers 1,2]
"""

from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from referee.analysis import Settings, prepare, read_back
from referee.analysis.gnubg import find_gnubg, run_gnubg
from referee.archive.analyses import queue_analysis
from referee.archive.submit import submit
from referee.storage import open_storage, prepare_storage
from tests.corpus import MAT

ROOT = Path(__file__).resolve().parents[1]


@dataclass
class Spent:
    """Seconds of one run: wall time, and processor time of this process and of its
    children (gnubg, and the job system's workers with their gnubgs)."""

    wall: float = 0.0
    own: float = 0.0
    gnubg: float = 0.0

    @property
    def processor(self) -> float:
        return self.own + self.gnubg


@contextmanager
def spending(spent: Spent) -> Iterator[None]:
    """Add the time spent in the block to ``spent``."""
    wall, own, children = time.perf_counter(), time.process_time(), _children()
    yield
    spent.wall += time.perf_counter() - wall
    spent.own += time.process_time() - own
    spent.gnubg += _children() - children


def _children() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def by_hand(program: str, path: Path, plies: int) -> None:
    """gnubg as a player runs it on one file."""
    in_one(program, [path], plies)


def in_one(program: str, paths: list[Path], plies: int) -> None:
    """gnubg as a player runs it on each of ``paths`` in turn, in one process."""
    commands = [
        f"set analysis chequerplay evaluation plies {plies}",
        f"set analysis cubedecision evaluation plies {plies}",
    ]
    for path in paths:
        commands += [f'import mat "{path}"', "analyse match", "show statistics match"]
    subprocess.run(
        [program, "-t", "-q"],
        input="\n".join(commands) + "\n",
        capture_output=True,
        text=True,
        check=True,
    )


def referee(program: str, text: str, settings: Settings) -> tuple[Spent, Spent, Spent]:
    """``analyse``'s three steps, each timed: before gnubg, gnubg, after."""
    steps = Spent(), Spent(), Spent()
    with spending(steps[0]):
        prepared = prepare(text)
    with spending(steps[1]):
        output = run_gnubg(prepared.sgf, settings, len(prepared.games), program, 3600)
    with spending(steps[2]):
        read_back(output, prepared, settings)
    return steps


def measure(program: str, files: list[Path], plies: int, rounds: int) -> None:
    """Both ways over ``files``, interleaved file by file, each file's best of ``rounds``
    kept (wall and processor time each)."""
    settings = Settings(plies, plies)
    ours: dict[Path, list[tuple[Spent, Spent, Spent]]] = {path: [] for path in files}
    hand: dict[Path, list[Spent]] = {path: [] for path in files}
    for _ in range(rounds):
        for path in files:
            ours[path].append(referee(program, path.read_text(), settings))
            hand[path].append(Spent())
            with spending(hand[path][-1]):
                by_hand(program, path, plies)
    print(f"{plies}-ply, {len(files)} files, each file's best of {rounds}:")
    for what in ("wall", "processor"):
        mine = [
            min(runs, key=lambda steps: sum(_of(step, what) for step in steps))
            for runs in ours.values()
        ]
        steps = [sum(_of(run[index], what) for run in mine) for index in range(3)]
        theirs = sum(min(_of(run, what) for run in runs) for runs in hand.values())
        total = sum(steps)
        print(
            f"  {what} time: referee {total:.1f} s ({60 * len(files) / total:.1f} matches a"
            f" minute: before gnubg {steps[0]:.2f} s, gnubg {steps[1]:.1f} s, after"
            f" {steps[2]:.2f} s), by hand {theirs:.1f} s ({60 * len(files) / theirs:.1f} a"
            f" minute): overhead {100 * (total / theirs - 1):+.1f} %"
        )


def _of(spent: Spent, what: str) -> float:
    return spent.wall if what == "wall" else spent.processor


def actions(path: Path) -> int:
    return prepare(path.read_text()).actions


def through_jobs(program: str, files: list[Path], plies: int, workers: int) -> Spent:
    """The time from the first queueing to the last worker's exit (wall, and processor:
    this process's queueing, the workers' and their gnubgs'): the files stored in a new
    archive (not timed), queued, made by ``workers`` worker processes (none: the workers
    start and stop on an empty queue, what their start-up costs)."""
    spent = Spent()
    with tempfile.TemporaryDirectory(prefix="analysis-jobs-") as folder:
        location = str(Path(folder) / "archive.sqlite3")
        prepare_storage(location)
        storage = open_storage(location)
        try:
            ids = [submit(storage, path.read_text(), {}, False, None).stored.id for path in files]
            command = [sys.executable, "-m", "referee.cli", "analyse", "--worker",
                       "--until-idle", "--poll", "0.2", "--database", location,
                       "--gnubg", program]  # fmt: skip
            environment = {**os.environ, "PYTHONPATH": str(ROOT)}
            with spending(spent):
                for match_id in ids:
                    queue_analysis(storage, match_id, Settings(plies, plies), None)
                started = [
                    subprocess.Popen(
                        command,
                        cwd=ROOT,
                        env=environment,
                        stdout=subprocess.DEVNULL,
                        stderr=subprocess.DEVNULL,
                    )
                    for _ in range(workers)
                ]
                for worker in started:
                    worker.wait()
            made = [storage.analyses.of_match(match_id)[0].status for match_id in ids]
        finally:
            storage.close()
    assert made == ["done"] * len(files), made
    return spent


def by_hand_at_once(program: str, files: list[Path], plies: int, workers: int) -> Spent:
    """The time gnubg by hand takes over the files, ``workers`` processes at a time."""
    spent = Spent()
    with spending(spent), ThreadPoolExecutor(workers) as pool:
        list(pool.map(lambda path: by_hand(program, path, plies), files))
    return spent


def by_hand_in_one(program: str, files: list[Path], plies: int, workers: int) -> Spent:
    """The time gnubg by hand takes over the files, dealt round to ``workers`` processes
    that each analyse their share one file after the other."""
    spent = Spent()
    shares = [files[number::workers] for number in range(workers)]
    with spending(spent), ThreadPoolExecutor(workers) as pool:
        list(pool.map(lambda share: in_one(program, share, plies), shares))
    return spent


def measure_jobs(program: str, files: list[Path], plies: int, workers: int, rounds: int) -> None:
    """The job system and gnubg by hand, alternating run by run; every run said, as wall
    time (matches a minute) and as processor time; then the best of each, and that again
    without the workers' start-up (workers started and stopped on an empty queue, best
    of the rounds: a deployment's workers start once, not once per batch)."""
    print(f"{plies}-ply through the job system, {workers} worker(s), {len(files)} files:")
    ours, theirs, in_ones, idle = [], [], [], []
    count = len(files)
    for number in range(1, rounds + 1):
        ours.append(through_jobs(program, files, plies, workers))
        theirs.append(by_hand_at_once(program, files, plies, workers))
        in_ones.append(by_hand_in_one(program, files, plies, workers))
        idle.append(through_jobs(program, [], plies, workers))
        mine, hand, one = ours[-1], theirs[-1], in_ones[-1]
        print(
            f"  run {number}: wall: jobs {mine.wall:.1f} s ({60 * count / mine.wall:.1f}"
            f" matches a minute), by hand {hand.wall:.1f} s ({60 * count / hand.wall:.1f} a"
            f" minute): {100 * (mine.wall / hand.wall - 1):+.1f} %, in one gnubg"
            f" {one.wall:.1f} s: {100 * (mine.wall / one.wall - 1):+.1f} %; processor: jobs"
            f" {mine.processor:.1f} s, by hand {hand.processor:.1f} s:"
            f" {100 * (mine.processor / hand.processor - 1):+.1f} %, in one gnubg"
            f" {one.processor:.1f} s: {100 * (mine.processor / one.processor - 1):+.1f} %;"
            f" the workers' start-up {idle[-1].wall:.2f} s wall, {idle[-1].processor:.2f} s"
            " processor"
        )
    for what in ("wall", "processor"):
        best = min(_of(run, what) for run in ours)
        started = min(_of(run, what) for run in idle)
        rate = f" ({60 * count / best:.1f} a minute)" if what == "wall" else ""
        print(f"  best {what} time of each: jobs {best:.1f} s{rate}:")
        for name, runs in (("by hand", theirs), ("by hand in one gnubg", in_ones)):
            hand_best = min(_of(run, what) for run in runs)
            hand_rate = f" ({60 * count / hand_best:.1f} a minute)" if what == "wall" else ""
            print(
                f"    {name} {hand_best:.1f} s{hand_rate}: overhead"
                f" {100 * (best / hand_best - 1):+.1f} %; without the workers' start-up"
                f" ({started:.2f} s): {100 * ((best - started) / hand_best - 1):+.1f} %"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--part", choices=("steps", "jobs", "all"), default="all")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--two-ply", type=int, default=4, help="files analysed at 2-ply")
    parser.add_argument("--workers", default="1,2", help="the job system's workers, runs")
    args = parser.parse_args()
    program = find_gnubg()
    files = sorted(MAT.glob("*.mat"))
    if not files:
        sys.exit(f"no corpus at {MAT}")
    version = subprocess.run([program, "--version"], capture_output=True, text=True)
    print(f"{version.stdout.splitlines()[0]} at {program}")
    counted = {path: actions(path) for path in files}
    shortest = sorted((path for path in files if counted[path] >= 20), key=counted.__getitem__)
    two_ply = shortest[: args.two_ply]
    if args.part in ("steps", "all"):
        measure(program, files, 0, args.rounds)
        measure(program, two_ply, 2, 1)  # once: minutes a file at 2-ply
    if args.part in ("jobs", "all"):
        for plies, chosen in ((0, files), (2, two_ply)):
            for workers in (int(text) for text in args.workers.split(",")):
                measure_jobs(program, chosen, plies, workers, args.rounds)


if __name__ == "__main__":
    main()
