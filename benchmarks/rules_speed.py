"""Rules speed: legal-play enumeration and replay validation over the shared corpus.

Run with ``make bench`` (or ``.venv/bin/python benchmarks/rules_speed.py``). Prints, for
each engine available (Python, and native when built), positions/s for enumeration and
turns/s for replaying the 2,000 OpenSpiel games, and, where ``gnubg_nn`` is installed, its
``moves`` on the same positions and the ratio. "packed" is the native module called
directly (plays as packed bytes, as gnubg_nn answers with position ids); the engines'
figures include building the Python ``Play`` objects every caller gets.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from referee.rules import engine
from referee.rules.board import Board
from referee.rules.judge import PlayJudge
from referee.rules.movegen import legal_plays
from referee.rules.options import Options
from referee.rules.variants import Backgammon
from tests.corpus import board_from_board26, read_jsonl, side_of
from vocabulary import Move, Side

OPTIONS = Options()
ROUNDS = 3


def best_rate(count: int, work: Callable[[], None]) -> float:
    """Items per second of the fastest of ``ROUNDS`` runs."""
    best = float("inf")
    for _ in range(ROUNDS):
        start = time.perf_counter()
        work()
        best = min(best, time.perf_counter() - start)
    return count / best


def main() -> None:
    records = list(read_jsonl("bg_positions_seed1.jsonl.gz"))
    inputs = [
        (board_from_board26(r["board26"], r["off"]), side_of(r["to_move"]), tuple(r["dice"]))
        for r in records
    ]

    def enumerate_all() -> None:
        for board, side, dice in inputs:
            legal_plays(Backgammon.turn_rules(board, side, dice, OPTIONS), board, side, dice)

    games = list(read_jsonl("bg_games_seed1.jsonl.gz"))
    turns = sum(len(game["turns"]) for game in games)

    def replay_all() -> None:
        for game in games:
            board = Backgammon.start_board()
            for turn in game["turns"]:
                side, dice = side_of(turn["player"]), tuple(turn["dice"])
                moves = [Move(a, b) for a, b in turn["play"]]
                verdict = PlayJudge(Backgammon, board, side, dice, OPTIONS).judge(
                    moves, canonical=False
                )
                assert verdict.board is not None
                board = verdict.board

    rates = {}
    for name in engines():
        engine.select(name)
        rates[name] = ours = best_rate(len(inputs), enumerate_all)
        print(f"[{name}] enumeration: {ours:,.0f} positions/s over {len(inputs):,} positions")
        replay = best_rate(turns, replay_all)
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
    dice_list = [r["dice"] for r in records]

    def gnubg_all() -> None:
        for board, (first, second) in zip(boards, dice_list, strict=True):
            gnubg_nn.moves(board, first, second)

    theirs = best_rate(len(boards), gnubg_all)
    print(f"gnubg_nn.moves: {theirs:,.0f} positions/s")
    if engine.native is not None:
        rates["native, packed"] = packed_rate(engine.native, inputs)
        print(f"[native, packed] enumeration: {rates['native, packed']:,.0f} positions/s")
    for name, ours in rates.items():
        print(f"[{name}] ours / gnubg_nn = {ours / theirs:.3f}")


def packed_rate(native: ModuleType, inputs: list[tuple[Board, Side, tuple[int, int]]]) -> float:
    """The native module's own rate: every play's steps and resulting position as packed
    bytes (gnubg_nn.moves answers with position ids), no Python ``Play`` objects."""
    calls = [
        (Backgammon.turn_rules(b, s, d, OPTIONS).plain, b.layout(s), b.layout(s.other), d)
        for b, s, d in inputs
    ]
    return best_rate(len(calls), lambda: [native.legal_plays(*call) for call in calls])


def engines() -> list[str]:
    """The engines to measure: Python, and native when it is built."""
    return ["python"] + (["native"] if engine.select("auto") is engine.Engine.NATIVE else [])


if __name__ == "__main__":
    main()
