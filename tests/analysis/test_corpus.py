"""gnubg's analysis of every backgammon record of the corpus at 0-ply, through the
referee (its own export fed to gnubg), holds the same figures for each player as gnubg's
own ``show statistics match`` of the original file imported by hand; every analysis's
actions add up to its figures, game by game and over the match, and stand where the
replay has them. Debian's gnubg is needed (REQUIRE_GNUBG=1 fails without it); the module
runs two gnubg processes at a time, once per test run (``once``)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest

from referee.adjudication import adjudicate
from referee.analysis import Settings, analyse
from referee.analysis.result import AnalysisSchema
from referee.shapes import schema_of
from tests.analysis.by_hand import by_hand_once, corpus, differences, names
from tests.analysis.once import once
from tests.analysis.sums import place_problems, side_actions, sum_problems
from tests.players.gnubg import require_gnubg


@pytest.fixture(scope="module")
def analysed(
    tmp_path_factory: pytest.TempPathFactory,
) -> Iterator[dict[str, tuple[dict[str, Any], str]]]:
    """Each corpus record's analysis (as JSON) and gnubg's printed statistics of the
    original, both at 0-ply: gnubg by hand in one process beside ours, two at a time."""
    program = require_gnubg()
    files = corpus()

    def ours(path: Path) -> dict[str, Any]:
        return analyse(path.read_text(), Settings(0, 0), program=program).to_json()

    def made() -> list[dict[str, Any]]:
        return list(map(ours, files))

    with ThreadPoolExecutor(1) as pool:
        hand = pool.submit(by_hand_once, tmp_path_factory)
        analyses = once(tmp_path_factory, "analysis_corpus", made)
        blocks = hand.result()
    yield {
        path.stem: (analysis, block)
        for path, analysis, block in zip(files, analyses, blocks, strict=True)
    }


def test_every_figure_is_gnubgs_own_for_the_original_file(
    analysed: dict[str, tuple[dict[str, Any], str]],
) -> None:
    assert len(analysed) >= 44
    problems = {}
    for name, (analysis, block) in analysed.items():
        assert names(block) == (analysis["names"]["w"], analysis["names"]["b"]), name
        for column, side in enumerate("wb"):
            found = differences(analysis["players"][side], block, column)
            if found:
                problems[f"{name} {side}"] = found
    assert problems == {}


def test_actions_add_up_to_the_figures_of_each_game_and_the_match(
    analysed: dict[str, tuple[dict[str, Any], str]],
) -> None:
    problems = {}
    for name, (analysis, _) in analysed.items():
        every = [action for game in analysis["games"] for action in game["actions"]]
        for side in "wb":
            found = sum_problems(analysis["players"][side], side_actions(every, side))
            for game in analysis["games"]:
                stats = game["players"][side]
                found += sum_problems(stats, side_actions(game["actions"], side))
            if found:
                problems[f"{name} {side}"] = found
    assert problems == {}


def test_actions_stand_where_the_replay_has_them_and_best_plays_are_legal(
    analysed: dict[str, tuple[dict[str, Any], str]],
) -> None:
    problems = {}
    for path in corpus():
        analysis = analysed[path.stem][0]
        replays = adjudicate(path.read_text(), replay=True).replays
        for game, steps in zip(analysis["games"], replays, strict=True):
            found = place_problems(game["actions"], steps)
            if found:
                problems[f"{path.stem} game {game['index']}"] = found
    assert problems == {}


def test_a_loss_names_another_best_play_and_marks_are_gnubgs_thresholds(
    analysed: dict[str, tuple[dict[str, Any], str]],
) -> None:
    """A play that lost equity was not the best one; its mark is the one ANALYSIS.md's
    thresholds give its loss (gnubg's defaults: 0.030, 0.060, 0.120)."""
    checked = 0
    for name, (analysis, _) in analysed.items():
        for game in analysis["games"]:
            for action in game["actions"]:
                loss = action["equity_loss"]
                if action["kind"] != "play" or loss is None:
                    continue
                if loss < 0:
                    assert action["best"] != action["played"], (name, action)
                expected = (
                    "very_bad" if loss < -0.12 else "bad" if loss < -0.06
                    else "doubtful" if loss < -0.03 else None
                )  # fmt: skip
                if abs(abs(loss) - 0.03) > 1e-5 and abs(abs(loss) - 0.06) > 1e-5:
                    assert action["mark"] == expected, (name, action)
                checked += 1
    assert checked > 5000


def test_the_json_is_its_schema_dumped(
    analysed: dict[str, tuple[dict[str, Any], str]],
) -> None:
    from referee.analysis.result import Analysis  # noqa: F401  (the value dumped below)

    path = corpus()[0]
    analysis = analyse(path.read_text(), Settings(0, 0), program=require_gnubg())
    dumped = schema_of(AnalysisSchema)().dump(analysis)
    assert json.dumps(analysis.to_json()) == json.dumps(dumped)
    assert analysis.to_json() == analysed[path.stem][0]
