"""``ratings``: the FIBS ratings of events (EVENTS.md §8), and ``--recompute``, which makes
them anew from the archive: the ledger of rated matches read again from the stored
records of every rated event's finished pairings, every rating and history recomputed."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING

from referee.cli.common import EXIT_OK, add_database, storage_at
from referee.cli.progress import progress

if TYPE_CHECKING:
    from referee.storage.stores import Storage


def add(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    ratings = commands.add_parser(
        "ratings", help="print the events' FIBS ratings; --recompute: anew from the archive"
    )
    ratings.add_argument(
        "--recompute",
        action="store_true",
        help="first recompute every rating and history from the stored records of the rated"
        " events (after a restore, or a change of the rules); says on stderr what changed",
    )
    ratings.add_argument("--variant", help="one variant's ratings (default: every variant's)")
    ratings.add_argument(
        "--json", action="store_true", help="a JSON array as GET /v1/ratings answers"
    )
    add_database(ratings)
    ratings.set_defaults(run=_ratings)


def _ratings(args: argparse.Namespace) -> int:
    from referee.events import rated, views  # for the command that uses them

    storage = storage_at(args.database)
    try:
        if args.recompute:
            before = _table(storage)
            events = storage.tables.counts()["events"]
            with progress(events, "re-rating", "event") as bar:
                rated.rerate(storage, bar.over(rated.every_event(storage)))
            after = _table(storage)
            keys = before.keys() | after.keys()
            changed = sorted(key for key in keys if before.get(key) != after.get(key))
            for variant, name in changed:
                old, new = before.get((variant, name)), after.get((variant, name))
                print(f"{variant}\t{name}\t{_shown(old)} -> {_shown(new)}", file=sys.stderr)
            count = sum(len(storage.ratings.ledger(v)) for v in storage.ratings.variants())
            print(f"{count} rated match(es), {len(changed)} rating(s) changed", file=sys.stderr)
        variants = [args.variant] if args.variant else storage.ratings.variants()
        rows = [
            views.rating_json(variant, player)
            for variant in variants
            for player in rated.current(storage, variant).players
        ]
    finally:
        storage.close()
    if args.json:
        print(json.dumps(rows, indent=2))
    else:
        print("variant\tname\trating\texperience\tmatches")
        for row in rows:
            print(
                f"{row['variant']}\t{row['name']}\t{row['rating']:.2f}"
                f"\t{row['experience']}\t{row['matches']}"
            )
    return EXIT_OK


def _table(storage: Storage) -> dict[tuple[str, str], float]:
    """Every (variant, name)'s rating now."""
    from referee.events import rated

    return {
        (variant, player.name): player.rating
        for variant in storage.ratings.variants()
        for player in rated.current(storage, variant).players
    }


def _shown(rating: float | None) -> str:
    return "-" if rating is None else f"{rating:.2f}"
