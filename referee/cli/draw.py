"""``draw``: a position's board as SVG."""

from __future__ import annotations

import argparse

from referee.cli.common import EXIT_OK
from vocabulary import Side


def add(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    draw = commands.add_parser("draw", help="print a position's board as SVG")
    draw.add_argument("position", help="position string")
    draw.add_argument("--orientation", choices=("w", "b"), default="w", help="whose view")
    draw.add_argument("--size", type=int, help="width in pixels (default: scalable)")
    draw.set_defaults(run=_draw)


def _draw(args: argparse.Namespace) -> int:
    from referee.board_svg import board_svg  # XML only for the command that uses it

    print(board_svg(args.position, orientation=Side(args.orientation), size=args.size))
    return EXIT_OK
