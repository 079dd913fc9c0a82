"""``copy-archive FROM TO``: an archive moved between backends (SQLite and PostgreSQL, either
way), every table row for row with its ids (matches, kept derived results, tokens as their
hashes, live matches with their logs and throws; events with their entrants, pairings,
byes and the announcements of their live matches to the bots; the ratings' ledger and
the ratings kept from it with each name's history), into an empty archive in one
transaction, then verified: each table's rows counted and checksummed on both sides, and
printed. What is not archive is not copied (``referee.storage.tables.NOT_ARCHIVE``: the
runs of ``recheck``, the service's clock, the claims on computations).

Copy an archive no server is writing to: the source is read again to verify the copy, so a
change made meanwhile is found (exit 1), never copied in part unseen.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from referee.cli.common import EXIT_BAD_INPUT, EXIT_INVALID, EXIT_OK, database_location
from referee.cli.progress import progress


def add(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    copy = commands.add_parser(
        "copy-archive",
        help="copy an archive into an empty one on another backend, verified table by table",
        description="Copy the archive FROM into the empty archive TO: a SQLite file's path or"
        " a postgresql:// URL each (a PostgreSQL database must exist; its tables are made)."
        " Every table is copied with its ids, then counted and checksummed on both sides."
        " Stop the servers writing to FROM first.",
    )
    copy.add_argument("source", metavar="FROM", type=database_location, help="the archive")
    copy.add_argument("target", metavar="TO", type=database_location, help="the empty copy")
    copy.set_defaults(run=_copy)


def _copy(args: argparse.Namespace) -> int:
    from referee.storage import backend_of, open_storage, prepare_storage
    from referee.storage.tables import TABLES, checksum

    source_backend, target_backend = backend_of(args.source), backend_of(args.target)
    if source_backend == "sqlite" and not Path(args.source).is_file():
        return _refuse("there is no archive at FROM (no such SQLite file)")
    if args.source == args.target:
        return _refuse("FROM and TO are the same archive")
    prepare_storage(args.source)  # an archive of an older version: its schema brought up
    prepare_storage(args.target)
    source, target = open_storage(args.source), open_storage(args.target)
    try:
        there = {table: n for table, n in target.tables.counts().items() if n}
        if there:
            rows = ", ".join(f"{n} in {table}" for table, n in there.items())
            return _refuse(f"TO is not empty ({rows}): copy into a new archive")
        with progress(sum(source.tables.counts().values()), "copying", "row") as bar:
            target.tables.load(lambda table: bar.over(source.tables.rows(table)))
        print(f"copied the {source_backend} archive into the {target_backend} archive:")
        print(f"{'table':<14} {'rows':>8}  sha256 of the rows")
        counts = (source.tables.counts(), target.tables.counts())
        different = []
        for table in TABLES:
            sums = (checksum(source.tables.rows(table)), checksum(target.tables.rows(table)))
            same = counts[0][table] == counts[1][table] and sums[0] == sums[1]
            verdict = "same" if same else f"DIFFERENT: TO has {counts[1][table]}, {sums[1]}"
            print(f"{table:<14} {counts[0][table]:>8}  {sums[0]}  {verdict}")
            if not same:
                different.append(table)
    finally:
        source.close()
        target.close()
    if different:
        print(
            f"nardy-referee: the copy differs in {', '.join(different)}: was FROM written to"
            " meanwhile? Copy again into a new archive.",
            file=sys.stderr,
        )
        return EXIT_INVALID
    print("every table copied and verified")
    return EXIT_OK


def _refuse(why: str) -> int:
    print(f"nardy-referee: copy-archive: {why}", file=sys.stderr)
    return EXIT_BAD_INPUT
