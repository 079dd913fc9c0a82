"""Every real record in the shared corpus imports, checks valid and scores consistently."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from notation.records.mat_reader import read_mat
from notation.records.model import ActionKind, GameText
from referee.adjudication import GameVerdict, adjudicate, check_record
from tests.corpus import MAT, require

FILES = sorted(MAT.glob("*.mat")) if MAT.exists() else []
KNOWN_ODDITIES = ("capped at the points needed", "is not a game value")


def test_the_corpus_is_all_there() -> None:
    require(MAT)
    assert len(FILES) == 44


def score_change(before: tuple[int, int], after: tuple[int, int]) -> tuple[str | None, int]:
    """Who gained between two score lines, and how much."""
    white, black = after[0] - before[0], after[1] - before[1]
    if white and not black:
        return "w", white
    if black and not white:
        return "b", black
    return None, 0


def final_wins(game: GameText) -> tuple[str, int]:
    wins = [action for action in game.actions if action.kind is ActionKind.WIN]
    assert len(wins) == 1
    assert wins[0].value is not None
    return wins[0].side, wins[0].value


def check_points(verdict: GameVerdict, recorded: int) -> None:
    if verdict.result.points != recorded:
        assert verdict.result_mismatch is not None
        assert any(oddity in verdict.result_mismatch for oddity in KNOWN_ODDITIES)


@pytest.mark.parametrize("path", FILES, ids=[path.stem for path in FILES])
def test_corpus_record_is_valid_and_its_results_agree_with_the_record(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    record = read_mat(text)
    verdict = adjudicate(text).verdict
    assert verdict.valid, [issue.to_json() for game in verdict.games for issue in game.errors]
    assert len(verdict.games) == len(record.games) == text.count(" Game ")
    for game, checked, following in zip(
        record.games, verdict.games, [*record.games[1:], None], strict=True
    ):
        assert checked.result.winner is not None, f"game {game.index} has no winner"
        if following is not None and game.score is not None and following.score is not None:
            side, gained = score_change(game.score, following.score)
            assert side == str(checked.result.winner), f"game {game.index}"
            check_points(checked, gained)
        else:
            side, value = final_wins(game)
            assert side == str(checked.result.winner)
            check_points(checked, value)


def test_the_known_oddities_are_named() -> None:
    """FORMATS.md names three: Galaxy capping, GridGammon's Wins 100, Studio's Wins 4016."""
    reasons = {}
    for name in (
        "galaxy_match1004950_5pt",
        "gridgammon_amirrr-nori_2009-02-15_5pt",
        "studio_mrpurple-lasse_3pt_2024-05-11",
    ):
        verdict = adjudicate(require(MAT / f"{name}.mat").read_text()).verdict
        reasons[name] = [game.result_mismatch for game in verdict.games if game.result_mismatch]
    assert "capped at the points needed" in reasons["galaxy_match1004950_5pt"][0]
    assert "Wins 100 is not a game value" in reasons["gridgammon_amirrr-nori_2009-02-15_5pt"][0]
    assert "Wins 4016 is not a game value" in reasons["studio_mrpurple-lasse_3pt_2024-05-11"][0]


def test_gridgammon_ratings_are_not_part_of_the_names() -> None:
    # " 1989,1529 : 0                    nori,1723 : 0": GridGammon writes each player's
    # rating after a comma (gnubg's import.c strips it); the blank before the colon is
    # layout, not part of the rating.
    text = (require(MAT) / "gridgammon_1989-nori_2009-01-17_3pt.mat").read_text()
    assert adjudicate(text).verdict.match.players == ("1989", "nori")


def test_checking_a_record_leaves_no_reference_cycles() -> None:
    # Garbage in cycles waits for the cycle collector: a record's worth per check adds up
    # under load, so checking (both ways, and writing the canonical record) frees all it
    # makes by reference counting alone.
    text = (require(MAT) / "galaxy_match11696104_7pt.mat").read_text()
    adjudicate(text)  # caches filled once
    gc.collect()
    gc.disable()
    try:
        adjudication = adjudicate(text)
        assert adjudication.canonical.games
        assert check_record(text).valid
        del adjudication
        assert gc.collect() == 0
    finally:
        gc.enable()
