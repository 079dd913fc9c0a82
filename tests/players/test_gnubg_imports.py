"""Formats gnubg imports or writes, against gnubg itself (Debian's; REQUIRE_GNUBG=1 in CI
makes these fail, not skip, without it), in one gnubg batch for the module:

* Snowie text: every corpus record imported by gnubg and exported as Snowie text
  (``export match snowietxt``) reads to the verdict of the original (games, winners,
  points, cube, Crawford);
* TrueMoneyGames ``.tmg``, FIBS oldmoves, GammonEmpire ``.gam`` and GamesGrid ``.sgg``:
  every corpus record written in the format (tests/records/*_text.py) and imported by
  gnubg reads, as gnubg exports it to ``.mat``, to the verdict the referee reads from the
  written text itself;
* Snowie positions: gnubg's ``export position snowietxt`` at nine places of a record
  reads to the board, bar, borne-off checkers and turn of gnubg's own Position and
  Match IDs there."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from notation.ids import from_gnubg_id
from notation.positions import parse_position
from notation.records.snowie_reader import read_snowie
from referee.adjudication import check_record
from tests.corpus import MAT, require
from tests.players.gnubg import run_batch
from tests.players.test_sgf_reading import GNUBG_LOSES, corpus, outcome
from tests.records.gam_text import gam_of
from tests.records.oldmoves_text import oldmoves_of
from tests.records.sgg_text import sgg_of
from tests.records.tmg_text import tmg_of
from vocabulary import Phase

WRITERS = {"tmg": tmg_of, "oldmoves": oldmoves_of, "empire": gam_of, "sgg": sgg_of}
"""Each format written here from a .mat record, by the name of gnubg's import command.
Not ``bgroom``: Debian's gnubg 1.07 converts a .bgf to a .mat and reads that before it has
closed it (import.c, CommandImportBGRoom), so it reads an empty file ("not a valid .mat
file") and imports nothing."""


GNUBG_OPTIONS = {"empire": {"jacoby": False}}
"""How gnubg played a format's games where its .mat export does not say: .gam money games
without the Jacoby rule (the referee's default for a money session has it)."""


def as_gnubg_reads(name: str, verdict: dict[str, Any]) -> dict[str, Any]:
    """The outcome a record in format ``name`` keeps through gnubg's import. gnubg values
    a resignation from oldmoves as a single one (import.c: "FIXME determine from score"),
    and from sgg as the recorded points divided by the cube, rounded down (``wins 5
    points`` on a 4-cube, capped by the match, is a single one; the .mat reading, gnubg's
    and the referee's, a gammon): there a resignation's points are those, and the match's
    scores are not compared."""
    kept = outcome(verdict)
    if name not in ("oldmoves", "sgg"):
        return kept
    games = [
        (winner, how, _resigned(name, game) if how == "resign" else points, cube, owner, crawford)
        for (winner, how, points, cube, owner, crawford), game in zip(
            kept["games"], verdict["games"], strict=True
        )
    ]
    return {"valid": kept["valid"], "games": games}


def _resigned(name: str, game: dict[str, Any]) -> int:
    cube: int = game["cube"]
    if name == "oldmoves":
        return cube
    return cube * max(1, min(3, (game["recorded_points"] or cube) // cube))


def backgammon_corpus() -> list[Path]:
    return [
        path
        for path in corpus()
        if check_record(path.read_text(encoding="utf-8-sig")).variant == "backgammon"
        and path.stem not in GNUBG_LOSES
    ]


@pytest.fixture(scope="module")
def converted(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """``NAME.snowie.txt`` (gnubg's Snowie text of each corpus record) and, for each
    format, ``NAME.FORMAT.mat`` (gnubg's ``.mat`` of our ``NAME.FORMAT``), in one batch."""
    folder = tmp_path_factory.mktemp("gnubg_imports")
    commands = []
    for path in backgammon_corpus():
        commands += [f'import mat "{path}"', f'export match snowietxt "{path.stem}.snowie.txt"']
        for name, writer in WRITERS.items():
            written = f"{path.stem}.{name}"
            (folder / written).write_text(writer(path.read_text(encoding="utf-8-sig")))
            commands += [f'import {name} "{written}"', f'export match mat "{written}.mat"']
    output = run_batch(commands, folder, timeout=600)
    assert "rror" not in output, output[-2000:]
    yield folder


def test_gnubgs_snowie_text_of_every_corpus_record_reads_to_the_same_verdict(
    converted: Path,
) -> None:
    compared = 0
    for path in backgammon_corpus():
        original = check_record(path.read_text(encoding="utf-8-sig")).to_json()
        snowie = (converted / f"{path.stem}.snowie.txt").read_text()
        assert outcome(check_record(snowie).to_json()) == outcome(original), path.name
        compared += 1
    assert compared >= 40


@pytest.mark.parametrize("name", WRITERS)
def test_a_record_reads_as_gnubg_imports_it(converted: Path, name: str) -> None:
    compared = 0
    for path in backgammon_corpus():
        ours = check_record((converted / f"{path.stem}.{name}").read_text()).to_json()
        assert ours["valid"], path.name
        exported = (converted / f"{path.stem}.{name}.mat").read_text()
        gnubgs = check_record(exported, options=GNUBG_OPTIONS.get(name)).to_json()
        assert as_gnubg_reads(name, gnubgs) == as_gnubg_reads(name, ours), path.name
        assert gnubgs["match"]["players"] == ours["match"]["players"], path.name
        compared += 1
    assert compared >= 40


POSITION_RECORD = "gnubg-export_charlot1-charlot2_7pt_2025-11-08.mat"
STEPS = (3, 6, 6)
"""Where in each of the record's first three games gnubg exports a Snowie position."""


def test_gnubgs_snowie_positions_read_to_its_own_boards(tmp_path: Path) -> None:
    # display off: only ``show board`` prints a board (and the import, once, first)
    commands = ["set display off", f'import mat "{require(MAT) / POSITION_RECORD}"']
    for game in range(3):
        commands.append("first game" if game == 0 else "next game")
        for step, _ in enumerate(STEPS):
            commands += [f"next {STEPS[step]}", f"export position snowietxt p{game}{step}.txt"]
            commands.append("show board")
    output = run_batch(commands, tmp_path)
    positions = re.findall(r"Position ID: (\S+)", output)
    matches = re.findall(r"Match ID\s*: (\S+)", output)
    exported = sorted(tmp_path.glob("p*.txt"))
    assert len(exported) == 9 and len(positions) >= 9
    for path, position, match in zip(exported, positions[-9:], matches[-9:], strict=True):
        [game] = read_snowie(path.read_text()).games
        assert game.start is not None
        ours, gnubgs = parse_position(game.start), from_gnubg_id(f"{position}:{match}")
        # Snowie's field 4 is the player on roll; the Match ID's turn, the one who must act:
        # the other player while a double or resignation waits for his answer
        answering = gnubgs.phase in (Phase.DOUBLED, Phase.RESIGN)
        on_roll = {"w": "b", "b": "w"}[str(gnubgs.turn)] if answering else gnubgs.turn
        assert (ours.cells, ours.bar, ours.off, ours.turn) == (
            gnubgs.cells,
            gnubgs.bar,
            gnubgs.off,
            on_roll,
        ), path.name
