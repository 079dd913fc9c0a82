"""A stored match's analysis on its page (ANALYSIS.md §5), through Flask's test client: the
players' table of the analysis shown (the newest made, or the one asked for), what PR is,
the replay's marks (?! ? ??) with the engine's best play and the luck of each roll at the steps
the analysis names, the state of one not made yet or failed, and the form that queues one
with a token (refused on the page with the API's status; nothing queued then). The
analysis here is written by hand, as a worker would store it."""

from __future__ import annotations

import re
from pathlib import Path
from threading import Event
from typing import Any

import pytest

from referee.app import create_app
from referee.archive.analysis_worker import Worker
from referee.storage import open_storage
from referee.storage.model.analyses import Failed, Finished, NewAnalysis
from tests.api.test_matches_api import BG_EXAMPLE, LN_EXAMPLE, Env, example, make_env
from tests.web.test_pages import Elements

MINUS = "\N{MINUS SIGN}"


def stats(pr: float, rate: float, rating: str) -> dict[str, Any]:
    """A player's figures, those the tests look at filled in."""
    return {
        "chequer": {"unforced_moves": 9, "doubtful": 1, "bad": 1, "very_bad": 0},
        "luck": {"rating": "Go to Las Vegas"},
        "cube": None,
        "overall": {"error_rate_memg": rate, "rating": rating},
        "pr": pr,
    }


def action(index: int, kind: str, played: str, best: str, loss: float, **more: Any) -> Any:
    found = {"index": index, "side": more.get("side", "w"), "kind": kind, "played": played,
             "best": best, "equity_loss": loss, "mark": more.get("mark"),
             "luck": more.get("luck"), "luck_mark": more.get("luck_mark")}  # fmt: skip
    return found


RESULT = {
    "engine": {"name": "gnubg", "version": "1.07.001"},
    "settings": {"chequer_plies": 2, "cube_plies": 2},
    "names": {"w": "Alice", "b": "Bob"},
    "players": {"w": stats(12.34, -20.5, "Intermediate"), "b": stats(3.5, -7.25, "Expert")},
    "games": [
        {
            "index": 1,
            "players": {"w": stats(1, 1, "x"), "b": stats(1, 1, "x")},
            "actions": [
                action(1, "play", "8/5 6/5", "8/5 6/5", 0.0, luck=0.031),
                action(
                    2,
                    "play",
                    "24/18 13/9",
                    "24/18 18/14",
                    -0.071,
                    side="b",
                    mark="bad",
                    luck=-0.067,
                ),
                action(3, "no_double", "no double", "double", -0.15, mark="very_bad"),
                action(3, "play", "13/11 13/7*", "13/11 13/7*", 0.0, luck=0.412, luck_mark="lucky"),
            ],
        }
    ],
}


@pytest.fixture
def env(tmp_path: Path) -> Env:
    return make_env(tmp_path / "archive.sqlite3")


def analysed(env: Env, match_id: int, plies: int = 2, outcome: Any = None) -> int:
    """An analysis of the match at ``plies``, made (``outcome``; by default ``RESULT``)."""
    storage = open_storage(env.database)
    try:
        new = NewAnalysis(match_id=match_id, chequer_plies=plies, cube_plies=plies,
                          seconds=60.0, token_id=None)  # fmt: skip
        analysis_id = storage.analyses.queue(new).analysis.id
        if outcome is not False:
            claimed = storage.analyses.claim("w", 1e9, 60, Failed({}), 3)
            assert claimed is not None and claimed.id == analysis_id
            made = outcome or Finished(RESULT, "1.07.001", (12.34, 3.5))
            assert storage.analyses.finish(analysis_id, "w", made)
        return analysis_id
    finally:
        storage.close()


def words(html: str) -> str:
    """A page's text, a space between any two elements' texts (none before a colon)."""
    return " ".join(" ".join(Elements(html).text).split()).replace(" :", ":")


def step(html: str, anchor: str) -> str:
    """The words of one step of the move list."""
    found = re.search(rf'<li id="{anchor}".*?</li>', html, re.S)
    assert found is not None, anchor
    return words(found.group(0))


def test_the_players_table_and_the_replays_marks(env: Env) -> None:
    match_id = env.stored(example(BG_EXAMPLE))
    analysed(env, match_id)
    html = env.client.get(f"/matches/{match_id}").get_data(as_text=True)
    said = words(html)
    assert "gnubg 1.07.001, chequer play 2-ply, cube 2-ply" in said
    assert "PR 12.34 3.5 Overall error rate (mEMG) -20.5 -7.25 Overall rating Intermediate" in said
    assert "Luck rating Go to Las Vegas Go to Las Vegas" in said  # the full table
    assert "gnubg's judgement on eXtreme Gammon's scale (not XG's own figure)" in said
    assert step(html, "g1-a1") == "1. Alice 31: 8/5 6/5 luck +0.031"
    assert (
        step(html, "g1-a2")
        == f"1. Bob 64: 24/18 13/9 ? bad: best 24/18 18/14, {MINUS}0.071 luck {MINUS}0.067"
    )
    assert step(html, "g1-a3") == (
        f"2. Alice 62: 13/11 13/7* no double ?? no double: very bad: best double, {MINUS}0.150"
        " luck +0.412 (lucky)"
    )
    assert step(html, "g1-a4") == "2. Bob 65: no move"
    other_game = env.client.get(f"/matches/{match_id}?g=2").get_data(as_text=True)
    assert 'class="mark' not in other_game  # the analysis has no actions of game 2


