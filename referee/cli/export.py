"""``export``: a stored match in another format (GNU Backgammon's SGF)."""

from __future__ import annotations

import argparse
import sys

from referee.cli.common import EXIT_OK, add_database, storage_at


def add(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    export = commands.add_parser(
        "export", help="write a stored match in another format (sgf: GNU Backgammon's SGF)"
    )
    export.add_argument("--format", choices=("sgf",), default="sgf", help="default: sgf")
    export.add_argument("id", type=int, help="the stored match's id")
    add_database(export)
    export.set_defaults(run=_export)


def _export(args: argparse.Namespace) -> int:
    from referee.archive.sgf import match_sgf

    storage = storage_at(args.database)
    try:
        text = match_sgf(storage, args.id)  # a RefereeError exits 2 with its code (main)
    finally:
        storage.close()
    sys.stdout.write(text)
    return EXIT_OK
