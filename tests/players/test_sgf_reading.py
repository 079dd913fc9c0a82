"""Reading SGF against gnubg itself (Debian's; REQUIRE_GNUBG=1 in CI makes these fail, not
skip, without it): every corpus record imported by gnubg and saved by gnubg as SGF reads to
the verdict of the original (games, winners, points, cube, Crawford); the referee's own SGF
export reads back to the same verdict (the corpus, a money session, records with board
edits); gnubg loads the export of a record with board edits to the same games.

One gnubg process converts every file of the module (``converted``)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from notation.records.mat_reader import read_mat
from referee.adjudication import check_and_write, check_record
from referee.archive.sgf import sgf_of
from tests.corpus import MAT, openspiel_money_session, read_jsonl, require
from tests.players.gnubg import run_batch
from tests.records.test_snowie_edits import SCENARIOS, case_cells, record
from tests.server import ROOT


def outcome(verdict: dict[str, Any]) -> dict[str, Any]:
    """What must survive a change of format: per game the winner, how and for how many
    points, the cube it ended at and who owned it, whether it was the Crawford game; the
    match's length, scores, Crawford game and winner; validity."""
    games = [
        (
            game["winner"],
            game["termination"],
            game["points"],
            game["cube"],
            game["cube_owner"],
            game["crawford"],
        )
        for game in verdict["games"]
    ]
    match = verdict["match"]
    summary = (match["length"], match["scores_after"], match["crawford_game"], match["winner"])
    return {"valid": verdict["valid"], "games": games, "match": summary}


FIXTURES = ROOT / "tests" / "records" / "fixtures"
GNUBG_LOSES = {
    "galaxy_match3831101_3pt-resign-first-move": "a resignation before the first move",
}
"""Records whose import into gnubg loses something, and what (so its SGF cannot say it)."""


def corpus() -> list[Path]:
    return sorted(require(MAT).glob("*.mat"))


def edit_records() -> dict[str, str]:
    """Records with gnubg's board edits (``Illegal play`` cells), in either column."""
    records = {}
    for name, scenario in SCENARIOS.items():
        for column in ("w", "b"):
            cells = case_cells(column, 1, False, scenario)
            records[f"edit_{name}_{column}"] = record(cells)
    return records


