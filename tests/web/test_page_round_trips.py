"""Every page of every stored record shows its board (issue 18's held-out round trip):
each game of each corpus record, fixture and example, and of generated money sessions and
matches of the three variants, stored (invalid ones too) and opened as a user opens it,
by its game picker's link; every board the page draws is the replay's position."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.api.test_matches_api import Env, make_env
from tests.corpus import MAT
from tests.played import match_record, money_session

ROOT = Path(__file__).resolve().parents[2]
RECORDS = sorted(MAT.glob("*.mat")) if MAT.exists() else []
RECORDS += sorted((ROOT / "examples").glob("*.mat"))
RECORDS += sorted((ROOT / "tests" / "records" / "fixtures").glob("*.mat"))
GENERATED = {
    "backgammon money": lambda: money_session("backgammon", 12, {"beavers": True}, 21),
    "long-nardy money": lambda: money_session("long-nardy", 8, {}, 22),
    "khachapuri money": lambda: money_session("khachapuri", 8, {"draw_rule": True}, 23),
    "long-nardy match": lambda: match_record("long-nardy", 5, {}, 24),
    "khachapuri match": lambda: match_record("khachapuri", 21, {}, 25),
}


@pytest.fixture(scope="module")
def env(tmp_path_factory: pytest.TempPathFactory) -> Env:
    return make_env(tmp_path_factory.mktemp("pages") / "archive.sqlite3")


def texts() -> list[object]:
    found: list[object] = [
        pytest.param(lambda path=path: path.read_text(encoding="utf-8-sig"), id=path.name)
        for path in RECORDS
    ]
    found += [pytest.param(make, id=name) for name, make in GENERATED.items()]
    return found


@pytest.mark.parametrize("make", texts())
def test_every_game_page_of_a_stored_record_shows_its_board(env: Env, make: object) -> None:
    assert callable(make)
    match_id = env.stored(make(), allow_invalid=True)
    stored = env.client.get(f"/v1/matches/{match_id}").get_json()
    games = len(stored["verdict"]["games"])
    if stored["verdict"]["variant"] not in ("backgammon", "long-nardy", "khachapuri"):
        return  # a variation the referee cannot check has no replay
    for game in range(1, games + 1):
        page = env.client.get(f"/matches/{match_id}?g={game}")
        assert page.status_code == 200, (game, page.get_data(as_text=True)[:300])
        html = page.get_data(as_text=True)
        drawn = re.findall(r'<svg [^>]*data-position="([^"]+)"', html)
        assert drawn, f"game {game} shows no board"
        replay = env.client.get(f"/v1/matches/{match_id}/games/{game}/replay").get_json()
        positions = {action["position_before"] for action in replay["actions"]}
        positions |= {action["position_after"] for action in replay["actions"]}
        assert set(drawn) <= positions, f"game {game} draws a position its replay does not hold"