def test_the_analysis_asked_for_and_one_not_made(env: Env) -> None:
    match_id = env.stored(example(BG_EXAMPLE))
    made = analysed(env, match_id)
    problem = {"code": "engine_timeout", "title": "Engine timed out", "detail": "after 30 s"}
    failed = analysed(env, match_id, plies=1, outcome=Failed(problem))
    waiting = analysed(env, match_id, plies=0, outcome=False)
    newest = words(env.client.get(f"/matches/{match_id}").get_data(as_text=True))
    assert "PR 12.34 3.5" in newest  # the newest made is shown
    assert "0-ply, cube 0-ply: queued" in newest and "1-ply, cube 1-ply: failed" in newest
    page = env.client.get(f"/matches/{match_id}?an={waiting}").get_data(as_text=True)
    said = words(page)
    assert f"Analysis {waiting} (0-ply, cube 0-ply) is queued: a worker makes it" in said
    assert "PR 12.34" not in said and 'class="mark' not in page
    said = Elements(
        env.client.get(f"/matches/{match_id}?an={failed}").get_data(as_text=True)
    ).words()
    assert "is failed: Engine timed out (engine_timeout): after 30 s" in said
    assert made != waiting


def test_the_form_queues_an_analysis_with_a_token(env: Env) -> None:
    match_id = env.stored(example(BG_EXAMPLE))
    _, runner = env.token("analysis:run")
    path = f"/matches/{match_id}/analyses"
    answer = env.client.post(path, data={"chequer_plies": "1", "cube_plies": "0", "token": runner})
    assert answer.status_code == 303
    location = answer.headers["Location"]
    assert re.fullmatch(rf"/matches/{match_id}\?an=\d+#analysis", location)
    page = env.client.get(location).get_data(as_text=True)
    assert "(1-ply, cube 0-ply) is queued" in words(page)
    again = env.client.post(path, data={"chequer_plies": "1", "cube_plies": "0", "token": runner})
    assert again.headers["Location"] == location  # the same analysis


@pytest.mark.parametrize(
    ("form", "status", "said"),
    [
        ({}, 401, "this needs a bearer token"),
        ({"token": "nrt_nobody"}, 401, "unknown or revoked"),
        ({"token": "reader"}, 403, "do not include analysis:run or archive:write"),
        ({"token": "runner", "chequer_plies": "9"}, 422, "chequer_plies must be a whole number"),
        ({"token": "runner", "cube_plies": "two"}, 422, "whole numbers from 0 to 3"),
    ],
)
def test_the_form_says_why_nothing_was_queued(
    env: Env, form: dict[str, str], status: int, said: str
) -> None:
    match_id = env.stored(example(BG_EXAMPLE))
    tokens = {"runner": env.token("analysis:run")[1], "reader": env.token("archive:read")[1]}
    if form.get("token") in tokens:
        form = {**form, "token": tokens[form["token"]]}
    answer = env.client.post(f"/matches/{match_id}/analyses", data=form)
    assert answer.status_code == status
    page = answer.get_data(as_text=True)
    assert "Not queued:" in words(page) and said in page
    assert '<details class="analyse-form" open>' in page
    storage = open_storage(env.database)
    try:
        assert storage.analyses.of_match(match_id) == []
    finally:
        storage.close()


def test_a_refused_form_keeps_its_plies(env: Env) -> None:
    match_id = env.stored(example(BG_EXAMPLE))
    form = {"chequer_plies": "1", "cube_plies": "3", "token": "nrt_nobody"}
    page = env.client.post(f"/matches/{match_id}/analyses", data=form).get_data(as_text=True)
    start = page.index('class="analyse-form"')
    form_html = page[start : page.index("</form>", start)]
    chosen = re.findall(r'<option value="(\d)" selected>', form_html)
    assert chosen == ["1", "3"]


def test_a_nardy_match_is_analysed_by_the_referees_own_engine(env: Env) -> None:
    """The page names the engine that judges a nardy match, queues one with a token, and
    shows the engine's figures with what its PR is (a worker made it: no gnubg)."""
    match_id = env.stored(example(LN_EXAMPLE))
    page = env.client.get(f"/matches/{match_id}").get_data(as_text=True)
    assert "Analysis by the referee's nardy engine" in words(page)
    assert "analyse-form" in page
    _, runner = env.token("analysis:run")
    form = {"chequer_plies": "1", "cube_plies": "0", "token": runner}
    answer = env.client.post(f"/matches/{match_id}/analyses", data=form)
    assert answer.status_code == 303
    assert Worker(str(env.database), "/nonexistent/gnubg").run(Event(), until_idle=True) == 1
    shown = words(env.client.get(f"/matches/{match_id}").get_data(as_text=True))
    assert "nardy-referee " in shown and "chequer play 1-ply" in shown
    assert "the referee's own nardy engine's judgement" in shown
    assert "gnubg's judgement" not in shown
    page = Elements(env.client.get(f"/matches/{match_id}").get_data(as_text=True))
    links = {attrs.get("href") for tag, attrs in page.tags if tag == "a"}
    assert {"/docs/engine#5", "/docs/analysis#11"} <= links
    for guide, anchor in (("/docs/engine", "5"), ("/docs/analysis", "11")):
        assert f'id="{anchor}"' in env.client.get(guide).get_data(as_text=True)


def test_the_check_page_has_no_analysis(tmp_path: Path) -> None:
    client = create_app({"DATABASE": str(tmp_path / "a.sqlite3")}).test_client()
    page = client.post("/check", data={"record": example(BG_EXAMPLE)}).get_data(as_text=True)
    assert "step-analysis" not in page and 'class="mark' not in page
