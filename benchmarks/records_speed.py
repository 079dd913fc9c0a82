"""Records speed: checking the corpus, and a 2,000-game money session, against gnubg.

Builds a ``0 point match`` from the shared OpenSpiel games (tests/corpus.py), times our
adjudication of it and of the 44 corpus records, and, where the ``gnubg`` package is
installed, gnubg's own ``import mat`` of the same files (which also validates every move).
"""

from __future__ import annotations

import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from referee.adjudication import adjudicate
from tests.corpus import MAT, openspiel_money_session, read_jsonl


def timed(work: Callable[[], object]) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def gnubg_import_seconds(paths: list[Path]) -> float | None:
    """Seconds for gnubg to import every path, its board printing silenced; None without it."""
    try:
        import gnubg
    except ImportError:
        return None
    saved = os.dup(1)
    with open(os.devnull, "w") as devnull:
        os.dup2(devnull.fileno(), 1)
        try:
            return timed(lambda: [gnubg.command(f'import mat "{path}"') for path in paths])
        finally:
            os.dup2(saved, 1)
            os.close(saved)


def main() -> None:
    corpus = sorted(MAT.glob("*.mat"))
    texts = [path.read_text() for path in corpus]
    ours = timed(lambda: [adjudicate(text) for text in texts])
    print(f"corpus: {len(corpus)} records checked in {ours:.2f} s")
    theirs = gnubg_import_seconds(corpus)
    if theirs is not None:
        print(f"gnubg import mat of the corpus: {theirs:.2f} s; ours / gnubg = {ours / theirs:.2f}")

    games = list(read_jsonl("bg_games_seed1.jsonl.gz"))
    turns = sum(len(game["turns"]) for game in games)
    session = openspiel_money_session(games)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "openspiel_money_session.mat"
        path.write_text(session)
        seconds = timed(lambda: adjudicate(session))
        print(
            f"money session: {len(games)} games, {turns:,} turns,"
            f" {len(session) / 1e6:.1f} MB checked in {seconds:.2f} s"
            f" = {turns / seconds:,.0f} turns/s"
        )
        theirs = gnubg_import_seconds([path])
        if theirs is not None:
            print(
                f"gnubg import mat of the session: {theirs:.2f} s;"
                f" ours / gnubg = {seconds / theirs:.2f}"
            )


if __name__ == "__main__":
    main()
