"""The work budget of a check (referee/budget.py): counted while reading and checking,
refused with ``work_limit`` naming the limit; real records stay far inside the defaults."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from referee.adjudication import adjudicate
from referee.adjudication.budget import WorkLimitError, WorkLimits
from referee.app import create_app
from referee.errors import TooManyGamesError
from tests.corpus import MAT, require
from tests.costly import HEADER, edited_game, game


def refusal(text: str, mode: str = "condone", **limits: float) -> WorkLimitError:
    with pytest.raises(WorkLimitError) as caught:
        adjudicate(text, None, mode, limits=replace(WorkLimits(), **limits))
    return caught.value


def test_limits_read_from_text_override_the_defaults() -> None:
    limits = WorkLimits.from_text("edits_per_game=3, seconds=2.5")
    assert (limits.edits_per_game, limits.seconds) == (3, 2.5)
    assert limits.games == WorkLimits().games
    with pytest.raises(ValueError, match="unknown work limit 'cpu'"):
        WorkLimits.from_text("cpu=1")


def test_edits_are_counted_per_game() -> None:
    text = HEADER + edited_game(1, 3)
    assert refusal(text, edits_per_game=2).extensions == {"limit": "edits_per_game", "maximum": 2}
    verdict = adjudicate(text, None, "condone", limits=replace(WorkLimits(), edits_per_game=3))
    assert len(verdict.verdict.games[0].errors) == 6  # both sides' plays, three rows


def test_edits_are_counted_per_record() -> None:
    text = HEADER + edited_game(1, 2) + edited_game(2, 2)
    assert refusal(text, edits=3).extensions["limit"] == "edits"


def test_errors_are_counted_per_game_and_per_record() -> None:
    text = HEADER + edited_game(1, 2) + edited_game(2, 2)  # four errors in each game
    assert refusal(text, errors_per_game=3).extensions["limit"] == "errors_per_game"
    assert refusal(text, errors=7).extensions["limit"] == "errors"


def test_enumerated_plays_are_counted() -> None:
    # Judging "6/5" enumerates every legal play of 11 from fifteen spread checkers:
    # far more than ten.
    text = HEADER + edited_game(1, 1)
    assert refusal(text, plays_per_game=10).extensions["limit"] == "plays_per_game"
    assert refusal(text, plays=10).extensions["limit"] == "plays"


def test_the_deadline_stops_a_check() -> None:
    error = refusal(HEADER + edited_game(1, 1), seconds=0)
    assert error.extensions["limit"] == "seconds"
    assert error.status == 413


def test_actions_and_games_are_refused_while_reading() -> None:
    # Three rows of two plays, and a game over the limit: refused by the reader, so
    # strict mode (which would stop at the first error) does not matter.
    text = HEADER + edited_game(1, 3)
    assert refusal(text, "strict", actions_per_game=8).extensions["limit"] == "actions_per_game"
    assert refusal(text, "strict", actions=8).extensions["limit"] == "actions"
    with pytest.raises(TooManyGamesError):
        adjudicate(HEADER + game(1, "") + game(2, ""), limits=replace(WorkLimits(), games=1))


def test_skipped_lines_are_counted_while_reading() -> None:
    text = HEADER + game(1, "  1) ??\n  2) ??\n")
    assert refusal(text, findings=1).extensions["limit"] == "findings"


@pytest.mark.parametrize("mode", ["strict", "condone"])
def test_every_corpus_record_checks_within_the_default_limits(mode: str) -> None:
    records = sorted(require(MAT).glob("*.mat"))
    for path in records:
        adjudicate(path.read_text(encoding="utf-8", errors="replace"), None, mode, replay=True)


def test_the_api_answers_a_work_limit_as_a_problem(tmp_path: Path) -> None:
    limits = replace(WorkLimits(), edits_per_game=1)
    app = create_app({"DATABASE": str(tmp_path / "a.sqlite3"), "WORK_LIMITS": limits})
    response = app.test_client().post(
        "/v1/records/check?mode=condone",
        data=HEADER + edited_game(1, 2),
        content_type="text/plain",
    )
    assert response.status_code == 413
    assert response.mimetype == "application/problem+json"
    problem = response.get_json()
    assert (problem["code"], problem["limit"], problem["maximum"]) == (
        "work_limit",
        "edits_per_game",
        1,
    )
    assert "edits_per_game" in problem["detail"]
