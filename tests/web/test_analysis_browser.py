"""A stored match's analysis in a real browser (tests/web/browsing.py), at a desktop's and a
phone's size, made by Debian's gnubg at 0-ply through a server's own worker: the players'
table with the API's figures and what PR is, all of gnubg's figures unfolded from the
keyboard, the replay's marks (?! ? ??) with gnubg's best play and the luck of each roll
at the steps the API names (game 1, and game 3's cube actions), kept while the replay is
stepped through, nothing wider than a phone, and the form queueing one with a token.
``ANALYSIS_SCREENSHOTS=DIR`` saves each size's page for a look by eye."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from referee.analysis.table import cell
from referee.web.analysis_view import MARKS, signed
from tests.api.test_matches_api import BG_EXAMPLE, example
from tests.events.support import until
from tests.players.gnubg import require_gnubg
from tests.server import Server, start, stop, write_token
from tests.web.test_browser_replay import DESKTOP, PHONE, SIZES, sized

__all__ = ["sized"]

ZERO = {"chequer_plies": 0, "cube_plies": 0}


class Analysed:
    """The server, the match, its analysis as the API gives it, and a token that queues."""

    def __init__(self, server: Server, match_id: int, analysis: dict[str, Any], runner: str):
        self.server = server
        self.match_id = match_id
        self.analysis = analysis
        self.runner = runner

    @property
    def page(self) -> str:
        return f"{self.server.base}/matches/{self.match_id}"

    def marked(self, game: int) -> list[dict[str, Any]]:
        """Game ``game``'s actions that gnubg marked."""
        (found,) = [one for one in self.analysis["games"] if one["index"] == game]
        return [action for action in found["actions"] if action["mark"]]


@pytest.fixture(scope="module")
def analysed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Analysed]:
    require_gnubg()
    database = tmp_path_factory.mktemp("analysed") / "archive.sqlite3"
    writer = write_token(database, "writer")
    runner = write_token(database, "runner", "analysis:run")
    server = start(database, workers=1, env={"NARDY_REFEREE_ANALYSIS_WORKERS": "1"})
    try:
        stored = server.json("POST", "/v1/matches", {"record": example(BG_EXAMPLE)}, writer)
        queued = server.json("POST", f"/v1/matches/{stored['id']}/analyses", ZERO, runner)
        location = f"/v1/analyses/{queued['id']}"
        made = until(lambda: _made(server.json("GET", location)), 120)
        yield Analysed(server, stored["id"], made, runner)
    finally:
        stop(server)


def _made(found: dict[str, Any]) -> dict[str, Any] | None:
    assert found["status"] != "failed", found["problem"]
    return found if found["status"] == "done" else None


def fits(page: Any) -> bool:
    """Whether the page is no wider than its window (nothing to scroll sideways)."""
    found: bool = page.evaluate("() => document.scrollingElement.scrollWidth <= window.innerWidth")
    return found


def shot(page: Any, name: str, viewport: dict[str, int]) -> None:
    folder = os.environ.get("ANALYSIS_SCREENSHOTS")
    if folder:  # a look by eye: ANALYSIS_SCREENSHOTS=/tmp/analysis
        size = "desktop" if viewport is DESKTOP else "phone"
        page.screenshot(path=str(Path(folder) / f"{name}-{size}.png"), full_page=True)


