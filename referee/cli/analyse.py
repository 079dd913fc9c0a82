"""``analyse``: record files analysed by GNU Backgammon without a server (ANALYSIS.md §4),
each printed as a table of both players' figures, or as the analysis's JSON; exit 0 when
every record was analysed, 2 when one could not be (read, or analysed: why is said).
``analyse --worker``: a worker making the archive's queued analyses, on any host that
reaches the archive, a line for each."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

from notation.records.formats import NAMES
from referee.cli.common import EXIT_BAD_INPUT, EXIT_OK, add_database
from referee.cli.progress import Progress, progress

if TYPE_CHECKING:
    from referee.analysis import Analysis
    from referee.analysis.gnubg import Gnubg
    from referee.archive.analysis_worker import Made


def add(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    analyse = commands.add_parser(
        "analyse",
        help="analyse records: backgammon with GNU Backgammon (gnubg), the nardy games with"
        " the builtin engine",
    )
    analyse.add_argument(
        "paths", nargs="*", type=Path, help="record files or directories (not with --worker)"
    )
    analyse.add_argument("--plies", type=int, help="both plies at once (default: 2)")
    analyse.add_argument("--chequer-plies", type=int, help="plies for chequer play (0-3)")
    analyse.add_argument("--cube-plies", type=int, help="plies for cube decisions (0-3)")
    analyse.add_argument("--json", action="store_true", help="print each analysis's JSON")
    analyse.add_argument("--format", choices=NAMES, help="the records' format (default: detected)")
    analyse.add_argument("--gnubg", help="gnubg's executable (default: found on the PATH)")
    analyse.add_argument(
        "--timeout", type=float, help="seconds gnubg may take per record (default: by length)"
    )
    worker = analyse.add_argument_group(
        "worker", "make the archive's queued analyses (the API's), one gnubg at a time"
    )
    worker.add_argument("--worker", action="store_true", help="work for the archive")
    add_database(analyse)
    worker.add_argument(
        "--lease", type=_seconds, default=30.0, help="seconds an analysis is held unrenewed"
    )
    worker.add_argument(
        "--poll", type=_seconds, default=2.0, help="seconds between looks while idle"
    )
    worker.add_argument(
        "--until-idle", action="store_true", help="stop once no analysis is waiting"
    )
    analyse.set_defaults(run=_analyse)


def _seconds(text: str) -> float:
    try:
        value = float(text)
    except ValueError:
        value = 0.0
    if not 0 < value <= 3600:
        raise argparse.ArgumentTypeError(f"not a number of seconds up to 3600: {text[:20]!r}")
    return value


def _analyse(args: argparse.Namespace) -> int:
    if args.worker == bool(args.paths):
        print("nardy-referee: analyse takes record files, or --worker alone", file=sys.stderr)
        return EXIT_BAD_INPUT
    if args.worker:
        return _work(args)
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
    with kept_gnubg(args.gnubg) as gnubg, progress(len(files), "analysing", "file") as bar:
        for found in record_parts(files, args, bar):
            if found is None:
                status = EXIT_BAD_INPUT
                continue
            label, part, _ = found
            try:
                analysis = analyse(
                    part.text,
                    settings,
                    program=args.gnubg,
                    timeout=args.timeout,
                    limits=OFFLINE,
                    gnubg=gnubg,
                )
            except RefereeError as error:  # the analysis's refusals among them
                bar.echo(
                    f"nardy-referee: {label}: error ({error.code}): {error.message}", sys.stderr
                )
                status = EXIT_BAD_INPUT
                continue
            _print(bar, str(label), analysis, args.json)
    return status


@contextmanager
def kept_gnubg(program: str | None) -> Iterator[Gnubg | None]:
    """One gnubg kept running for every record of the command, stopped at its end; None
    when gnubg is not found (each backgammon record then says so, the nardy ones need
    none)."""
    from referee.analysis.errors import EngineMissingError
    from referee.analysis.gnubg import Gnubg, find_gnubg

    try:
        found = find_gnubg(program)
    except EngineMissingError:
        yield None
        return
    with Gnubg(found) as gnubg:
        yield gnubg


def _work(args: argparse.Namespace) -> int:
    """Make the archive's queued analyses until stopped (SIGTERM, Ctrl-C: the analysis in
    hand goes back to the queue) or, ``--until-idle``, until none waits."""
    import signal
    import threading

    from referee.analysis.gnubg import find_gnubg, stop_now
    from referee.archive.analysis_worker import Worker
    from referee.cli.common import storage_at
    from referee.storage import backend_of

    program = find_gnubg(args.gnubg)  # none: engine_missing, and nothing is claimed
    storage_at(args.database).close()
    worker = Worker(args.database, program, lease_seconds=args.lease)
    where = args.database if backend_of(args.database) == "sqlite" else "PostgreSQL"
    print(
        f"nardy-referee: worker {worker.owner} making the analyses of {where} with {program}",
        file=sys.stderr,
        flush=True,
    )

    def stopped(number: int, frame: object) -> None:
        stop_now()  # KeyboardInterrupt, once gnubg is known if it is being started

    signal.signal(signal.SIGTERM, stopped)
    signal.signal(signal.SIGINT, stopped)
    try:
        count = worker.run(
            threading.Event(),
            lambda done: print(made_line(done, args.json), flush=True),
            args.until_idle,
            args.poll,
        )
    except KeyboardInterrupt:
        print("nardy-referee: worker stopped", file=sys.stderr)
        return EXIT_OK
    made = f"{count} analysis" if count == 1 else f"{count} analyses"
    print(f"nardy-referee: {made} made, none waits", file=sys.stderr)
    return EXIT_OK


def made_line(done: Made, as_json: bool) -> str:
    """One analysis a worker made: a line for people, or its JSON."""
    from referee.storage.model.analyses import Failed

    claimed, outcome = done.claimed, done.outcome
    status = "failed" if isinstance(outcome, Failed) else "done"
    problem = outcome.problem if isinstance(outcome, Failed) else None
    if as_json:
        return json.dumps(
            {
                "id": claimed.id,
                "match_id": claimed.match_id,
                "status": status,
                "stored": done.stored,
                "attempts": claimed.attempts,
                "seconds": round(done.seconds, 3),
                "problem": problem,
            }
        )
    plies = f"{claimed.chequer_plies}/{claimed.cube_plies}-ply"
    said = f"analysis {claimed.id} of match {claimed.match_id} ({plies}): {status}"
    if problem is not None:
        said += f" ({problem['code']}: {problem['detail']})"
    said += f" in {done.seconds:.1f} s"
    return said if done.stored else f"{said}, not stored: another worker had taken it"


def _print(bar: Progress, label: str, analysis: Analysis, as_json: bool) -> None:
    if as_json:
        bar.echo(json.dumps({"file": label, "status": "done", **analysis.to_json()}))
    else:
        bar.echo(describe_analysis(label, analysis))


def describe_analysis(label: str, analysis: Analysis) -> str:
    """A table for people: a header line, then one row a figure, one column a player
    (the record's left column first), then what PR is."""
    from referee.analysis.table import ROWS, cell, figure, pr_note

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
            cell(figure(analysis.players.w, path)),
            cell(figure(analysis.players.b, path)),
        )
        for heading, path in ROWS
    ]
    width = max(len(text) for row in [("", *names), *rows] for text in row[1:]) + 2
    heading_width = max(len(heading) for heading, _ in ROWS) + 2
    for heading, white, black in [("", *names), *rows]:
        lines.append(f"  {heading:<{heading_width}}{white:>{width}}{black:>{width}}")
    lines.append(f"  {pr_note(analysis.engine.name)}")
    return "\n".join(lines)
