"""gnubg run by hand, as a player runs it, beside the referee's analysis: ``import mat``
of the original file, ``analyse match``, ``show statistics match``, many files in one
process; and a reading of what it prints, by its fixed columns (the label in 40
characters, then 23 a player), that owes nothing to the reader under test. The corpus's
records, and its originals as gnubg is given them by hand."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import pytest

from tests.analysis.once import once
from tests.corpus import MAT, require
from tests.players.gnubg import require_gnubg

FIGURES = {
    "chequer": (
        "Chequerplay statistics",
        {
            "total_moves": "Total moves",
            "unforced_moves": "Unforced moves",
            "doubtful": "Moves marked doubtful",
            "bad": "Moves marked bad",
            "very_bad": "Moves marked very bad",
            "error_total_emg": "Error total EMG",
            "error_rate_memg": "Error rate mEMG",
            "rating": "Chequerplay rating",
        },
    ),
    "luck": (
        "Luck statistics",
        {
            "very_lucky": "Rolls marked very lucky",
            "lucky": "Rolls marked lucky",
            "unlucky": "Rolls marked unlucky",
            "very_unlucky": "Rolls marked very unlucky",
            "luck_total_emg": "Luck total EMG",
            "luck_rate_memg": "Luck rate mEMG",
            "rating": "Luck rating",
        },
    ),
    "cube": (
        "Cube statistics",
        {
            "total_decisions": "Total cube decisions",
            "close_decisions": "Close or actual cube decisions",
            "doubles": "Doubles",
            "takes": "Takes",
            "passes": "Passes",
            "missed_doubles_below_cp": "Missed doubles below CP",
            "missed_doubles_above_cp": "Missed doubles above CP",
            "wrong_doubles_below_dp": "Wrong doubles below DP",
            "wrong_doubles_above_tg": "Wrong doubles above TG",
            "wrong_takes": "Wrong takes",
            "wrong_passes": "Wrong passes",
            "error_total_emg": "Error total EMG",
            "error_rate_memg": "Error rate mEMG",
            "rating": "Cube decision rating",
        },
    ),
    "overall": (
        "Overall statistics",
        {
            "error_total_emg": "Error total EMG",
            "error_rate_memg": "Error rate mEMG",
            "snowie_error_rate": "Snowie error rate",
            "rating": "Overall rating",
            "error_based_fibs_rating": "Error based abs. FIBS rating",
        },
    ),
}
"""ANALYSIS.md's STATS: each figure's section and the row gnubg prints it in (the row's
units, ``(MWC)`` in a match and ``(Points)`` for money, left out)."""


def by_hand(
    files: Sequence[Path],
    plies: int,
    before: Sequence[str] = (),
    through_sgf: Sequence[Path] = (),
    timeout: float = 900,
) -> list[str]:
    """What gnubg prints for ``show statistics match`` of each file, imported and analysed
    at ``plies`` (both), after the commands ``before``; one gnubg process for all. The
    files ``through_sgf`` are imported, saved as gnubg's own SGF and loaded back first."""
    commands = [
        f"set analysis chequerplay evaluation plies {plies}",
        f"set analysis cubedecision evaluation plies {plies}",
        *before,
    ]
    for path in files:
        commands.append(f'import mat "{path}"')
        if path in through_sgf:
            sgf = path.with_suffix(".gnubg.sgf")
            commands += [f'save match "{sgf}"', f'load match "{sgf}"']
        commands += ["analyse match", "show statistics match"]
    done = subprocess.run(
        [require_gnubg(), "-t", "-q"],
        input="\n".join(commands) + "\n",
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    blocks = re.split(r"^(?=Player {3})", done.stdout, flags=re.MULTILINE)[1:]
    assert len(blocks) == len(files), done.stdout[-2000:] + done.stderr[-2000:]
    return blocks


def printed(block: str) -> dict[tuple[str, str], tuple[str, str]]:
    """Each row of a printed block: (section, label without units) -> the two cells."""
    rows = {}
    section = ""
    for line in block.splitlines():
        if line.endswith(" statistics") and not line.startswith(" "):
            section = line
        elif len(line) > 41 and line[40] == " " and line[:40].strip():
            label = line[:40].strip().split(" (")[0]
            rows[(section, label)] = (line[41:64].strip(), line[65:].strip())
    return rows


def names(block: str) -> tuple[str, str]:
    header = block.splitlines()[0]
    return header[41:64].strip(), header[65:].strip()


def differences(ours: Mapping[str, Any], block: str, column: int) -> list[str]:
    """Every figure of ours (one player's STATS) that gnubg printed otherwise, and PR
    against PR computed from the printed figures (ANALYSIS.md §3)."""
    rows = printed(block)
    found = []
    for part, (section, labels) in FIGURES.items():
        for name, label in labels.items():
            cells = rows.get((section, label))
            cell = None if cells is None else cells[column]
            value = ours[part][name] if ours[part] is not None else None
            if not _same(value, cell):
                found.append(f"{part}.{name}: ours {value!r}, gnubg's {cell!r}")
    pr = _pr(rows, column)
    if ours["pr"] != pr:
        found.append(f"pr: ours {ours['pr']!r}, from gnubg's figures {pr!r}")
    return found


def _same(value: Any, cell: str | None) -> bool:
    if cell is None or cell == "n/a":
        return value is None
    if isinstance(value, str):
        return value == cell
    number = re.match(r"[-+]?\d+(?:\.\d+)?", cell)
    return number is not None and value is not None and float(number.group()) == value


def _pr(rows: Mapping[tuple[str, str], tuple[str, str]], column: int) -> float | None:
    def first(section: str, label: str) -> float:
        return float(rows[(section, label)][column].split()[0])

    decisions = first("Chequerplay statistics", "Unforced moves") + first(
        "Cube statistics", "Close or actual cube decisions"
    )
    if not decisions:
        return None
    error = first("Chequerplay statistics", "Error total EMG") + first(
        "Cube statistics", "Error total EMG"
    )
    return round(500 * -error / decisions, 2) + 0.0


GNUBG_MISREADS = {
    "galaxy_match1100068_3pt-losses-unnumbered": re.compile(r"^ *Losses .*\n", re.MULTILINE),
}
"""Originals gnubg's own import misreads, and the line it misreads, which gnubg is given
without: it reads the dance before this file's unnumbered ``Losses 1 point`` twice (its
SGF of the file has ``;B[61];B[61]``), counting one move more than was played; the
referee reads ``Losses`` as Galaxy's note of the resignation and scores nothing from it."""


def corpus() -> list[Path]:
    """The corpus's backgammon records (.mat)."""
    return sorted(require(MAT).glob("*.mat"))


def originals(folder: Path) -> list[Path]:
    """The corpus files as gnubg is given them by hand (GNUBG_MISREADS: without the line
    it misreads, a copy in ``folder``)."""
    files = []
    for path in corpus():
        misread = GNUBG_MISREADS.get(path.stem)
        if misread is not None:
            path, text = folder / path.name, misread.sub("", path.read_text())
            path.write_text(text)
        files.append(path)
    return files


def by_hand_once(factory: pytest.TempPathFactory) -> list[str]:
    """``by_hand`` of every original of the corpus at 0-ply, made once per test run for
    every module that compares with it (``once``)."""
    return list(
        once(
            factory,
            "gnubg_by_hand_corpus_0",
            lambda: by_hand(originals(factory.mktemp("originals")), 0),
        )
    )
