"""The ``nardy-referee`` command: legal plays, judging a play, checking records, drawing a
position, tokens."""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from notation.errors import NotationError
from notation.options import OptionValue, parse_rules_text
from referee import __version__
from referee.adjudication import Verdict, check_record
from referee.adjudication.budget import OFFLINE
from referee.errors import RefereeError
from referee.rules import engine
from referee.scopes import Scope
from vocabulary import Side

if TYPE_CHECKING:
    from referee.live.bot import RandomStrategy
    from referee.plays import PlaysService
    from referee.storage.stores import Storage

EXIT_OK, EXIT_INVALID, EXIT_BAD_INPUT = 0, 1, 2
EXIT_PIPE_CLOSED = 141
"""The reader of the output went away (``check ... | head``): the shell's code for SIGPIPE."""
DEFAULT_DATABASE = "var/referee.sqlite3"
SCOPES = tuple(Scope)


def _rules(text: str) -> dict[str, OptionValue]:
    try:
        return parse_rules_text(text)
    except NotationError as error:
        raise argparse.ArgumentTypeError(error.message) from None


def _strategy(name: str) -> type[RandomStrategy]:
    from referee.live.bot import STRATEGIES  # the live client only for the command that uses it

    try:
        return STRATEGIES[name]
    except KeyError:
        raise argparse.ArgumentTypeError(
            f"unknown strategy {name!r} (known: {', '.join(sorted(STRATEGIES))})"
        ) from None


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

    legal = commands.add_parser("legal", help="print every legal play of a position")
    legal.add_argument("position", help='position string with dice, e.g. "... w 52 ..."')
    play = commands.add_parser("play", help="judge one play in a position")
    play.add_argument("position", help="position string with dice")
    play.add_argument("play", help='the play, e.g. "24/18 13/11" or "Cannot Move"')
    check = commands.add_parser("check", help="adjudicate match records")
    check.add_argument("paths", nargs="+", type=Path, help="record files or directories")
    check.add_argument("--variant", help="overrides the records' [Variation] tag")
    check.add_argument("--mode", choices=("strict", "condone"), default="strict")
    for command in (legal, play, check):
        command.add_argument("--rules", type=_rules, default={}, help="options: k=v,k=v")
        command.add_argument("--json", action="store_true", help="print the endpoint's JSON")
    draw = commands.add_parser("draw", help="print a position's board as SVG")
    draw.add_argument("position", help="position string")
    draw.add_argument("--orientation", choices=("w", "b"), default="w", help="whose view")
    draw.add_argument("--size", type=int, help="width in pixels (default: scalable)")
    tokens = commands.add_parser("tokens", help="manage the archive's API tokens")
    recheck = commands.add_parser(
        "recheck", help="re-check stored matches of older rules revisions; print what changed"
    )
    recheck.add_argument("--all", action="store_true", help="re-check every stored match")
    for command in (tokens, recheck):
        command.add_argument(
            "--database",
            default=os.environ.get("NARDY_REFEREE_DATABASE", DEFAULT_DATABASE),
            help="the archive file (default: $NARDY_REFEREE_DATABASE or var/referee.sqlite3)",
        )
    actions = tokens.add_subparsers(dest="action", required=True)
    create = actions.add_parser("create", help="create a token and print it once")
    create.add_argument("--scope", action="append", choices=SCOPES, required=True)
    create.add_argument("--name", help="a label to recognise the token by")
    actions.add_parser("list", help="list tokens (never their secrets)")
    revoke = actions.add_parser("revoke", help="revoke a token by id")
    revoke.add_argument("id", type=int)
    verify = commands.add_parser("verify-dice", help="recompute a live match's dice proof")
    verify.add_argument("proof", help="a proof file, or its URL (.../v1/live/ID/dice)")
    bot = commands.add_parser("bot", help="play a live match as a bot (the reference bot)")
    bot.add_argument("--url", required=True, help="the match, e.g. http://host:8000/v1/live/7")
    bot.add_argument("--token", required=True, help="the bot's token (scope play)")
    bot.add_argument(
        "--strategy", type=_strategy, default="random", help="the bot's strategy (default: random)"
    )
    bot.add_argument("--seed", default="", help="the client seed for the dice")
    return parser


