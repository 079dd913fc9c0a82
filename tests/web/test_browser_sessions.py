"""Long money sessions and verdict wording in a real browser (tests/web/browsing.py): game 50
of a stored 400-game session shows its board in the first screen, every variant's session
steps and picks games past game 1, and a pasted record's verdict says what it is."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.api.test_matches_api import BG_EXAMPLE, example, invalid_galaxy
from tests.played import money_session
from tests.server import Server, running, write_token
from tests.web.browsing import expect_board

Site = tuple[Server, dict[str, int]]

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def sessions() -> dict[str, str]:
    """Money sessions played at random: 400 backgammon games, a dozen of each nardy."""
    return {
        "backgammon": money_session("backgammon", 400, {}, 9),
        "long-nardy": money_session("long-nardy", 12, {}, 3),
        "khachapuri": money_session("khachapuri", 12, {"draw_rule": True}, 4),
    }


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, sessions: dict[str, str]) -> Iterator[Site]:
    database = tmp_path_factory.mktemp("sessions") / "archive.sqlite3"
    token = write_token(database)
    with running(database, workers=1) as server:
        ids = {}
        for name, record in sessions.items():
            stored = server.json("POST", "/v1/matches", {"record": record}, token)
            assert stored["verdict"]["valid"], name  # played by the live table: every action legal
            ids[name] = stored["id"]
        yield server, ids


def actions(server: Server, match_id: int, game: int) -> list[dict[str, Any]]:
    replay: dict[str, Any] = server.json("GET", f"/v1/matches/{match_id}/games/{game}/replay")
    return replay["actions"]


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_game_50_of_a_400_game_session_shows_its_board_in_the_first_screen(
    browser: Any, site: Site, viewport: dict[str, int]
) -> None:
    from playwright.sync_api import expect

    server, ids = site
    page = browser.new_page(viewport=viewport)
    try:
        page.goto(f"{server.base}/matches/{ids['backgammon']}?g=50")
        expect_board(page, actions(server, ids["backgammon"], 50)[0]["position_before"])
        box = page.locator(".board-frame svg").bounding_box()
        assert box is not None
        assert box["y"] >= 0 and box["y"] + box["height"] <= viewport["height"]  # all of it
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        # One game's moves in the page; the picker is one small control of 400 options;
        # the games table is folded away.
        expect(page.locator("ol.moves")).to_have_count(1)
        expect(page.locator('ol.moves[data-game="50"]')).to_have_count(1)
        picker = page.get_by_label("Game", exact=True)
        expect(picker).to_have_value("50")
        expect(picker.locator("option")).to_have_count(400)
        height = picker.bounding_box()
        assert height is not None and height["height"] < 60
        assert page.locator("details.games").get_attribute("open") is None
        expect(page.locator("table.games")).to_be_hidden()
    finally:
        page.close()


@pytest.mark.parametrize("variant", ["backgammon", "long-nardy", "khachapuri"])
def test_a_money_session_past_game_1_shows_steps_and_picks_its_games(
    page: Any, site: Site, variant: str
) -> None:
    server, ids = site
    match_id = ids[variant]
    base = f"{server.base}/matches/{match_id}"
    game2 = actions(server, match_id, 2)
    page.goto(f"{base}?g=2")
    expect_board(page, game2[0]["position_before"])
    page.keyboard.press("ArrowRight")
    expect_board(page, game2[0]["position_after"])
    assert page.url.endswith("#g2-a1")
    last = len(game2)  # a game may be short: it may end at the first resignation
    page.locator(f"#g2-a{last} a").click()
    expect_board(page, game2[-1]["position_after"])
    # A permalink into game 5 from another game's page loads game 5's page at that action.
    game5 = actions(server, match_id, 5)
    page.goto(f"{base}#g5-a{len(game5)}")
    expect_board(page, game5[-1]["position_after"])
    assert "g=5" in page.url and page.url.endswith(f"#g5-a{len(game5)}")
    # Choosing game 2 in the picker, then the link to the next game.
    page.goto(base)
    expect_board(page, actions(server, match_id, 1)[0]["position_before"])
    page.get_by_label("Game", exact=True).select_option("2")
    page.get_by_role("button", name="Show").click()
    expect_board(page, game2[0]["position_before"])
    assert "g=2" in page.url
    page.get_by_role("link", name="Game 3 →").click()
    expect_board(page, actions(server, match_id, 3)[0]["position_before"])


def test_without_javascript_the_game_picker_is_a_plain_form(browser: Any, site: Site) -> None:
    server, ids = site
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    try:
        page.goto(f"{server.base}/matches/{ids['long-nardy']}")
        page.get_by_label("Game", exact=True).select_option("7")
        page.get_by_role("button", name="Show").click()
        expect_board(page, actions(server, ids["long-nardy"], 7)[0]["position_before"])
        page.get_by_role("link", name="Forward →").click()
        expect_board(page, actions(server, ids["long-nardy"], 7)[0]["position_after"])
        assert "g=7" in page.url and "a=1" in page.url
    finally:
        context.close()


def badge(word: str) -> re.Pattern[str]:
    """A badge's item: ``word`` first (not within another word: Valid is not Invalid)."""
    return re.compile(rf"^\s*{word}\b")


