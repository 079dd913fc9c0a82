"""Board and page speed: SVG boards drawn per second over every position of the corpus
replays (with their size, plain and gzipped), and the time to render the pages of the
longest corpus record in-process (a stored match's viewer of one game, and the verdict
page of the same record pasted into the form)."""

from __future__ import annotations

import gzip
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from referee.adjudication import adjudicate
from referee.app import create_app
from referee.archive.submit import submit
from referee.board_svg import board_svg
from referee.storage import open_storage
from tests.corpus import MAT

PAGE_RUNS = 5


def corpus_positions() -> list[str]:
    positions = []
    for path in sorted(MAT.glob("*.mat")):
        adjudication = adjudicate(path.read_text(encoding="utf-8-sig"), None, "condone", None, True)
        positions.extend(step.position_after for game in adjudication.replays for step in game)
    return positions


def boards() -> None:
    positions = corpus_positions()
    start = time.perf_counter()
    drawn = [board_svg(position) for position in positions]
    seconds = time.perf_counter() - start
    sizes = [len(svg.encode()) for svg in drawn]
    zipped = [len(gzip.compress(svg.encode())) for svg in drawn[:500]]
    print(f"boards: {len(positions)} corpus positions in {seconds:.2f} s")
    print(
        f"  {len(positions) / seconds:,.0f} boards/s, {1000 * seconds / len(positions):.2f} ms each"
    )
    print(f"  SVG size: median {statistics.median(sizes):,.0f} B, max {max(sizes):,} B;")
    print(f"  gzipped median {statistics.median(zipped):,.0f} B")


def median_ms(run: Callable[[], object]) -> float:
    times = []
    for _ in range(PAGE_RUNS):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return 1000 * statistics.median(times)


def pages() -> None:
    longest = max(MAT.glob("*.mat"), key=lambda path: path.stat().st_size)
    text = longest.read_text(encoding="utf-8-sig")
    with tempfile.TemporaryDirectory() as folder:
        database = f"{folder}/bench.sqlite3"
        app = create_app({"DATABASE": database})
        storage = open_storage(database)
        match_id = submit(storage, text, None, True).stored.id
        storage.close()
        client = app.test_client()
        viewer = client.get(f"/matches/{match_id}")
        verdict = client.post("/check", data={"record": text})
        assert viewer.status_code == 200 and verdict.status_code == 200
        viewer_ms = median_ms(lambda: client.get(f"/matches/{match_id}"))
        verdict_ms = median_ms(lambda: client.post("/check", data={"record": text}))
        print(f"pages of {longest.name} ({len(text):,} B):")
        print(f"  /matches/{match_id} (game 1): {viewer_ms:.1f} ms, {len(viewer.data):,} B")
        print(f"  POST /check (every game): {verdict_ms:.1f} ms, {len(verdict.data):,} B")


if __name__ == "__main__":
    boards()
    pages()
