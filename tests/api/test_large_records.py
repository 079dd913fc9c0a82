"""The limits of NOTATION.md §4 admit real work: the 2,000 shared OpenSpiel games as one
money session are checked and stored."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from referee.adjudication.budget import WorkLimits
from referee.app import create_app
from tests.api.support import archive_at
from tests.corpus import openspiel_money_session, read_jsonl
from tests.server import write_token


def test_the_2000_game_money_session_is_accepted(tmp_path: Path) -> None:
    database = archive_at(tmp_path)
    # The default counted work limits; the deadline is raised because a loaded test machine
    # is slow (the session takes 15-25 s of the default 45 s where nothing else runs).
    limits = replace(WorkLimits(), seconds=600)
    client = create_app({"DATABASE": str(database), "WORK_LIMITS": limits}).test_client()
    token = write_token(database)
    games = list(read_jsonl("bg_games_seed1.jsonl.gz"))
    session = openspiel_money_session(games)
    response = client.post(
        "/v1/matches",
        data=session,
        content_type="text/plain",
        headers={"Authorization": f"Bearer {token}"},
    )
    assert response.status_code == 201, response.get_json()
    verdict = response.get_json()["verdict"]
    assert verdict["valid"] is True
    assert len(verdict["games"]) == 2000
    # The corpus gives each game's winner and points; the session's score lines carry them.
    winners = ["w" if game["winner"] == "white" else "b" for game in games]
    assert [game["winner"] for game in verdict["games"]] == winners
    assert [game["points"] for game in verdict["games"]] == [game["points"] for game in games]
    assert all(not game["warnings"] for game in verdict["games"])
