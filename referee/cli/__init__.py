"""The ``nardy-referee`` command: legal plays, judging a play, checking records, drawing a
position, tokens, re-checks, live bots and their dice. One module per group of commands;
each imports what only it needs when it runs."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Sequence

from referee import __version__
from referee.cli import archive, check, draw, events, export, live, plays
from referee.cli.common import EXIT_BAD_INPUT, EXIT_PIPE_CLOSED
from referee.errors import RefereeError
from referee.rules import engine

GROUPS = (plays, check, draw, archive, live, export, events)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="nardy-referee",
        description="Referee for backgammon (short nardy), long nardy and khachapuri.",
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"nardy-referee {__version__} (engine: {engine.CHOSEN.description()})",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    for group in GROUPS:
        group.add(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        code: int = args.run(args)
        return code
    except RefereeError as error:
        print(f"nardy-referee: error ({error.code}): {error.message}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        # Stop quietly, as Unix tools do; what is still buffered goes nowhere at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_PIPE_CLOSED