def _verify_dice(args: argparse.Namespace) -> int:
    import urllib.request  # HTTP and hashing only for the commands that use them

    from referee.live.dice import verify_proof

    try:
        if args.proof.startswith(("http://", "https://")):
            with urllib.request.urlopen(args.proof, timeout=60) as response:
                proof = json.loads(response.read())
        else:
            proof = json.loads(Path(args.proof).read_text())
        live_id = int(proof["id"])
    except (OSError, ValueError, KeyError, TypeError) as error:
        print(f"nardy-referee: cannot read the proof: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    problem = verify_proof(proof, live_id)
    if problem is not None:
        print(f"nardy-referee: live match {live_id}: {problem.message}", file=sys.stderr)
        return EXIT_INVALID
    print(f"live match {live_id}: {len(proof['throws'])} throws verified")
    return EXIT_OK


def _bot(args: argparse.Namespace) -> int:
    from referee.live.bot import LiveApiError, LiveClient, play_match

    strategy = args.strategy()
    try:
        final = play_match(LiveClient(args.url.rstrip("/"), args.token), strategy, args.seed)
    except (LiveApiError, OSError) as error:
        print(f"nardy-referee: bot: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    print(json.dumps({key: final[key] for key in ("id", "status", "score", "winner")}))
    return EXIT_OK


def _plays(args: argparse.Namespace) -> PlaysService:
    from referee.plays import PlaysService  # the judge only for the plays commands

    return PlaysService(args.position, args.rules, engine.CHOSEN)


def _legal(args: argparse.Namespace) -> int:
    plays = _plays(args).legal()
    if args.json:
        print(json.dumps({"count": len(plays), "plays": [p.to_json() for p in plays]}))
        return EXIT_OK
    width = max((len(play.play) for play in plays), default=0)
    for play in plays:
        print(f"{play.play or '(no move)':<{width}}  {play.position}")
    print(f"{len(plays)} legal play{'s' if len(plays) != 1 else ''}")
    return EXIT_OK


def _play(args: argparse.Namespace) -> int:
    answer = _plays(args).check(args.play)
    if args.json:
        print(json.dumps(answer.to_json()))
    elif answer.legal:
        print(f"legal: {answer.play or '(no move)'}")
        print(f"position after: {answer.position}")
        for warning in answer.warnings:
            print(f"warning ({warning.code}): {warning.message}")
    else:
        assert answer.reason is not None
        print(f"illegal ({answer.reason.code}): {answer.reason.message}")
        if answer.alternatives:
            print(
                "legal plays include: " + ", ".join(p or "(no move)" for p in answer.alternatives)
            )
    return EXIT_OK if answer.legal else EXIT_INVALID


RECORD_SUFFIXES = (".mat", ".txt")


def record_files(paths: Sequence[Path]) -> list[Path]:
    """The files named, and every .mat/.txt file under the directories named, in order."""
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files.extend(sorted(p for p in path.rglob("*") if p.suffix.lower() in RECORD_SUFFIXES))
        else:
            files.append(path)
    return files


def _check(args: argparse.Namespace) -> int:
    files = record_files(args.paths)
    progress = len(files) > 3 and sys.stderr.isatty()
    status = EXIT_OK
    for number, path in enumerate(files, start=1):
        if progress:
            print(f"\r[{number}/{len(files)}] {path.name[:50]:<50}", end="", file=sys.stderr)
        try:
            text = path.read_text(encoding="utf-8-sig")
            verdict = check_record(
                text, args.variant, args.mode, args.rules, OFFLINE, engine.CHOSEN
            )
        except (OSError, UnicodeDecodeError) as error:
            print(f"nardy-referee: {path}: cannot read: {error}", file=sys.stderr)
            status = EXIT_BAD_INPUT
            continue
        except RefereeError as error:
            print(f"nardy-referee: {path}: error ({error.code}): {error.message}", file=sys.stderr)
            status = EXIT_BAD_INPUT
            continue
        if args.json:
            print(json.dumps({"file": str(path), **verdict.to_json()}))
        else:
            print(describe_verdict(path, verdict))
        if not verdict.valid and status == EXIT_OK:
            status = EXIT_INVALID
    if progress:
        print(file=sys.stderr)
    return status


def describe_verdict(path: Path, verdict: Verdict) -> str:
    """A readable verdict: one line per game, then its errors and warnings with lines."""
    match = verdict.match
    length = f"{match.length} point match" if match.length else "money session"
    lines = [f"{path}: {'valid' if verdict.valid else 'INVALID'} ({verdict.variant}, {length})"]
    for issue in verdict.warnings:
        lines.append(f"  warning line {issue.line}: {issue.code}: {issue.message}")
    for game, after in zip(verdict.games, match.scores_after, strict=True):
        result = game.result
        winner = "nobody" if result.winner is None else match.players["wb".index(result.winner)]
        kind = f" {result.kind}" if result.kind else ""
        lines.append(
            f"  game {game.index}: {winner} wins {result.points} ({result.termination}{kind}),"
            f" score {after[0]}-{after[1]}"
        )
        for label, issues in (("ERROR", game.errors), ("warning", game.warnings)):
            for issue in issues:
                lines.append(f"    {label} line {issue.line}: {issue.code}: {issue.message}")
    if match.winner is not None:
        lines.append(f"  match won by {match.players['wb'.index(match.winner)]}")
    return "\n".join(lines)


def _draw(args: argparse.Namespace) -> int:
    from referee.board_svg import board_svg  # XML only for the command that uses it

    print(board_svg(args.position, orientation=Side(args.orientation), size=args.size))
    return EXIT_OK


def _storage_at(location: str) -> Storage:
    """The storage at ``location``, created and migrated first when it must be."""
    from referee.storage import open_storage, prepare_storage  # for the commands that use it

    prepare_storage(location)
    return open_storage(location)


def _tokens(args: argparse.Namespace) -> int:
    storage = _storage_at(args.database)
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

    storage = _storage_at(args.database)
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


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "legal": _legal,
    "play": _play,
    "check": _check,
    "draw": _draw,
    "tokens": _tokens,
    "recheck": _recheck,
    "verify-dice": _verify_dice,
    "bot": _bot,
}


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return COMMANDS[args.command](args)
    except RefereeError as error:
        print(f"nardy-referee: error ({error.code}): {error.message}", file=sys.stderr)
        return EXIT_BAD_INPUT
    except BrokenPipeError:
        # Stop quietly, as Unix tools do; what is still buffered goes nowhere at exit.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_PIPE_CLOSED


if __name__ == "__main__":
    sys.exit(main())
