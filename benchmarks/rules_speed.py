"""Rules speed: legal-play enumeration and replay validation over the shared corpus.

Run with ``make bench`` (or ``.venv/bin/python benchmarks/rules_speed.py``). Prints, for
each engine available (Python, and native when built), positions/s for enumeration and
turns/s for replaying the 2,000 OpenSpiel games, and, where ``gnubg_nn`` is installed, its
``moves`` on the same positions and the ratio. "packed" is the native module called
directly (plays as packed bytes, as gnubg_nn answers with position ids); the engines'
figures include building the Python ``Play`` objects every caller gets.

Same work: gnubg_nn's ``moves`` also keeps only maximal plays, one per distinct resulting
board; the script checks that both find the same number of plays over the positions.
Plain ``moves`` answers each board's key only; ``verbose=1`` adds its steps, which is the
information our packed plays carry. gnubg_nn and the native module take turns round by
round (the best of ``PEER_ROUNDS`` each), so that a load coming and going on a shared
machine weighs on both alike.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from types import ModuleType

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from referee.rules import engine
from referee.rules.board import Board, Play
from referee.rules.judge import PlayJudge
from referee.rules.movegen import legal_plays
from referee.rules.options import Options
from referee.rules.variants import Backgammon
from tests.corpus import board_from_board26, read_jsonl, side_of
from vocabulary import Move, Side

OPTIONS = Options()
ROUNDS = 3
PEER_ROUNDS = 15
"""Rounds of the side-by-side enumeration with gnubg_nn (each round takes milliseconds)."""


def best_rate(count: int, work: Callable[[], object]) -> float:
    """Items per second of the fastest of ``ROUNDS`` runs."""
    return best_rates(count, {"": work}, ROUNDS)[""]


def best_rates(count: int, works: dict[str, Callable[[], object]], rounds: int) -> dict[str, float]:
    """Items per second of each work's fastest run, the works taking turns round by round
    so that a load coming and going on a shared machine weighs on all of them alike."""
    best = dict.fromkeys(works, float("inf"))
    for _ in range(rounds):
        for name, work in works.items():
            start = time.perf_counter()
            work()
            best[name] = min(best[name], time.perf_counter() - start)
    return {name: count / seconds for name, seconds in best.items()}


def main() -> None:
    records = list(read_jsonl("bg_positions_seed1.jsonl.gz"))
    inputs = [
        (board_from_board26(r["board26"], r["off"]), side_of(r["to_move"]), tuple(r["dice"]))
        for r in records
    ]

    def enumerate_all(chosen: engine.Engine) -> None:
        for board, side, dice in inputs:
            rules = Backgammon.turn_rules(board, side, dice, OPTIONS)
            legal_plays(rules, board, side, dice, chosen)

    games = list(read_jsonl("bg_games_seed1.jsonl.gz"))
    turns = sum(len(game["turns"]) for game in games)

    def replay_all(chosen: engine.Engine) -> None:
        for game in games:
            board = Backgammon.start_board()
            for turn in game["turns"]:
                side, dice = side_of(turn["player"]), tuple(turn["dice"])
                moves = [Move(a, b) for a, b in turn["play"]]
                verdict = PlayJudge(Backgammon, board, side, dice, OPTIONS, chosen).judge(
                    moves, canonical=False
                )
                assert verdict.board is not None
                board = verdict.board

    rates = {}
    for chosen in engines():
        name = str(chosen.kind)
        rates[name] = ours = best_rate(len(inputs), partial(enumerate_all, chosen))
        print(f"[{name}] enumeration: {ours:,.0f} positions/s over {len(inputs):,} positions")
        replay = best_rate(turns, partial(replay_all, chosen))
        print(
            f"[{name}] replay validation: {replay:,.0f} turns/s over {len(games):,} games"
            f" ({turns:,} turns)"
        )

    try:
        import gnubg_nn
    except ImportError:
        print("gnubg_nn not installed: no comparison")
        return
    boards = [gnubg_nn.boardfromid(r["gnubg_position_id"]) for r in records]
    pairs = list(zip(boards, (r["dice"] for r in records), strict=True))
    ours_found = sum(
        play_count(legal_plays(Backgammon.turn_rules(*i, OPTIONS), *i)) for i in inputs
    )
    theirs_found = sum(len(gnubg_nn.moves(board, *dice)) for board, dice in pairs)
    assert ours_found == theirs_found, (ours_found, theirs_found)
    print(f"same work: both find {ours_found:,} plays (distinct resulting boards)")
    side_by_side: dict[str, Callable[[], object]] = {
        "gnubg_nn.moves": lambda: [gnubg_nn.moves(board, *dice) for board, dice in pairs],
        "gnubg_nn.moves(verbose=1)": lambda: [
            gnubg_nn.moves(board, *dice, 1) for board, dice in pairs
        ],
    }
    native = engine.choose("auto").native
    if native is not None:
        side_by_side["native, packed"] = packed_work(native, inputs)
    peers = best_rates(len(pairs), side_by_side, PEER_ROUNDS)
    theirs, with_steps = peers.pop("gnubg_nn.moves"), peers.pop("gnubg_nn.moves(verbose=1)")
    print(f"gnubg_nn.moves: {theirs:,.0f} positions/s (each board's key)")
    print(f"gnubg_nn.moves(verbose=1): {with_steps:,.0f} positions/s (key and steps)")
    for name, ours in peers.items():
        print(f"[{name}] enumeration: {ours:,.0f} positions/s, in turns with gnubg_nn")
    for name, ours in (rates | peers).items():
        print(
            f"[{name}] ours / gnubg_nn = {ours / theirs:.3f}"
            f" ({ours / with_steps:.3f} against verbose=1)"
        )


def play_count(plays: list[Play]) -> int:
    """How many plays ``legal_plays`` found (gnubg_nn answers nothing, not one empty play,
    when no die can be played)."""
    return len(plays) if plays[0].steps else 0


def packed_work(
    native: ModuleType, inputs: list[tuple[Board, Side, tuple[int, int]]]
) -> Callable[[], object]:
    """The native module's own enumeration: every play's steps and resulting position as
    packed bytes (gnubg_nn.moves answers with position ids), no Python ``Play`` objects."""
    calls = [
        (Backgammon.turn_rules(b, s, d, OPTIONS).plain, b.layout(s), b.layout(s.other), d)
        for b, s, d in inputs
    ]
    return lambda: [native.legal_plays(*call) for call in calls]


def engines() -> list[engine.Engine]:
    """The engines to measure: Python, and native when it is built."""
    chosen = engine.choose("auto")
    return [engine.PYTHON] + ([chosen] if chosen.native is not None else [])


if __name__ == "__main__":
    main()