@SIZES
def test_the_players_table_shows_the_apis_figures(
    sized: Any, analysed: Analysed, viewport: dict[str, int]
) -> None:
    from playwright.sync_api import expect

    sized.goto(analysed.page)
    section = sized.locator("section#analysis")
    players = analysed.analysis["players"]
    names = analysed.analysis["names"]
    key = section.locator("table.analysis-figures").first
    expect(key.locator("caption")).to_contain_text(
        f"gnubg {analysed.analysis['engine']['version']}, chequer play 0-ply, cube 0-ply"
    )
    expect(key.locator("thead th")).to_have_text(["Figure", names["w"], names["b"]])
    expect(key.locator("tr.pr td")).to_have_text([cell(players[side]["pr"]) for side in "wb"])
    expect(section).to_contain_text("gnubg's judgement on eXtreme Gammon's scale")
    everything = section.locator("details.all-figures")
    expect(everything.locator("table")).to_be_hidden()
    everything.locator("summary").focus()
    sized.keyboard.press("Enter")
    luck = everything.get_by_role("row", name="Luck rating")
    expect(luck).to_be_visible()
    expect(luck.locator("td")).to_have_text([players[side]["luck"]["rating"] for side in "wb"])
    assert fits(sized)
    shot(sized, "match-analysis", viewport)


@SIZES
def test_the_replay_marks_each_loss_with_gnubgs_best_play(
    sized: Any, analysed: Analysed, viewport: dict[str, int]
) -> None:
    from playwright.sync_api import expect

    for game in (1, 3):
        marked = analysed.marked(game)
        assert marked, f"gnubg marked nothing in game {game}"
        sized.goto(f"{analysed.page}?g={game}&a=1#g{game}-a1")
        for action in marked:
            step = sized.locator(f"#g{game}-a{action['index']}")
            symbols = [text.split()[-1] for text in step.locator(".mark").all_text_contents()]
            assert MARKS[action["mark"]] in symbols, (action, symbols)
            loss = f"{action['mark'].replace('_', ' ')}: best "
            judged = step.locator(".step-analysis .judged").all_text_contents()
            assert any(
                loss in text and text.endswith(signed(action["equity_loss"])) for text in judged
            ), (action, judged)
        for _ in range(len(marked) + 2):  # the marks stay while the replay is stepped
            sized.keyboard.press("ArrowRight")
        expect(sized.locator("ol.moves .mark")).to_have_count(len(marked))
        assert fits(sized)
    lucky = [
        action
        for action in analysed.analysis["games"][0]["actions"]
        if action["luck_mark"] is not None
    ]
    assert lucky, "no roll of game 1 was lucky or unlucky"
    sized.goto(f"{analysed.page}?g=1")
    for action in lucky:
        luck = sized.locator(f"#g1-a{action['index']} .step-analysis .luck")
        expect(luck).to_have_text(
            f"luck {signed(action['luck'])} ({action['luck_mark'].replace('_', ' ')})"
        )
    shot(sized, "replay-marks", viewport)


@SIZES
def test_the_form_queues_an_analysis_from_the_keyboard(
    sized: Any, analysed: Analysed, viewport: dict[str, int]
) -> None:
    from playwright.sync_api import expect

    sized.goto(analysed.page)
    form = sized.locator("details.analyse-form")
    form.locator("summary").focus()
    sized.keyboard.press("Enter")
    form.get_by_label("Cube decisions").select_option("1")
    form.get_by_label("Chequer play").select_option("0")
    form.get_by_label("Token (analysis:run)").fill(analysed.runner)
    if viewport is PHONE:
        shot(sized, "analysis-form", viewport)
    sized.keyboard.press("Enter")
    expect(sized).to_have_url(f"{analysed.page}?an=" + _next_id(analysed) + "#analysis")
    listed = sized.get_by_role("list", name="The match's analyses")
    expect(listed).to_contain_text("0-ply, cube 1-ply")
    expect(listed).to_contain_text("0-ply, cube 0-ply: done")
    assert fits(sized)


def _next_id(analysed: Analysed) -> str:
    """The id of the match's 0-ply, 1-ply-cube analysis (queued by the first size's run)."""
    path = f"/v1/matches/{analysed.match_id}/analyses"
    found = until(
        lambda: [
            one
            for one in analysed.server.json("GET", path)["analyses"]
            if one["settings"] == {"chequer_plies": 0, "cube_plies": 1}
        ],
        30,
    )
    return str(found[0]["id"])
