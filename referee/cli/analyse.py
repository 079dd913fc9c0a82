"""``analyse``: record files analysed by GNU Backgammon without a server (ANALYSIS.md §4),
each printed as a table of both players' figures, or as the analysis's JSON; exit 0 when
every record was analysed, 2 when one could not be (read, or analysed: why is said)."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from notation.records.formats import NAMES
from referee.cli.common import EXIT_BAD_INPUT, EXIT_OK
from referee.cli.progress import Progress, progress

if TYPE_CHECKING:
    from referee.analysis import Analysis
    from referee.analysis.statistics import PlayerStats

PR_NOTE = "PR: gnubg's judgement on eXtreme Gammon's scale (not XG's own figure)."


def add(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    analyse = commands.add_parser(
        "analyse", help="analyse backgammon records with GNU Backgammon (gnubg)"
    )
    analyse.add_argument("paths", nargs="+", type=Path, help="record files or directories")
    analyse.add_argument("--plies", type=int, help="both plies at once (default: 2)")
    analyse.add_argument("--chequer-plies", type=int, help="plies for chequer play (0-3)")
    analyse.add_argument("--cube-plies", type=int, help="plies for cube decisions (0-3)")
    analyse.add_argument("--json", action="store_true", help="print each analysis's JSON")
    analyse.add_argument("--format", choices=NAMES, help="the records' format (default: detected)")
    analyse.add_argument("--gnubg", help="gnubg's executable (default: found on the PATH)")
    analyse.add_argument(
        "--timeout", type=float, help="seconds gnubg may take per record (default: by length)"
    )
    analyse.set_defaults(run=_analyse)


def _analyse(args: argparse.Namespace) -> int:
    from referee.adjudication.budget import OFFLINE
    from referee.analysis import Settings, analyse
    from referee.cli.check import record_files, record_parts
    from referee.errors import RefereeError

    default = 2 if args.plies is None else args.plies
    settings = Settings(
        default if args.chequer_plies is None else args.chequer_plies,
        default if args.cube_plies is None else args.cube_plies,
    )
    files = record_files(args.paths)
    status = EXIT_OK
    with progress(len(files), "analysing", "file") as bar:
        for found in record_parts(files, args, bar):
            if found is None:
                status = EXIT_BAD_INPUT
                continue
            label, part, _ = found
            try:
                analysis = analyse(
                    part.text, settings, program=args.gnubg, timeout=args.timeout, limits=OFFLINE
                )
            except RefereeError as error:  # the analysis's refusals among them
                bar.echo(
                    f"nardy-referee: {label}: error ({error.code}): {error.message}", sys.stderr
                )
                status = EXIT_BAD_INPUT
                continue
            _print(bar, str(label), analysis, args.json)
    return status


def _print(bar: Progress, label: str, analysis: Analysis, as_json: bool) -> None:
    if as_json:
        bar.echo(json.dumps({"file": label, "status": "done", **analysis.to_json()}))
    else:
        bar.echo(describe_analysis(label, analysis))


ROWS = (
    ("PR", "pr"),
    ("Overall error rate (mEMG)", "overall.error_rate_memg"),
    ("Overall rating", "overall.rating"),
    ("Chequer play error rate (mEMG)", "chequer.error_rate_memg"),
    ("Chequer play error total (EMG)", "chequer.error_total_emg"),
    ("Chequer play rating", "chequer.rating"),
    ("Moves", "chequer.total_moves"),
    ("Unforced moves", "chequer.unforced_moves"),
    ("Marked doubtful (?!)", "chequer.doubtful"),
    ("Marked bad (?)", "chequer.bad"),
    ("Marked very bad (??)", "chequer.very_bad"),
    ("Cube error rate (mEMG)", "cube.error_rate_memg"),
    ("Cube error total (EMG)", "cube.error_total_emg"),
    ("Cube rating", "cube.rating"),
    ("Cube decisions, close", "cube.close_decisions"),
    ("Luck rate (mEMG)", "luck.luck_rate_memg"),
    ("Luck rating", "luck.rating"),
)
"""The table's rows: a heading and where the figure is in a player's statistics."""


def describe_analysis(label: str, analysis: Analysis) -> str:
    """A table for people: a header line, then one row a figure, one column a player
    (the record's left column first), then what PR is."""
    settings = analysis.settings
    lines = [
        f"{label}: analysed by {analysis.engine.name} {analysis.engine.version}"
        f" (chequer play {settings.chequer_plies}-ply, cube {settings.cube_plies}-ply,"
        f" {len(analysis.games)} game{'s' if len(analysis.games) != 1 else ''})"
    ]
    names = (analysis.names.w or "White", analysis.names.b or "Black")
    rows = [
        (
            heading,
            _cell(_figure(analysis.players.w, path)),
            _cell(_figure(analysis.players.b, path)),
        )
        for heading, path in ROWS
    ]
    width = max(len(text) for row in [("", *names), *rows] for text in row[1:]) + 2
    heading_width = max(len(heading) for heading, _ in ROWS) + 2
    for heading, white, black in [("", *names), *rows]:
        lines.append(f"  {heading:<{heading_width}}{white:>{width}}{black:>{width}}")
    lines.append(f"  {PR_NOTE}")
    return "\n".join(lines)


def _cell(value: Any) -> str:
    if value is None:
        return "n/a"
    if isinstance(value, float):
        return f"{value:.3f}".rstrip("0").rstrip(".") if value % 1 else f"{value:.1f}"
    return str(value)


def _figure(stats: PlayerStats, path: str) -> Any:
    """The figure at ``path`` (``section.name``), None where gnubg printed no section."""
    value: Any = stats
    for name in path.split("."):
        value = None if value is None else getattr(value, name)
    return value