def paste(page: Any, server: Server, record: str) -> None:
    """Check ``record`` through the form (set at once: typing 100 KB takes long)."""
    page.goto(server.base + "/")
    page.locator("#record").evaluate("(area, text) => { area.value = text; }", record)
    page.get_by_role("button", name="Check the record").click()


def test_the_verdict_page_says_valid_and_complete_and_who_won(page: Any, site: Site) -> None:
    from playwright.sync_api import expect

    server, _ = site
    badges, outcome = page.locator(".verdict-badges li"), page.locator("[data-outcome]")
    # examples/backgammon_match.mat: Alice wins 5-2 (worked out in the file).
    paste(page, server, example(BG_EXAMPLE))
    expect(badges).to_have_text([badge("Valid"), badge("Complete")])
    expect(outcome).to_have_text("Alice wins the match, 5–2.")  # whitespace normalised
    # Cut before its third game: valid, but it stops at 1-2 of 5.
    whole = example(BG_EXAMPLE)
    paste(page, server, whole[: whole.index('; [StartPosition "backgammon ,1w,1w')])
    expect(badges).to_have_text([badge("Valid"), badge("Incomplete")])
    expect(outcome).to_contain_text("No winner")
    expect(outcome).not_to_contain_text("wins")
    # The galaxy record with an illegal play in game 1: the record's claim, not a result.
    paste(page, server, invalid_galaxy())
    expect(badges).to_have_text([badge("Invalid"), badge("Complete")])
    expect(outcome).to_contain_text("the record claims robacc won the match")
    expect(page.locator("main")).not_to_contain_text("wins the match")
    expect(page.locator("table.games tbody tr").first).to_contain_text(
        "No result (checking stopped at an error)"
    )
    page.get_by_role("link", name="show it", exact=True).click()
    expect(page.locator("li.step.current")).to_have_id("g1-a4")


def test_a_pasted_session_folds_its_games_and_keeps_the_board_first(
    browser: Any, site: Site
) -> None:
    from playwright.sync_api import expect

    server, _ = site
    page = browser.new_page(viewport=PHONE)
    try:
        paste(page, server, money_session("long-nardy", 40, {}, 8))
        expect(page.locator("ol.moves")).to_have_count(40)  # every game is in the page
        box = page.locator(".board-frame svg").bounding_box()
        assert box is not None and box["y"] + box["height"] <= PHONE["height"]
        assert page.locator("details.games").get_attribute("open") is None
        # The games are reached through links folded into one line.
        page.get_by_text("Go to a game (40)").click()
        page.get_by_role("navigation", name="Games").get_by_role("link", name="17").click()
        expect(page.locator("li.step.current")).to_have_id("g17-a0")
    finally:
        page.close()
