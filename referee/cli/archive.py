"""``tokens`` and ``recheck``: the archive's API tokens, and stored verdicts re-checked."""

from __future__ import annotations

import argparse
import sys

from referee.cli.common import EXIT_INVALID, EXIT_OK, add_database, storage_at
from referee.rules import engine
from referee.scopes import Scope


def add(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    tokens = commands.add_parser("tokens", help="manage the archive's API tokens")
    add_database(tokens)
    actions = tokens.add_subparsers(dest="action", required=True)
    create = actions.add_parser("create", help="create a token and print it once")
    create.add_argument("--scope", action="append", choices=tuple(Scope), required=True)
    create.add_argument("--name", help="a label to recognise the token by")
    actions.add_parser("list", help="list tokens (never their secrets)")
    revoke = actions.add_parser("revoke", help="revoke a token by id")
    revoke.add_argument("id", type=int)
    tokens.set_defaults(run=_tokens)
    recheck = commands.add_parser(
        "recheck", help="re-check stored matches of older rules revisions; print what changed"
    )
    recheck.add_argument("--all", action="store_true", help="re-check every stored match")
    add_database(recheck)
    recheck.set_defaults(run=_recheck)


def _tokens(args: argparse.Namespace) -> int:
    storage = storage_at(args.database)
    try:
        if args.action == "create":
            issued = storage.tokens.create(tuple(args.scope), args.name)
            print(issued.secret)
            print(
                f"token {issued.token.id} ({' '.join(issued.token.scopes)}):"
                " keep it, it is not shown again",
                file=sys.stderr,
            )
        elif args.action == "list":
            for token in storage.tokens.all():
                state = f"revoked {token.revoked_at}" if token.revoked_at else "active"
                name = token.name or "-"
                print(f"{token.id}\t{token.prefix}…\t{' '.join(token.scopes)}\t{name}\t{state}")
        elif not storage.tokens.revoke(args.id):
            print(f"nardy-referee: no active token {args.id}", file=sys.stderr)
            return EXIT_INVALID
    finally:
        storage.close()
    return EXIT_OK


def _recheck(args: argparse.Namespace) -> int:
    from referee.archive.recheck import recheck

    storage = storage_at(args.database)
    try:
        checked = changed = 0
        for change in recheck(storage, args.all, engine.CHOSEN):
            checked += 1
            if change.changed:
                changed += 1
                print(change.describe())
    finally:
        storage.close()
    print(f"{checked} match(es) re-checked, {changed} changed", file=sys.stderr)
    return EXIT_OK
