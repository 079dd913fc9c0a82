"""``tokens`` and ``recheck``: the archive's API tokens, and stored verdicts re-checked."""

from __future__ import annotations

import argparse
import sys

from referee.cli.common import EXIT_INVALID, EXIT_OK, add_database, storage_at
from referee.cli.progress import progress
from referee.rules import engine
from referee.scopes import Scope


def add(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    tokens = commands.add_parser("tokens", help="manage the archive's API tokens")
    add_database(tokens)
    actions = tokens.add_subparsers(dest="action", required=True)
    create = actions.add_parser("create", help="create a token and print it once")
    scopes = [str(scope) for scope in Scope]  # shown and matched as the names they are
    create.add_argument("--scope", action="append", choices=scopes, required=True)
    create.add_argument("--name", help="a label to recognise the token by")
    listing = actions.add_parser("list", help="list tokens (never their secrets)")
    revoke = actions.add_parser("revoke", help="revoke a token by id")
    revoke.add_argument("id", type=int)
    for action in (create, listing, revoke):  # before the action or after it, alike
        add_database(action, inherited=True)
    tokens.set_defaults(run=_tokens)
    recheck = commands.add_parser(
        "recheck",
        help="re-check stored matches of older rules revisions; print what changed",
        description="Re-check stored matches of older rules revisions (--all: every match)"
        " and print each whose validity, winner or points changed. Processes started while"
        " one is under way, on any hosts, share its run, batch by batch; a run stopped part"
        " way goes on at the next start.",
    )
    recheck.add_argument("--all", action="store_true", help="re-check every stored match")
    recheck.add_argument(
        "--batch",
        type=_positive,
        default=None,
        help="matches claimed at a time by a run this command begins (default 50)",
    )
    add_database(recheck)
    recheck.set_defaults(run=_recheck)


def _tokens(args: argparse.Namespace) -> int:
    storage = storage_at(args.database, create=args.action == "create")
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
            print("id\tprefix\tscopes\tname\tstate")
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


def _positive(text: str) -> int:
    if not text.isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"not a positive whole number: {text[:20]!r}")
    return int(text)


def _recheck(args: argparse.Namespace) -> int:
    from referee.archive import recheck

    storage = storage_at(args.database)
    try:
        run = recheck.start(storage, args.all, args.batch or recheck.BATCH_SIZE)
        checked = changed = 0
        done = storage.rechecks.progress(run.id).rechecked
        with progress(run.matches, "re-checking", "match", initial=done) as bar:
            for change in recheck.recheck(storage, args.all, engine.CHOSEN, run):
                checked += 1
                bar.advance()
                if change.changed:
                    changed += 1
                    bar.echo(change.describe())
        state = storage.rechecks.progress(run.id)
    finally:
        storage.close()
    print(f"{checked} match(es) re-checked, {changed} changed", file=sys.stderr)
    how = "finished" if state.finished else "under way in other processes"
    print(
        f"run {run.id}: {state.rechecked} of {state.matches} match(es) re-checked,"
        f" {state.changed} changed; {how}",
        file=sys.stderr,
    )
    return EXIT_OK
