"""Records speed: checking the corpus, and a 2,000-game money session, against gnubg.

Builds a ``0 point match`` from the shared OpenSpiel games (tests/corpus.py), times our
checking of it and of the 44 corpus records, and, where the ``gnubg`` package is installed,
gnubg's own ``import mat`` of the same files (which also validates every move); each under
every engine available (Python, and native when built). The same matches as SGF (the
referee's own export) against their ``.mat``: reading alone (text to the record model) and
``check_record`` (``--sgf`` runs this part alone); the same for XG's binary ``.xg``
(tests/records/xg_bytes.py writes it): reading into the record model, and reading plus
writing the ``.mat`` text that the API checks and stores (``--xg`` runs this part alone).
Three ways to check are timed:
``check_record`` (the verdict alone: ``check`` and ``/v1/records/check``; with the native
core, its record fast path), ``check_and_write`` (verdict and canonical record: imports)
and ``adjudicate`` (the full Python path that replays use). Last, whole processes:
``nardy-referee check`` of a 400-game money session against a Python process that imports
gnubg and runs ``import mat`` of the same file, taking turns, the best of ten each; with
``--peer TREE`` (another checkout with its own ``.venv``) that tree's command takes its
turns too (the other parts run in this process, on this tree's code). ``--whole`` runs
this part alone.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from benchmarks.trees import Tree, add_peer_option, trees
from referee.adjudication import adjudicate, check_and_write, check_record
from referee.adjudication.budget import OFFLINE
from referee.rules import engine
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


SESSION_GAMES = 400
ROUNDS = 10
GNUBG_IMPORT = """
import os, sys
import gnubg
os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
gnubg.command('import mat "' + sys.argv[1] + '"')
"""

Program = tuple[list[str], dict[str, str]]


def seconds(program: Program) -> float:
    """Wall-clock seconds of one run of a whole process."""
    start = time.perf_counter()
    subprocess.run(program[0], env=program[1], stdout=subprocess.DEVNULL, check=False)
    return time.perf_counter() - start


def checks(chosen: list[Tree], path: Path) -> dict[str, Program]:
    """``nardy-referee check`` of ``path`` by each tree under each engine it has. Each is
    run once here: the bytecode of what it imports is written then and read by every later
    run, as an installed program's is (pip compiles at install; gnubg is compiled C)."""
    found = {}
    for tree in chosen:
        for name in (str(kind) for kind in engine.EngineKind):
            program = [tree.program("nardy-referee"), "check", str(path)]
            environment = tree.environment(**{engine.ENGINE_VARIABLE: name})
            done = subprocess.run(program, env=environment, capture_output=True, check=False)
            if done.returncode == 0:
                found[f"[{tree.label}, {name}] nardy-referee check"] = (program, environment)
    return found


def whole_processes(games: list[dict[str, Any]], chosen: list[Tree]) -> None:
    """``nardy-referee check`` of a money session (by each tree, each engine) against
    gnubg's ``import mat``, as whole processes taking turns: the best of ``ROUNDS`` each."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "money_session_400.mat"
        path.write_text(openspiel_money_session(games[:SESSION_GAMES]))
        turns = sum(len(game["turns"]) for game in games[:SESSION_GAMES])
        print(f"whole processes: a {SESSION_GAMES}-game money session ({turns:,} turns)")
        programs = checks(chosen, path)
        gnubg = "gnubg import mat"
        if importlib.util.find_spec("gnubg") is not None:
            programs[gnubg] = ([sys.executable, "-c", GNUBG_IMPORT, str(path)], dict(os.environ))
        runs: dict[str, list[float]] = {name: [] for name in programs}
        for _ in range(ROUNDS):
            for name, program in programs.items():
                runs[name].append(seconds(program))
        best = {name: min(found) for name, found in runs.items()}
        for name, found in best.items():
            ratio = f"; / gnubg = {found / best[gnubg]:.2f}" if gnubg in best else ""
            print(f"  {name}: {found:.3f} s{'' if name == gnubg else ratio}")


def engines() -> list[engine.Engine]:
    """The engines to measure: Python, and native when it is built."""
    chosen = engine.choose("auto")
    return [engine.PYTHON] + ([chosen] if chosen.native is not None else [])


def best_seconds(work: Callable[[], object], rounds: int = 5) -> float:
    return min(timed(work) for _ in range(rounds))


def sgf_pairs(texts: list[str], session: str) -> dict[str, tuple[list[str], list[str]]]:
    """The corpus's backgammon records and the money session, each as .mat and as the
    referee's SGF export of it."""
    from notation.records.mat_reader import read_mat
    from referee.archive.sgf import sgf_of

    pairs: dict[str, tuple[list[str], list[str]]] = {"corpus": ([], []), "session": ([], [])}
    for name, text in [*(("corpus", text) for text in texts), ("session", session)]:
        written = check_and_write(text, limits=OFFLINE)
        verdict = written.verdict.to_json()
        if verdict["variant"] == "backgammon":
            pairs[name][0].append(text)
            pairs[name][1].append(sgf_of(read_mat(written.canonical), verdict))
    return pairs


