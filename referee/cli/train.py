"""``train``: the builtin engine's network trained by TD(λ) self-play (docs/engine.md),
reproducibly: the seed gives the first weights and every training game's dice, so the
same seed and number of games give the same weights."""

from __future__ import annotations

import argparse
import math
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from referee.cli.common import EXIT_BAD_INPUT, EXIT_OK
from referee.cli.progress import Progress, progress
from referee.players.mirrored import Tally, measure

BATCH = 50
"""Games trained between two looks at the clock."""


def add(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    train = commands.add_parser(
        "train", help="train the builtin nardy engine's network by self-play (TD(lambda))"
    )
    train.add_argument("--variant", choices=("long-nardy", "khachapuri"), required=True)
    train.add_argument("--seed", type=int, required=True, help="first weights and dice")
    limit = train.add_mutually_exclusive_group(required=True)
    limit.add_argument("--minutes", type=float, help="train this long")
    limit.add_argument("--games", type=int, help="train this many games (reproducible)")
    train.add_argument("--out", type=Path, required=True, help="the weights file to write")
    train.add_argument("--hidden", type=int, default=80, help="hidden units (default 80)")
    train.add_argument("--alpha", type=float, default=0.02, help="step size (default 0.02)")
    train.add_argument(
        "--lambda", dest="lambda_", type=float, default=0.7, help="TD(lambda)'s λ (default 0.7)"
    )
    train.add_argument("--resume", action="store_true", help="go on training the network in --out")
    train.add_argument(
        "--checkpoint-minutes",
        type=float,
        default=10.0,
        help="write --out and measure the network this often (default 10)",
    )
    train.add_argument(
        "--check-pairs",
        type=int,
        default=100,
        help="mirrored pairs against the heuristic player at each checkpoint (default 100)",
    )
    train.set_defaults(run=_train)


def check(native: Any, variant: str, net: Any, pairs: int) -> Tally:
    """The network at 0-ply against the heuristic player over ``pairs`` mirrored pairs
    (dealt from the server seed of "train check GAMES")."""
    engine, heuristic = native.EnginePlayer.network(net, 0), native.EnginePlayer.heuristic()
    label = f"train check {net.games}"
    return measure(native, variant, engine, lambda _: heuristic, pairs, label)


def write_atomically(path: Path, data: bytes) -> None:
    """Replace ``path`` with ``data`` at once (a reader never sees half a file)."""
    partial = path.with_name(path.name + ".partial")
    partial.write_bytes(data)
    os.replace(partial, path)


def _train(args: argparse.Namespace) -> int:
    from referee.players.builtin import native_core
    from referee.players.gnubg import EngineError

    try:
        native = native_core()
        if args.resume:
            net = native.EngineNetwork.load(args.out.read_bytes())
        else:
            net = native.EngineNetwork.new(args.variant, args.hidden, args.seed)
        trainer = native.EngineTrainer(net, args.alpha, args.lambda_)
    except (EngineError, OSError, ValueError) as error:
        print(f"nardy-referee: train: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    seconds = None if args.minutes is None else args.minutes * 60
    total, unit = (args.games, "game") if seconds is None else (round(seconds), "s")
    with progress(total, f"training {args.variant}", unit) as bar:
        run = Run(native, trainer, args, bar)
        run.until(seconds, args.games)
    run.checkpoint()
    return EXIT_OK


@dataclass
class Run:
    """One training run: batches of games, a checkpoint now and then."""

    native: Any
    trainer: Any
    args: argparse.Namespace
    bar: Progress
    games: int = 0
    turns: int = 0

    def until(self, seconds: float | None, games: int | None) -> None:
        """Train for ``seconds`` or ``games`` games (the one given); the bar counts the
        same unit."""
        started = time.monotonic()
        deadline = math.inf if seconds is None else started + seconds
        limit = math.inf if games is None else games
        next_checkpoint = started + self.args.checkpoint_minutes * 60
        done = 0
        while self.games < limit and time.monotonic() < deadline:
            played, turns, _ = self.trainer.train(int(min(BATCH, limit - self.games)))
            self.games, self.turns = self.games + played, self.turns + turns
            now = time.monotonic()
            done, before = (self.games if games else int(now - started)), done
            self.bar.advance(done - before)
            if now >= next_checkpoint:
                self.checkpoint()
                next_checkpoint = time.monotonic() + self.args.checkpoint_minutes * 60

    def checkpoint(self) -> None:
        """Write the network to ``--out`` and say how it stands."""
        net = self.trainer.network()
        write_atomically(self.args.out, net.to_bytes())
        measured = check(self.native, self.args.variant, net, self.args.check_pairs)
        self.bar.echo(
            f"{net.games} games ({self.games} this run, {self.turns / max(self.games, 1):.0f}"
            f" turns a game): against the heuristic {measured.line()}; written to"
            f" {self.args.out}"
        )
