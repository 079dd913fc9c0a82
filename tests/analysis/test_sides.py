"""Each player's figures stay with his column whatever the names say: the left column is
White (gnubg's player 0) with the names in either order or the same on both sides, in a
money session, across a Crawford game, around board edits (gnubg's ``Illegal play`` cells
in either column, XG's ``Set Pos``), from set-up starts and through a beaver. Each is held
to gnubg's own statistics of the same record imported by hand where gnubg can import it,
and the actions to the figures."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from referee.adjudication import adjudicate
from referee.analysis import Settings, analyse
from tests.analysis.by_hand import by_hand, differences, names
from tests.analysis.once import once
from tests.analysis.sums import place_problems, side_actions, sum_problems
from tests.corpus import MAT, openspiel_money_session, read_jsonl, require
from tests.players.gnubg import require_gnubg
from tests.players.test_sgf_reading import edit_records
from tests.server import ROOT

CHARLOT = "gnubg-export_charlot1-charlot2_7pt_2025-11-08"
"""Four games, the fourth the Crawford game (at 6-2 of 7)."""


def swapped_names(text: str, left: str, right: str) -> str:
    """The record with its players' names exchanged, every play left in its column."""
    return text.replace(left, "\0").replace(right, left).replace("\0", right)


def records() -> dict[str, str]:
    charlot = (require(MAT) / f"{CHARLOT}.mat").read_text()
    games = list(read_jsonl("bg_games_seed1.jsonl.gz"))[:3]
    return {
        "as written": charlot,
        "names in the other order": swapped_names(charlot, "charlot1", "charlot2"),
        "the same name twice": charlot.replace("charlot2", "charlot1"),
        "money session": openspiel_money_session(games),
        "xg set pos": (ROOT / "tests/records/fixtures/dialect_set_pos.mat").read_text(),
        **edit_records(),
    }


@pytest.fixture(scope="module")
def analysed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """Each record's analysis at 0-ply, and gnubg's own statistics of it by hand (Jacoby
    off, as the money session's header says).

    A record with a board edit goes by hand through gnubg's own SGF (imported, saved,
    loaded back): gnubg analyses an edit it has just imported otherwise than the same
    match loaded from its own SGF (measured on ``edit_both_stuck``: after ``import mat``
    the dance after the edit has no luck and no cube decision, after ``save match`` and
    ``load match`` of that import it has both), and the referee gives gnubg SGF."""
    program = require_gnubg()
    folder = tmp_path_factory.mktemp("sides")
    texts = records()
    paths, edited = [], []
    for number, (name, text) in enumerate(texts.items()):
        paths.append(folder / f"record{number}.mat")
        paths[-1].write_text(text)
        if name.startswith("edit_") or "Set Pos" in text:
            edited.append(paths[-1])

    def ours(text: str) -> dict[str, Any]:
        return analyse(text, Settings(0, 0), program=program).to_json()

    def made() -> dict[str, Any]:
        with ThreadPoolExecutor(2) as pool:
            hand = pool.submit(by_hand, paths, 0, ["set jacoby off"], edited)
            analyses = list(pool.map(ours, texts.values()))
        return {
            name: (analysis, block)
            for name, analysis, block in zip(texts, analyses, hand.result(), strict=True)
        }

    yield once(tmp_path_factory, "analysis_sides", made)


def test_each_column_has_gnubgs_figures_for_it(analysed: Mapping[str, Any]) -> None:
    problems = {}
    for name, (analysis, block) in analysed.items():
        assert names(block) == (analysis["names"]["w"], analysis["names"]["b"]), name
        for column, side in enumerate("wb"):
            found = differences(analysis["players"][side], block, column)
            every = [action for game in analysis["games"] for action in game["actions"]]
            found += sum_problems(analysis["players"][side], side_actions(every, side))
            if found:
                problems[f"{name} {side}"] = found
    assert problems == {}


def test_the_names_never_move_the_figures(analysed: Mapping[str, Any]) -> None:
    written = analysed["as written"][0]
    for other in ("names in the other order", "the same name twice"):
        analysis = analysed[other][0]
        assert analysis["players"] == written["players"], other
        assert analysis["games"] == written["games"], other
    assert analysed["names in the other order"][0]["names"] == {"w": "charlot2", "b": "charlot1"}
    assert written["names"] == {"w": "charlot1", "b": "charlot2"}


def test_a_money_session_has_no_match_figures(analysed: Mapping[str, Any]) -> None:
    analysis, block = analysed["money session"]
    assert "EMG (Points)" in block
    for side in "wb":
        stats = analysis["players"][side]
        assert stats["overall"]["error_based_fibs_rating"] is None  # match play only
        assert stats["chequer"]["total_moves"] > 0


def test_edits_keep_their_rolls_luck_out_of_the_moves(analysed: Mapping[str, Any]) -> None:
    """An ``Illegal play`` cell's roll is a play with nothing played and no loss: not one
    of gnubg's moves, but the edit's place in the replay."""
    found = 0
    for name, (analysis, _) in analysed.items():
        if not name.startswith("edit_"):
            continue
        for action in analysis["games"][0]["actions"]:
            if action["kind"] == "play" and action["played"] is None:
                assert action["equity_loss"] is None and action["best"] is None, name
                found += 1
    assert found >= 8


def test_the_crawford_game_has_no_cube_and_crawford_off_has_one() -> None:
    """The referee's reading of the rules is what gnubg is given: at 6-2 of 7 the fourth
    game is the Crawford game (no cube decisions at all); a record that says the Crawford
    rule is off has them (gnubg's own import would assume the rule)."""
    program = require_gnubg()
    text = (require(MAT) / f"{CHARLOT}.mat").read_text()
    off = '; [Crawford "Off"]\n' + text
    with ThreadPoolExecutor(2) as pool:
        on_game, off_game = pool.map(
            lambda record: analyse(record, Settings(0, 0), program=program).games[3],
            (text, off),
        )
    for side in ("w", "b"):
        assert getattr(on_game.players, side).cube.total_decisions == 0
    assert not [a for a in on_game.actions if a.kind != "play"]
    assert sum(getattr(off_game.players, side).cube.total_decisions for side in "wb") > 0
    assert [a for a in off_game.actions if a.kind == "no_double"]


def test_a_set_up_start_and_a_beaver_stay_with_their_sides() -> None:
    """A money session whose games start from set-up positions (the referee's
    ``[StartPosition]``, which gnubg's own import cannot read: no analysis by hand to hold
    it to), with a double and a beaver: White's double is judged, Bob's beaver is not, and
    White's take of it, which the record leaves out, is judged as gnubg's statistics judge
    it (at the beaver's place); every figure adds up and every action stands in the
    replay."""
    text = (ROOT / "tests/records/fixtures/money_beaver.mat").read_text()
    analysis = analyse(text, Settings(0, 0), program=require_gnubg()).to_json()
    first, second = analysis["games"]
    assert [(a["index"], a["side"], a["kind"]) for a in first["actions"]] == [
        (1, "w", "double"),
        (2, "w", "take"),
        (3, "w", "play"),
    ]
    assert second["actions"][-1]["played"] == "1/off 1/off"
    replays = adjudicate(text, replay=True).replays
    for game, steps in zip(analysis["games"], replays, strict=True):
        assert place_problems(game["actions"], steps) == []
        for side in "wb":
            actions = side_actions(game["actions"], side)
            assert sum_problems(game["players"][side], actions) == [], (game["index"], side)
