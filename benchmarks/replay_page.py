"""Concurrent first loads of a new big record's replay page (issue 22): N anonymous loads
of ``/matches/1`` at once, right after a 2,000-game money session is stored, through
gunicorn with the shipped config (2 gthread workers). Prints each answer's status and
time, how often the replays were computed (rows written per kept replay) and the workers'
peak RSS. Linux only (reads /proc). Run: ``.venv/bin/python benchmarks/replay_page.py
[--loads 48] [--games 2000]``; figures in docs/reliability.md."""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.corpus import openspiel_money_session, read_jsonl
from tests.reliability.gunicorns import peak_mib, start_on, stop, workers_of
from tests.reliability.test_replay_page import computations, load
from tests.server import write_token


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--loads", type=int, default=48)
    parser.add_argument("--games", type=int, default=2000)
    args = parser.parse_args()
    games = list(read_jsonl("bg_games_seed1.jsonl.gz"))[: args.games]
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "replay-page.sqlite3"
        token = write_token(database)
        server = start_on(database)
        try:
            record = openspiel_money_session(games)
            status, _, _ = server.request(
                "POST", "/v1/matches", {"record": record}, token, timeout=300
            )
            assert status == 201
            print(f"load average before: {os.getloadavg()[0]:.1f}")
            started = time.monotonic()
            with ThreadPoolExecutor(args.loads) as pool:
                first = list(pool.map(lambda _: load(server, "/matches/1"), range(args.loads)))
            wall = time.monotonic() - started
            peaks = [peak_mib(pid) for pid in workers_of(server.process.pid)]
            print(f"{args.loads} concurrent first loads of a {args.games}-game record's page,")
            print(f"{wall:.0f} s in all:")
            for (status, retry), count in sorted(Counter((s, r) for s, _, r in first).items()):
                times = sorted(seconds for s, seconds, r in first if (s, r) == (status, retry))
                span = f"{times[0]:.1f}-{times[-1]:.1f} s"
                print(f"  {count:3} x {status} (Retry-After {retry or '-'}): {span}")
            kept, written = computations(database, 1)
            print(f"  kept replays {kept}, rows written {written} (equal: computed once)")
            print(f"  peak RSS per worker: {', '.join(f'{p:.0f}' for p in peaks)} MiB")
            while True:  # until the computation is done
                status, _, _ = load(server, "/matches/1")
                if status == 200:
                    break
                time.sleep(5)
            with ThreadPoolExecutor(args.loads) as pool:
                again = list(pool.map(lambda _: load(server, "/matches/1?g=2"), range(args.loads)))
            times = sorted(seconds for _, seconds, _ in again)
            print(
                f"then {args.loads} loads of a kept replay: {Counter(s for s, _, _ in again)},"
                f" {times[0]:.1f}-{times[-1]:.1f} s; load average {os.getloadavg()[0]:.1f}"
            )
            peaks = [peak_mib(pid) for pid in workers_of(server.process.pid)]
            print(f"  peak RSS per worker: {', '.join(f'{p:.0f}' for p in peaks)} MiB")
        finally:
            stop(server)


if __name__ == "__main__":
    main()