def sgf_against_mat(texts: list[str], games: list[dict[str, Any]]) -> None:
    """SGF against .mat: reading (the goal: SGF within 2x of .mat) and checking, under
    every engine, without the work deadline (the SGF session is checked by Python)."""
    from notation.records.formats import read_records

    for name, (mats, sgfs) in sgf_pairs(texts, openspiel_money_session(games)).items():
        size = sum(map(len, sgfs)) / 1e6
        print(f"SGF against .mat: {name}, {len(mats)} records, SGF {size:.1f} MB")
        rounds = 1 if name == "session" else 3
        seconds = [
            best_seconds(lambda found=found, group=group: [read_records(t, found) for t in group])
            for found, group in (("mat", mats), ("sgf", sgfs))
        ]
        mat, sgf = seconds
        print(f"  reading: .mat {mat:.3f} s, SGF {sgf:.3f} s, SGF / .mat = {sgf / mat:.2f}")
        for chosen in engines():
            mat, sgf = (
                best_seconds(lambda group=group, chosen=chosen: checked(group, chosen), rounds)
                for group in (mats, sgfs)
            )
            print(
                f"  [{chosen.kind}] check_record: .mat {mat:.3f} s, SGF {sgf:.3f} s,"
                f" SGF / .mat = {sgf / mat:.2f}"
            )


def xg_against_mat(texts: list[str], games: list[dict[str, Any]]) -> None:
    """.xg against .mat: reading (the goal: .xg within 2x of .mat), and reading plus
    writing the .mat text checked and stored for an .xg (its checking is the .mat's)."""
    from notation.records.formats import XG, read_records
    from notation.records.xg_reader import read_xg
    from referee.adjudication.formats import binary_text
    from tests.records.xg_bytes import xg_of

    session = openspiel_money_session(games)
    for name, group in (("corpus", texts), ("session", [session])):
        mats = [
            text for text in group if check_record(text, limits=OFFLINE).variant == "backgammon"
        ]
        xgs = [xg_of(text) for text in mats]
        size = sum(map(len, xgs)) / 1e6
        print(f".xg against .mat: {name}, {len(mats)} records, .xg {size:.1f} MB")
        rounds = 1 if name == "session" else 3
        mat = best_seconds(lambda mats=mats: [read_records(t, "mat") for t in mats], rounds)
        xg = best_seconds(lambda xgs=xgs: [read_xg(data, OFFLINE.reading) for data in xgs], rounds)
        text = best_seconds(
            lambda xgs=xgs: [binary_text(XG, data, OFFLINE) for data in xgs], rounds
        )
        print(
            f"  reading: .mat {mat:.3f} s, .xg {xg:.3f} s, .xg / .mat = {xg / mat:.2f};"
            f" .xg to its .mat text {text:.3f} s, / .mat = {text / mat:.2f}"
        )


def checked(texts: list[str], chosen: engine.Engine) -> list[object]:
    return [check_record(text, limits=OFFLINE, engine=chosen) for text in texts]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    add_peer_option(parser)
    parts = parser.add_mutually_exclusive_group()
    parts.add_argument("--sgf", action="store_true", help="SGF against .mat alone")
    parts.add_argument("--xg", action="store_true", help=".xg against .mat alone")
    parts.add_argument("--whole", action="store_true", help="the whole processes alone")
    args = parser.parse_args()
    corpus = sorted(MAT.glob("*.mat"))
    texts = [path.read_text() for path in corpus]
    games = list(read_jsonl("bg_games_seed1.jsonl.gz"))
    if args.whole:
        whole_processes(games, trees(args.peer))
        return
    if args.xg:
        xg_against_mat(texts, games)
        return
    sgf_against_mat(texts, games)
    if args.sgf:
        return
    xg_against_mat(texts, games)
    for chosen in engines():
        print(f"[{chosen.kind}]")
        in_process(corpus, texts, games, chosen)
    whole_processes(games, trees(args.peer))


WAYS: dict[str, Callable[..., object]] = {
    "check_record": check_record,
    "check_and_write": check_and_write,
    "adjudicate": adjudicate,
}


def in_process(
    corpus: list[Path], texts: list[str], games: list[dict[str, Any]], chosen: engine.Engine
) -> None:
    corpus_seconds = gnubg_import_seconds(corpus)
    turns = sum(len(game["turns"]) for game in games)
    session = openspiel_money_session(games)
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "openspiel_money_session.mat"
        path.write_text(session)
        session_seconds = gnubg_import_seconds([path])
    if corpus_seconds is not None and session_seconds is not None:
        print(f"gnubg import mat: corpus {corpus_seconds:.2f} s, session {session_seconds:.2f} s")
    for name, way in WAYS.items():
        ours = timed(lambda way=way: [way(text, engine=chosen) for text in texts])  # type: ignore[misc]
        ratio = f" (ours / gnubg = {ours / corpus_seconds:.2f})" if corpus_seconds else ""
        print(f"  {name}: {len(corpus)} corpus records in {ours:.3f} s{ratio}")
        seconds = timed(lambda way=way: way(session, engine=chosen))  # type: ignore[misc]
        ratio = f" (ours / gnubg = {seconds / session_seconds:.2f})" if session_seconds else ""
        print(
            f"  {name}: money session of {len(games)} games, {turns:,} turns,"
            f" {len(session) / 1e6:.1f} MB in {seconds:.2f} s"
            f" = {turns / seconds:,.0f} turns/s{ratio}"
        )


if __name__ == "__main__":
    main()
