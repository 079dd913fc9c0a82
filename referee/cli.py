"""The ``nardy-referee`` command: list legal plays, judge a play, serve."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence

from notation.errors import NotationError
from notation.options import OptionValue, parse_rules_text
from referee.errors import RefereeError
from referee.plays import PlaysService

EXIT_OK, EXIT_INVALID, EXIT_BAD_INPUT = 0, 1, 2


def _rules(text: str) -> dict[str, OptionValue]:
    try:
        return parse_rules_text(text)
    except NotationError as error:
        raise argparse.ArgumentTypeError(error.message) from None


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="nardy-referee",
        description="Referee for backgammon (short nardy), long nardy and khachapuri.",
    )
    commands = parser.add_subparsers(dest="command", required=True)

    legal = commands.add_parser("legal", help="print every legal play of a position")
    legal.add_argument("position", help='position string with dice, e.g. "... w 52 ..."')
    play = commands.add_parser("play", help="judge one play in a position")
    play.add_argument("position", help="position string with dice")
    play.add_argument("play", help='the play, e.g. "24/18 13/11" or "Cannot Move"')
    for command in (legal, play):
        command.add_argument("--rules", type=_rules, default={}, help="options: k=v,k=v")
        command.add_argument("--json", action="store_true", help="print the endpoint's JSON")
    return parser


def _legal(args: argparse.Namespace) -> int:
    plays = PlaysService(args.position, args.rules).legal()
    if args.json:
        print(json.dumps({"count": len(plays), "plays": [p.to_json() for p in plays]}))
        return EXIT_OK
    width = max((len(play.play) for play in plays), default=0)
    for play in plays:
        print(f"{play.play or '(no move)':<{width}}  {play.position}")
    print(f"{len(plays)} legal play{'s' if len(plays) != 1 else ''}")
    return EXIT_OK


def _play(args: argparse.Namespace) -> int:
    answer = PlaysService(args.position, args.rules).check(args.play)
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


COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {"legal": _legal, "play": _play}


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return COMMANDS[args.command](args)
    except RefereeError as error:
        print(f"nardy-referee: error ({error.code}): {error.message}", file=sys.stderr)
        return EXIT_BAD_INPUT


if __name__ == "__main__":
    sys.exit(main())
