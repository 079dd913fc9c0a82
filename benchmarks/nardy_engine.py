"""The builtin nardy engine's strength and speed (issue 31; docs/engine.md).

Run with ``.venv/bin/python benchmarks/nardy_engine.py`` (the native core built). For long
nardy and khachapuri, the shipped network at PLIES (default 1) plays PAIRS mirrored pairs
(default 2,000: 4,000 games) against the random player and against the heuristic player
(pips, blocks, head use: ``native/src/engine/players.rs``), each pair dealt by the
referee's own dice as an event's mirrored pair is (EVENTS.md §7: one server seed, the
pair's dice id, no client seeds; the server seed is the SHA-256 of
"nardy-engine VARIANT OPPONENT", so anyone can deal the same throws again). It prints the
win rate with its 95 % interval and the points won a game, and how many of the games lost
were lost short of pips (the player's own throws in that game came to fewer pips than its
checkers had to travel from the start: no play of its own could have won them, only holding
the other side back longer); and, for scale, the heuristic player's against the random one
over the same pairs.

Then the time of one decision as the table asks it (``BuiltinEngine.ask``: the question
read, every legal play ranked) at 0 and 1 ply, over the positions of games the engine
plays against itself: median, 95th percentile and the slowest, in processor time (the
engine's own work) and wall-clock time (which a shared machine stretches).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from referee.players.builtin import BuiltinEngine, native_core, network
from referee.players.mirrored import Tally, measure
from referee.plays import PlaysService

VARIANTS = ("long-nardy", "khachapuri")
STARTS = {
    "long-nardy": "long-nardy ,,,,,,,,,,,15b,,,,,,,,,,,,15w w0b0 w0b0 w - - 0:0-0 -",
    "khachapuri": "khachapuri ,,,,,11w,,,,,,4b,,,,,,11b,,,,,,4w w0b0 w0b0 w - - 0:0-0 -",
}


def opponents(native: Any) -> dict[str, Any]:
    """Each opponent as a player for a pair's dice id (the random one seeded by it)."""
    heuristic = native.EnginePlayer.heuristic()
    return {"random": native.EnginePlayer.random, "heuristic": lambda _: heuristic}


def strength(native: Any, variants: list[str], pairs: int, plies: int) -> None:
    """The engine against each opponent, then (for scale) the heuristic player against the
    random one, over the same pairs."""
    heuristic = native.EnginePlayer.heuristic()
    for variant in variants:
        engine = native.EnginePlayer.network(network(variant), plies)
        runs = [
            (f"{plies}-ply against {name}", engine, name, opponent)
            for name, opponent in opponents(native).items()
        ]
        runs.append(("heuristic against random", heuristic, "random", native.EnginePlayer.random))
        for title, player, name, opponent in runs:
            started = time.monotonic()

            def show(tally: Tally) -> None:
                if sys.stderr.isatty():
                    print(f"\r  {tally.games} games: {tally.line()}", end="", file=sys.stderr)

            label = f"nardy-engine {variant} {name}"
            tally = measure(native, variant, player, opponent, pairs, label, show)
            minutes = (time.monotonic() - started) / 60
            print(f"{variant}, {title}: {tally.line()} ({minutes:.1f} min)", flush=True)
            lost = tally.games - tally.wins
            print(f"  {lost} lost, {tally.lost_short} of them short of pips", flush=True)


def positions(variant: str, games: int, seed: int) -> list[str]:
    """The questions of ``games`` games the engine plays against itself at 0-ply."""
    rng = random.Random(seed)
    engine = BuiltinEngine(0)
    found = []
    for _ in range(games):
        position = STARTS[variant]
        while " end " not in position:
            fields = position.split()
            first, second = rng.randint(1, 6), rng.randint(1, 6)
            fields[5] = f"{max(first, second)}{min(first, second)}"
            position = " ".join(fields)
            found.append(position)
            service = PlaysService(position)
            judged = service.judged(engine.ask(position))
            assert judged.play is not None
            position = service.answer(judged.play).position
    return found


def summary(times: list[float]) -> str:
    times = sorted(times)
    p95 = times[int(0.95 * (len(times) - 1))]
    return (
        f"median {statistics.median(times):.2f} ms, 95th percentile {p95:.2f} ms,"
        f" slowest {times[-1]:.2f} ms"
    )


def decision_times(variants: list[str], games: int) -> None:
    """Each decision's processor time (the engine's work, whatever else the machine runs)
    and wall-clock time (what the table waits, which a shared machine stretches)."""
    for variant in variants:
        questions = positions(variant, games, seed=1)
        for plies in (0, 1):
            engine = BuiltinEngine(plies)
            engine.ask(questions[0])  # the network loaded
            cpu, wall = [], []
            for question in questions:
                started, clock = time.process_time(), time.perf_counter()
                engine.ask(question)
                cpu.append(1000 * (time.process_time() - started))
                wall.append(1000 * (time.perf_counter() - clock))
            print(f"{variant} decision at {plies}-ply over {len(questions)} positions:")
            print(f"  processor time {summary(cpu)}")
            print(f"  wall-clock time {summary(wall)}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pairs", type=int, default=2000, help="mirrored pairs (2 games each)")
    parser.add_argument("--plies", type=int, choices=(0, 1), default=1)
    parser.add_argument("--timing-games", type=int, default=4, help="games timed per variant")
    parser.add_argument("--variants", nargs="+", choices=VARIANTS, default=list(VARIANTS))
    parser.add_argument("--skip-strength", action="store_true")
    parser.add_argument("--skip-timing", action="store_true")
    args = parser.parse_args()
    native = native_core()
    if not args.skip_strength:
        strength(native, args.variants, args.pairs, args.plies)
    if not args.skip_timing:
        decision_times(args.variants, args.timing_games)
    return 0


if __name__ == "__main__":
    sys.exit(main())
