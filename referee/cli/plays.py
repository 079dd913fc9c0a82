"""``legal`` and ``play``: every legal play of a position, the verdict on one play."""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from referee.cli.common import EXIT_INVALID, EXIT_OK, rules_option
from referee.rules import engine
from referee.rules.words import play_words

if TYPE_CHECKING:
    from referee.plays import PlaysService


def add(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    legal = commands.add_parser("legal", help="print every legal play of a position")
    legal.add_argument("position", help='position string with dice, e.g. "... w 52 ..."')
    legal.set_defaults(run=_legal)
    play = commands.add_parser("play", help="judge one play in a position")
    play.add_argument("position", help="position string with dice")
    play.add_argument("play", help='the play, e.g. "24/18 13/11" or "Cannot Move"')
    play.set_defaults(run=_play)
    for command in (legal, play):
        command.add_argument("--rules", type=rules_option, default={}, help="options: k=v,k=v")
        command.add_argument("--json", action="store_true", help="print the endpoint's JSON")


def _plays(args: argparse.Namespace) -> PlaysService:
    from referee.plays import PlaysService  # the judge only for the plays commands

    return PlaysService(args.position, args.rules, engine.CHOSEN)


def _legal(args: argparse.Namespace) -> int:
    plays = _plays(args).legal()
    if args.json:
        print(json.dumps({"count": len(plays), "plays": [p.to_json() for p in plays]}))
        return EXIT_OK
    width = max((len(play_words(play.play)) for play in plays), default=0)
    for play in plays:
        print(f"{play_words(play.play):<{width}}  {play.position}")
    print(f"{len(plays)} legal play{'s' if len(plays) != 1 else ''}")
    return EXIT_OK


def _play(args: argparse.Namespace) -> int:
    answer = _plays(args).check(args.play)
    if args.json:
        print(json.dumps(answer.to_json()))
    elif answer.legal:
        print(f"legal: {play_words(answer.play or '')}")
        print(f"position after: {answer.position}")
        for warning in answer.warnings:
            print(f"warning ({warning.code}): {warning.message}")
    else:
        assert answer.reason is not None
        print(f"illegal ({answer.reason.code}): {answer.reason.message}")
        if answer.alternatives:
            print("legal plays include: " + ", ".join(map(play_words, answer.alternatives)))
    return EXIT_OK if answer.legal else EXIT_INVALID
