"""``engine --ubgi``: the builtin nardy engine as a UBGI program on stdin and stdout, for
the bridge (``bot --engine ubgi:COMMAND``) and other servers (docs/engine.md)."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterable
from typing import TYPE_CHECKING, TextIO

from referee import __version__
from referee.cli.common import EXIT_OK

if TYPE_CHECKING:
    from referee.players.builtin import BuiltinEngine


def add(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    engine = commands.add_parser(
        "engine", help="serve the builtin long nardy and khachapuri engine (UBGI on stdin/stdout)"
    )
    engine.add_argument(
        "--ubgi",
        action="store_true",
        required=True,
        help="speak UBGI (draft 0.01), with the position string as the nardy question",
    )
    engine.add_argument(
        "--plies", type=int, choices=(0, 1), default=1, help="search depth (default 1)"
    )
    engine.set_defaults(run=_engine)


def _engine(args: argparse.Namespace) -> int:
    from referee.players.builtin import BuiltinEngine

    serve(BuiltinEngine(args.plies), sys.stdin, sys.stdout)
    return EXIT_OK


def identity() -> list[str]:
    """The ``id`` lines the engine answers ``ubgi`` with (``variants`` is the nardy
    extension, referee.players.ubgi)."""
    return [
        "id name nardy-referee builtin",
        "id author nardy-referee",
        f"id version {__version__}",
        "id variants long-nardy khachapuri",
    ]


def serve(engine: BuiltinEngine, lines: Iterable[str], out: TextIO) -> None:
    """Answer UBGI commands until ``quit`` or the end of input: ``ubgi`` (identity, then
    ``readyok``, or ``sorry`` when the networks cannot be loaded), ``isready``, a position
    (its answer; ``sorry`` for one the engine cannot read or play); ``stop`` and blank
    lines are ignored (nothing runs in the background)."""
    from referee.errors import RefereeError
    from referee.players.builtin import network
    from referee.players.gnubg import EngineError
    from referee.players.nardy import NARDY

    for line in lines:
        command = line.strip()
        if command == "quit":
            return
        if command in ("", "stop"):
            continue
        if command == "ubgi":
            try:
                for variant in sorted(NARDY):
                    network(variant)
                answers = [*identity(), "readyok"]
            except (EngineError, OSError):
                answers = ["sorry"]
        elif command == "isready":
            answers = ["readyok"]
        else:
            try:
                answers = [engine.ask(command)]
            except (RefereeError, EngineError):
                answers = ["sorry"]
        out.write("".join(answer + "\n" for answer in answers))
        out.flush()