@pytest.fixture(scope="module")
def converted(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """In one gnubg batch: each corpus record imported and saved as gnubg's SGF
    (``NAME.gnubg.sgf``); each edit record imported and saved by gnubg (``NAME.own.sgf``),
    that loaded and saved again (``NAME.own.back.sgf``), and our export of it
    (``NAME.sgf``) loaded and saved (``NAME.back.sgf``)."""
    folder = tmp_path_factory.mktemp("sgf_reading")
    commands = []
    for path in corpus():
        commands += [f'import mat "{path}"', f'save match "{path.stem}.gnubg.sgf"']
    for name, text in edit_records().items():
        (folder / f"{name}.mat").write_text(text)
        (folder / f"{name}.sgf").write_text(exported(text))
        commands += [f'import mat "{name}.mat"', f'save match "{name}.own.sgf"']
        commands += [f'load match "{name}.own.sgf"', f'save match "{name}.own.back.sgf"']
        commands += [f'load match "{name}.sgf"', f'save match "{name}.back.sgf"']
    output = run_batch(commands, folder, timeout=600)
    assert "rror" not in output, output[-2000:]
    yield folder


def exported(text: str) -> str:
    """The referee's SGF export of a record, as the archive makes it (its canonical form)."""
    written = check_and_write(text)
    return sgf_of(read_mat(written.canonical), written.verdict.to_json())


def test_every_corpus_record_saved_by_gnubg_reads_to_the_same_verdict(converted: Path) -> None:
    compared = 0
    for path in corpus():
        original = check_record(path.read_text(encoding="utf-8-sig")).to_json()
        if original["variant"] != "backgammon":
            continue
        saved = (converted / f"{path.stem}.gnubg.sgf").read_text()
        assert saved.startswith("(;FF[4]GM[6]"), path.name
        if path.stem in GNUBG_LOSES:  # gnubg's game has no moves and no result
            assert "RE[" not in saved and not re.search(r";[WB]\[", saved), path.name
            continue
        assert outcome(check_record(saved).to_json()) == outcome(original), path.name
        compared += 1
    assert compared >= 40


def test_the_referees_export_reads_back_to_the_same_verdict() -> None:
    for path in corpus():
        text = path.read_text(encoding="utf-8-sig")
        original = check_record(text).to_json()
        if original["variant"] != "backgammon":
            continue
        back = check_record(exported(text), record_format="sgf").to_json()
        assert outcome(back) == outcome(original), path.name


def test_the_cube_fixtures_exported_read_back_to_the_same_verdict() -> None:
    # Beavers in a money session, automatic doubles, a double in the Crawford game, XG's
    # Set Pos edit.
    for name in ("money_beaver", "bg_auto_doubles", "bg_crawford_double", "dialect_set_pos"):
        text = (FIXTURES / f"{name}.mat").read_text()
        back = check_record(exported(text)).to_json()
        assert outcome(back) == outcome(check_record(text).to_json()), name


def test_a_money_session_exported_reads_back_to_the_same_verdict() -> None:
    games = list(read_jsonl("bg_games_seed1.jsonl.gz"))[:60]
    session = openspiel_money_session(games)
    original = check_record(session).to_json()
    assert original["match"]["length"] == 0 and len(original["games"]) == 60
    back = check_record(exported(session)).to_json()
    assert outcome(back) == outcome(original)
    assert back["options"]["jacoby"] == original["options"]["jacoby"]


def test_board_edits_export_as_setup_nodes_that_gnubg_loads_to_the_same_games(
    converted: Path,
) -> None:
    both_on_bar = 0
    for name, text in edit_records().items():
        ours = (converted / f"{name}.sgf").read_text()
        # gnubg's writing of an edit: the edit's player and roll, then the whole board.
        assert re.search(r";PL\[[WB]\]DI\[52\]\n;PL\[W\]AE\[a:y\]AW", ours), name
        own = (converted / f"{name}.own.sgf").read_text()
        assert nodes(ours) == nodes(own), name  # gnubg's own SGF of the record, node for node
        loaded = (converted / f"{name}.back.sgf").read_text()
        assert nodes(loaded) == nodes((converted / f"{name}.own.back.sgf").read_text()), name
        if nodes(loaded) != nodes(ours):
            # gnubg's reader keeps one bar checker when both sides have one (its own SGF
            # loses it too, as compared above): only the both_stuck records set that board.
            assert "both_stuck" in name, name
            both_on_bar += 1
        original = check_record(text).to_json()
        assert outcome(check_record(ours).to_json()) == outcome(original), name
        assert outcome(check_record(own).to_json()) == outcome(original), name
        codes = [w["code"] for game in original["games"] for w in game["warnings"]]
        assert "position_edit" in codes
    assert both_on_bar <= 2


def nodes(sgf: str) -> list[tuple[str, ...]]:
    """Each node's moves and setup (checker letters sorted: gnubg orders them its way)."""
    found = []
    for node in re.findall(r"\n;([^\n]*)", sgf):
        if node.startswith(("W[", "B[")):
            found.append((node[:2], node[2:4], *sorted(re.findall("..", node[4:-1]))))
        elif "AE[" in node:
            white, black = (re.search(name + r"((?:\[.\])*)", node) for name in ("AW", "AB"))
            letters = ("".join(sorted(part[1])) if part else "" for part in (white, black))
            found.append(("setup", *letters))
        else:
            found.append((re.sub(r"GS\[[^\]]*\](\[[^\]]*\])*", "", node),))
    return found
