"""The ``nardy-referee`` command: legal plays, judging a play, checking records, drawing a
position, tokens, re-checks, live bots and their dice, analysing records with gnubg. One
module per group of commands; each imports what only it needs when it runs."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import Any

from referee import __version__
from referee.cli.common import EXIT_BAD_INPUT, EXIT_PIPE_CLOSED
from referee.errors import RefereeError
from referee.rules import engine

GROUPS = {
    "plays": ("legal", "play"),
    "check": ("check",),
    "draw": ("draw",),
    "archive": ("tokens", "recheck"),
    "live": ("verify-dice", "bot"),
    "export": ("export",),
    "copy": ("copy-archive",),
    "events": ("ratings",),
    "ubgi": ("engine",),
    "train": ("train",),
    "analyse": ("analyse",),
}
"""Each module of ``referee.cli`` and the commands it adds (``add(commands)``)."""


class _Formatter(argparse.HelpFormatter):
    """argparse's help at the terminal's width, found as ``shutil.get_terminal_size`` finds
    it but without importing ``shutil`` (and with it zlib, bz2 and lzma), which argparse's
    own formatter does for every argument added: a few milliseconds of every command."""

    def __init__(self, prog: str) -> None:
        super().__init__(prog, width=terminal_columns() - 2)


def terminal_columns() -> int:
    """``$COLUMNS``, else the width of the terminal on standard output, else 80."""
    try:
        return int(os.environ["COLUMNS"])
    except (KeyError, ValueError):
        pass
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        return 80


class _Parser(argparse.ArgumentParser):
    """An argument parser with ``_Formatter``, as are its commands' (argparse makes them
    of its own class)."""

    def __init__(self, *arguments: Any, **options: Any) -> None:
        options.setdefault("formatter_class", _Formatter)
        super().__init__(*arguments, **options)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every command, or of ``command`` alone when it is known (a command
    run imports only its own module: a check's time is mostly its imports)."""
    parser = _Parser(
        prog="nardy-referee",
        description="Referee for backgammon (short nardy), long nardy and khachapuri.",
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"nardy-referee {__version__} (engine: {engine.CHOSEN.description()})",
    )
    commands = parser.add_subparsers(dest="command", required=True)
    named = [name for name, names in GROUPS.items() if command in names]
    for name in named or GROUPS:
        importlib.import_module(f"referee.cli.{name}").add(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    words = sys.argv[1:] if argv is None else list(argv)
    command = next((word for word in words if not word.startswith("-")), None)
    args = build_parser(command).parse_args(words)
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
