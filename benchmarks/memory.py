"""Peak memory (VmHWM) of gunicorn workers: checking the largest corpus record, checking a
2,000-game record (the OpenSpiel games as one money session), and importing 10,000 games
(those games as five money sessions with different headers). Linux only: reads /proc. Run
with ``.venv/bin/python benchmarks/memory.py``."""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.corpus import MAT, openspiel_money_session, read_jsonl
from tests.server import Server, start, stop, write_token


def workers_of(server: Server) -> list[int]:
    children = Path(f"/proc/{server.process.pid}/task/{server.process.pid}/children")
    return [int(pid) for pid in children.read_text().split()]


def peak_mib(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmHWM for {pid}")


def report(label: str, server: Server) -> None:
    peaks = [peak_mib(pid) for pid in workers_of(server)]
    print(f"{label:58} peak RSS of the busiest worker: {max(peaks):6.1f} MiB")


def main() -> None:
    largest = max(MAT.glob("*.mat"), key=lambda path: path.stat().st_size)
    games = list(read_jsonl("bg_games_seed1.jsonl.gz"))
    with tempfile.TemporaryDirectory() as folder:
        database = Path(folder) / "memory.sqlite3"
        token = write_token(database)
        server = start(database, workers=2)
        try:
            time.sleep(0.5)
            report("idle, after start", server)
            record = largest.read_text()
            for _ in range(20):
                server.json("POST", "/v1/records/check", {"record": record})
            report(f"checking {largest.name} ({largest.stat().st_size} B) x20", server)
            session = openspiel_money_session(games)
            started = time.perf_counter()
            for _ in range(2):
                answer = server.json("POST", "/v1/records/check", {"record": session})
                assert answer["valid"], answer
            seconds = (time.perf_counter() - started) / 2
            report(f"checking a 2,000-game session x2 ({seconds:.1f} s each)", server)
            started = time.perf_counter()
            for number in range(1, 6):
                session = openspiel_money_session(games, event=f"OpenSpiel session {number}")
                answer = server.json("POST", "/v1/matches", {"record": session}, token=token)
                assert answer["verdict"]["valid"], answer
            seconds = time.perf_counter() - started
            report(f"importing 5 sessions x 2,000 games ({seconds:.0f} s)", server)
        finally:
            stop(server)
        print(f"archive file after import: {database.stat().st_size / 2**20:.1f} MiB")


if __name__ == "__main__":
    main()
