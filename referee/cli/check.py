"""``check``: adjudicate record files, print each verdict; the exit code says how it went:
0 every record valid (and, with ``--require-complete``, complete), 1 one is not, 2 one
cannot be read."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

from notation.records.formats import FORMATS, MAT, NAMES, MatchPart
from referee.adjudication import Verdict, check_record
from referee.adjudication.budget import OFFLINE
from referee.adjudication.formats import RecordTexts, binary_format, binary_text, record_texts
from referee.cli.common import EXIT_BAD_INPUT, EXIT_INVALID, EXIT_OK, rules_option
from referee.cli.progress import Progress, progress
from referee.errors import RefereeError
from referee.rules import engine
from referee.rules.words import result_words

RECORD_SUFFIXES = tuple(suffix for found in FORMATS for suffix in found.suffixes)
BAR_FROM = 4
"""Checking this many files or more shows a bar (on a terminal)."""


def add(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    check = commands.add_parser("check", help="adjudicate match records")
    check.add_argument("paths", nargs="+", type=Path, help="record files or directories")
    check.add_argument("--variant", help="overrides the records' [Variation] tag")
    check.add_argument("--mode", choices=("strict", "condone"), default="strict")
    check.add_argument("--rules", type=rules_option, default={}, help="options: k=v,k=v")
    check.add_argument(
        "--format",
        choices=NAMES,
        help="the records' format (default: each file's, detected from its content)",
    )
    check.add_argument("--json", action="store_true", help="print the endpoint's JSON")
    check.add_argument(
        "--require-complete",
        action="store_true",
        help="exit 1 for a record that does not run to the end of its match, valid or not",
    )
    check.set_defaults(run=_check)


def record_files(paths: Sequence[Path]) -> list[Path]:
    """The files named, and every record file (.mat, .txt, .sgf, .xg...) under the directories
    named, in order."""
    files: list[Path] = []
    for path in paths:
        if path.is_dir():
            files.extend(sorted(p for p in path.rglob("*") if p.suffix.lower() in RECORD_SUFFIXES))
        else:
            files.append(path)
    return files


def _check(args: argparse.Namespace) -> int:
    files = record_files(args.paths)
    status = EXIT_OK
    with progress(len(files), "checking", "file", least=BAR_FROM) as bar:
        for found in record_parts(files, args, bar):
            if found is None:
                status = EXIT_BAD_INPUT
                continue
            label, part, name = found
            status = _checked(args, label, part, name, status, bar)
    return status


def record_parts(
    files: Sequence[Path], args: argparse.Namespace, bar: Progress
) -> Iterator[tuple[Path, MatchPart, str] | None]:
    """Each record of ``files``, labelled (``FILE#2`` for the second match of a file of
    several), with its format's name; None for a file that cannot be read (said on
    stderr). The bar advances a file at a time."""
    for path in files:
        texts = read_record_file(path, args, bar)
        bar.advance()
        if texts is None:
            yield None
            continue
        for number, part in enumerate(texts.parts, start=1):
            label = path if texts.count == 1 else Path(f"{path}#{number}")
            yield label, part, texts.format.name


def read_record_file(path: Path, args: argparse.Namespace, bar: Progress) -> RecordTexts | None:
    """The records of one file, or None when it cannot be read (said on stderr)."""
    try:
        data = path.read_bytes()
        binary = binary_format(data, args.format)
        if binary is not None:
            return record_texts(binary_text(binary, data, OFFLINE), MAT.name)
        return record_texts(data.decode("utf-8-sig"), args.format)
    except (OSError, UnicodeDecodeError) as error:
        bar.echo(f"nardy-referee: {path}: cannot read: {error}", sys.stderr)
    except RefereeError as error:
        bar.echo(f"nardy-referee: {path}: error ({error.code}): {error.message}", sys.stderr)
    return None


def _checked(
    args: argparse.Namespace, path: Path, part: MatchPart, found: str, status: int, bar: Progress
) -> int:
    """Check one record (a file, or one match of a file of several), print its verdict;
    the exit status so far, made worse by this record when it is."""
    try:
        verdict = check_record(
            part.text, args.variant, args.mode, args.rules, OFFLINE, engine.CHOSEN, found, part.line
        )
    except RefereeError as error:
        bar.echo(f"nardy-referee: {path}: error ({error.code}): {error.message}", sys.stderr)
        return EXIT_BAD_INPUT
    if args.json:
        bar.echo(json.dumps({"file": str(path), **verdict.to_json()}))
    else:
        bar.echo(describe_verdict(path, verdict))
    refused = not verdict.valid or (args.require_complete and not verdict.match.complete)
    return EXIT_INVALID if refused and status == EXIT_OK else status


def describe_verdict(path: Path, verdict: Verdict) -> str:
    """A readable verdict: valid or not and complete or not, one line per game with its
    errors and warnings, then the match's winner, or whom the record claims won."""
    match = verdict.match
    length = f"{match.length} point match" if match.length else "money session"
    validity = "valid" if verdict.valid else "INVALID"
    completeness = "complete" if match.complete else "incomplete"
    lines = [f"{path}: {validity}, {completeness} ({verdict.variant}, {length})"]
    for issue in verdict.warnings:
        lines.append(f"  warning line {issue.line}: {issue.code}: {issue.message}")
    for game, after in zip(verdict.games, match.scores_after, strict=True):
        result = game.result
        winner = "nobody" if result.winner is None else match.players["wb".index(result.winner)]
        words = result_words(verdict.variant, result.termination, result.kind, result.cube)
        lines.append(
            f"  game {game.index}: {winner} wins {result.points} ({words}),"
            f" score {after[0]}-{after[1]}"
        )
        for label, issues in (("ERROR", game.errors), ("warning", game.warnings)):
            for issue in issues:
                lines.append(f"    {label} line {issue.line}: {issue.code}: {issue.message}")
    if match.winner is not None:
        lines.append(f"  match won by {match.players['wb'.index(match.winner)]}")
    elif match.recorded_winner is not None:
        claimed = match.players["wb".index(match.recorded_winner)]
        lines.append(f"  the record claims {claimed} won the match")
    return "\n".join(lines)
