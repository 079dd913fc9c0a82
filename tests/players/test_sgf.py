"""SGF export (GNU Backgammon's dialect): hand-worked vectors (FORMATS.md part 2 §5),
every backgammon record of the corpus and the examples loaded by gnubg itself to the same
games, plays and winners, and the API and the command."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from notation.records.mat_reader import read_mat
from notation.records.model import ActionKind
from notation.records.sgf import SgfGame, SgfMatch, point_letter, write_sgf
from referee.adjudication.match import adjudicate, check_and_write
from referee.app import create_app
from referee.archive.sgf import SGF_MEDIA_TYPE, sgf_of
from tests.corpus import MAT, require
from tests.players.gnubg import run_batch
from tests.server import ROOT, write_token

EXAMPLES = ROOT / "examples"


def nodes(sgf: str) -> list[str]:
    return re.findall(r";([WB]\[[^\]]*\])", sgf)


def test_point_letters() -> None:
    # White's point p is 'a' + p - 1, Black's 'x' - (p - 1); bar y, off z, for both.
    assert [point_letter("w", p) for p in (1, 6, 24, 25, 0)] == ["a", "f", "x", "y", "z"]
    assert [point_letter("b", p) for p in (1, 13, 24, 25, 0)] == ["x", "l", "a", "y", "z"]


def test_the_worked_vectors() -> None:
    # FORMATS.md part 2 §5 (gnubgparser's SGF of the corpus file charlot1-charlot2 against
    # its .mat): Black 41: 13/9 24/23 is B[41lpab] (13 -> x - 12 = l, 9 -> p, 24 -> a,
    # 23 -> b); White 31: 6/5 8/5 is W[31fehe]; a hit is not marked; the bar is y.
    record = read_mat(
        " 7 point match\n\n Game 1\n charlot1 : 0                   charlot2 : 0\n"
        "  1)                             41: 13/9 24/23\n"
        "  2) 31: 6/5 8/5                 21: 6/4* 18/17*\n"
        "  3) 21: 25/23 25/24              Doubles => 2\n"
        "  4)  Takes\n"
    )
    game = record.games[0]
    sgf = write_sgf(SgfMatch(game.players, 7, [SgfGame((0, 0), game.actions)]), "test")
    assert nodes(sgf) == [
        "B[41lpab]",
        "W[31fehe]",
        "B[21sugh]",
        "W[21ywyx]",
        "B[double]",
        "W[take]",
    ]
    assert sgf.startswith("(;FF[4]GM[6]CA[UTF-8]AP[test]MI[length:7][game:0][ws:0][bs:0]")
    assert "PW[charlot1]PB[charlot2]RU[Crawford]" in sgf
    assert "RE[" not in sgf  # an unfinished game has no result


def test_results_rules_and_match_information() -> None:
    match = SgfMatch(
        ("A]b", "C"),
        0,
        [SgfGame((0, 0), (), "b", 4, resigned=True)],
        tags={"EventDate": "2025.11.30", "Site": "here", "DiceSeed": "ab12"},
        jacoby=True,
        cube=False,
    )
    sgf = write_sgf(match, "x")
    assert "PW[A\\]b]" in sgf and "DT[2025-11-30]PC[here]XS[ab12]" in sgf
    assert "RU[NoCube:Jacoby]RE[B+4R]" in sgf


def test_a_set_up_game_opens_with_setup_nodes() -> None:
    # White: 2 on his 1-point and one on the bar; Black: 1 on his 6-point (White's 19:
    # letter 'x' - 5 = 's'); a 2-cube owned by Black.
    start = "backgammon 2w,,,,,,,,,,,,,,,,,,1b,,,,, w1b0 w12b14 w - 2b 0:0-0 -"
    sgf = write_sgf(SgfMatch(("a", "b"), 0, [SgfGame((0, 0), (), start=start)]), "x")
    assert ";PL[W]AE[a:y]AW[a][a][y]AB[s]\n;CV[2]\n;CP[b])" in sgf


# -- gnubg loads the exports -----------------------------------------------------------------


@dataclass
class Exported:
    name: str
    original: str
    verdict: dict[str, Any]
    sgf: str
    set_up: bool


def backgammon_records() -> list[tuple[str, str]]:
    files = sorted(require(MAT).glob("*.mat")) + sorted(EXAMPLES.glob("*.mat"))
    return [(path.stem, path.read_text()) for path in files]


@pytest.fixture(scope="module")
def loaded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[list[Exported], Path]]:
    """Every backgammon record exported, then loaded by gnubg in one batch, which writes
    each back as a .mat (the games it can: not a set-up one) and as its own SGF."""
    folder = tmp_path_factory.mktemp("sgf")
    exported, commands = [], []
    for name, text in backgammon_records():
        written = check_and_write(text)
        verdict = written.verdict.to_json()
        if verdict["variant"] != "backgammon":
            continue
        record = read_mat(written.canonical)
        sgf = sgf_of(record, verdict)
        (folder / f"{name}.sgf").write_text(sgf)
        set_up = any(game.start for game in record.games)
        exported.append(Exported(name, text, verdict, sgf, set_up))
        commands += [f'load match "{name}.sgf"', f'save match "{name}.gnubg.sgf"']
        if not set_up:
            commands.append(f'export match mat "{name}.gnubg.mat"')
    output = run_batch(commands, folder)
    assert "rror" not in output and "nvalid" not in output, output
    yield exported, folder


def plays_and_results(text: str) -> list[tuple[list[tuple[Any, ...]], Any, Any]]:
    """Per game: each roll's side, dice and moves (in any order) and each cube action,
    then the winner and points by the rules."""
    adjudication = adjudicate(text)
    games = []
    for game, verdict in zip(adjudication.canonical.games, adjudication.verdict.games, strict=True):
        actions: list[tuple[Any, ...]] = []
        for action in game.actions:
            if action.kind is ActionKind.ROLL:
                assert action.dice is not None
                moves = action.play.moves if action.play else ()
                steps = tuple(sorted((move.from_point, move.to_point) for move in moves))
                actions.append((action.side, tuple(sorted(action.dice)), steps))
            elif action.kind in (ActionKind.DOUBLE, ActionKind.TAKE, ActionKind.DROP):
                actions.append((action.side, str(action.kind)))
        result = verdict.to_json()
        games.append((actions, result["winner"], result["points"]))
    return games


def test_every_record_loads_in_gnubg_to_the_same_games(
    loaded: tuple[list[Exported], Path],
) -> None:
    exported, folder = loaded
    assert len(exported) >= 45  # the corpus's 44 and the backgammon example
    compared = 0
    for record in exported:
        if record.set_up:
            continue
        back = (folder / f"{record.name}.gnubg.mat").read_text()
        ours, gnubgs = plays_and_results(record.original), plays_and_results(back)
        assert len(gnubgs) == len(ours), record.name
        for number, (mine, theirs) in enumerate(zip(ours, gnubgs, strict=True), start=1):
            assert theirs == mine, (record.name, number)
        compared += 1
    assert compared >= 44


def test_gnubg_keeps_every_result_and_node(loaded: tuple[list[Exported], Path]) -> None:
    """gnubg's own SGF of what it loaded: the same game trees, move and cube nodes, and
    results (set-up games included: gnubg cannot write those as .mat)."""
    exported, folder = loaded
    for record in exported:
        saved = (folder / f"{record.name}.gnubg.sgf").read_text()
        trees = saved.count("(;FF[4]GM[6]")
        assert trees == len(record.verdict["games"]), record.name
        theirs = [re.findall(r";([WB]\[[^\]]*\])", tree) for tree in saved.split("(;FF")[1:]]
        ours = [re.findall(r";([WB]\[[^\]]*\])", tree) for tree in record.sgf.split("(;FF")[1:]]
        assert [sorted(game) for game in theirs] == [sorted(game) for game in ours], record.name
        for game, tree in zip(record.verdict["games"], saved.split("(;FF")[1:], strict=True):
            result = re.search(r"RE\[([WB])\+(\d+)", tree)
            if game["winner"] is None:
                continue
            assert result is not None, (record.name, game["index"])
            assert (result.group(1).lower(), int(result.group(2))) == (
                game["winner"],
                game["points"],
            ), (record.name, game["index"])


# -- the API and the command -----------------------------------------------------------------


def test_the_api_and_the_command(tmp_path: Path) -> None:
    database = tmp_path / "archive.sqlite3"
    token = write_token(database)
    client = create_app({"DATABASE": str(database)}).test_client()
    auth = {"Authorization": f"Bearer {token}", "Content-Type": "text/plain"}
    stored = {}
    for name in ("backgammon_match.mat", "long_nardy_match.mat"):
        response = client.post("/v1/matches", data=(EXAMPLES / name).read_text(), headers=auth)
        assert response.status_code == 201, response.json
        stored[name] = response.json["id"]  # type: ignore[index]
    sgf = client.get(f"/v1/matches/{stored['backgammon_match.mat']}?format=sgf")
    assert sgf.status_code == 200
    assert sgf.mimetype == SGF_MEDIA_TYPE
    assert sgf.text.count("(;FF[4]GM[6]") == 3 and "PW[Alice]PB[Bob]" in sgf.text
    nardy = client.get(f"/v1/matches/{stored['long_nardy_match.mat']}?format=sgf")
    assert nardy.status_code == 422
    assert nardy.json["code"] == "not_exportable"  # type: ignore[index]
    assert "backgammon" in nardy.json["detail"]  # type: ignore[index]
    assert client.get("/v1/matches/999?format=sgf").status_code == 404
    command = [sys.executable, "-m", "referee.cli", "export", "--database", str(database)]
    done = subprocess.run(
        [*command, "--format", "sgf", str(stored["backgammon_match.mat"])],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0 and done.stdout == sgf.text
    refused = subprocess.run(
        [*command, str(stored["long_nardy_match.mat"])], capture_output=True, text=True, check=False
    )
    assert refused.returncode == 2 and "not_exportable" in refused.stderr
