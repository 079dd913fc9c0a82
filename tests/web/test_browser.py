"""The pages in a real browser: Debian's chromium driven by Playwright (the system browser,
no download), against gunicorn on a loopback port. Without chromium these tests skip with
the reason; REQUIRE_BROWSER=1 (CI) turns that skip into a failure."""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from tests.api.test_matches_api import LN_EXAMPLE, example, invalid_galaxy
from tests.server import Server, running, write_token
from tests.web.browsing import expect_board


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, dict[str, int]]]:
    """A server with two stored matches: the long nardy example and an invalid record."""
    database = tmp_path_factory.mktemp("browser") / "archive.sqlite3"
    token = write_token(database)
    with running(database, workers=1) as server:
        ids = {
            "long": server.json("POST", "/v1/matches", {"record": example(LN_EXAMPLE)}, token)[
                "id"
            ],
            "invalid": server.json(
                "POST", "/v1/matches", {"record": invalid_galaxy(), "allow_invalid": True}, token
            )["id"],
        }
        yield server, ids


def actions(server: Server, match_id: int, game: int) -> list[dict[str, Any]]:
    replay: dict[str, Any] = server.json("GET", f"/v1/matches/{match_id}/games/{game}/replay")
    return replay["actions"]


def open_match(
    page: Any, site: tuple[Server, dict[str, int]], name: str, game: int, rest: str = ""
) -> list[dict[str, Any]]:
    """Open the page of stored match ``name`` (``rest``: query and fragment); the replay
    API's actions of ``game``."""
    server, ids = site
    page.goto(f"{server.base}/matches/{ids[name]}{rest}")
    return actions(server, ids[name], game)


def test_a_pasted_record_gets_its_verdict(page: Any, site: tuple[Server, dict[str, int]]) -> None:
    from playwright.sync_api import expect

    server, _ = site
    page.goto(server.base + "/")
    page.get_by_label("Record", exact=True).fill(invalid_galaxy())
    page.get_by_role("button", name="Check the record").click()
    expect(page.locator(".verdict-badges")).to_contain_text("Invalid")
    expect(page.locator(".findings .error").first).to_contain_text(
        "13/8 24/23 cannot be played with 4-1"
    )
    # The first error is highlighted in the move list and shown on the board.
    illegal = page.locator("#g1-a4")
    expect(illegal).to_have_class(re.compile(r"\billegal\b.*\bcurrent\b"))
    expect(illegal).to_contain_text("Legal: 24/23 13/9, ")  # the closest first


def test_a_fragment_shows_that_action_as_the_replay_api_says(
    page: Any, site: tuple[Server, dict[str, int]]
) -> None:
    replay = open_match(page, site, "long", 1, "#g1-a2")
    expect_board(page, replay[1]["position_after"])
    from playwright.sync_api import expect

    expect(page.locator("#g1-a2")).to_have_class(re.compile(r"\bcurrent\b"))


def test_keys_step_and_the_fragment_follows(page: Any, site: tuple[Server, dict[str, int]]) -> None:
    replay = open_match(page, site, "invalid", 1, "#g1-a2")
    expect_board(page, replay[1]["position_after"])
    page.keyboard.press("ArrowRight")
    expect_board(page, replay[2]["position_after"])
    assert page.url.endswith("#g1-a3")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("ArrowLeft")
    expect_board(page, replay[0]["position_after"])
    assert page.url.endswith("#g1-a1")
    page.keyboard.press("End")
    expect_board(page, replay[-1]["position_after"])
    assert page.url.endswith(f"#g1-a{len(replay)}")
    page.keyboard.press("Home")
    expect_board(page, replay[0]["position_before"])  # action 0: the game's start
    assert page.url.endswith("#g1-a0")


def test_f_flips_and_a_reloaded_permalink_keeps_the_view(
    page: Any, site: tuple[Server, dict[str, int]]
) -> None:
    replay = open_match(page, site, "long", 2, "?g=2#g2-a2")
    expect_board(page, replay[1]["position_after"])
    page.keyboard.press("f")
    expect_board(page, replay[1]["position_after"], "b")
    page.keyboard.press("ArrowRight")
    expect_board(page, replay[2]["position_after"], "b")
    permalink = page.url
    assert "o=b" in permalink and permalink.endswith("#g2-a3")
    page.reload()
    expect_board(page, replay[2]["position_after"], "b")
    page.goto("about:blank")
    page.goto(permalink)
    expect_board(page, replay[2]["position_after"], "b")


def test_a_fragment_of_another_game_opens_that_game(
    page: Any, site: tuple[Server, dict[str, int]]
) -> None:
    replay = open_match(page, site, "long", 3, "#g3-a1")
    expect_board(page, replay[0]["position_after"])


def test_n_jumps_to_the_next_error_and_shows_it(
    page: Any, site: tuple[Server, dict[str, int]]
) -> None:
    from playwright.sync_api import expect

    replay = open_match(page, site, "invalid", 1, "#g1-a0")
    expect_board(page, replay[0]["position_before"])
    page.keyboard.press("n")
    # Game 1's actions: robacc 61, lasse 55, robacc 64, lasse 41 (illegal): the fourth.
    expect(page.locator("li.step.current")).to_have_id("g1-a4")
    expect(page.locator("li.step.current")).to_have_class(re.compile(r"\billegal\b"))
    expect(page.locator("[data-current-error]")).to_contain_text("cannot be played with 4-1")
    expect_board(page, replay[3]["position_after"])


def test_a_click_on_an_action_steps_in_place(
    page: Any, site: tuple[Server, dict[str, int]]
) -> None:
    replay = open_match(page, site, "long", 1)
    page.locator("#g1-a3 a").click()
    expect_board(page, replay[2]["position_after"])
    assert page.url.endswith("#g1-a3")


def test_a_finding_link_shows_its_action_on_the_board(
    page: Any, site: tuple[Server, dict[str, int]]
) -> None:
    from playwright.sync_api import expect

    server, _ = site
    page.goto(server.base + "/")
    page.get_by_label("Record", exact=True).fill(invalid_galaxy())
    page.get_by_role("button", name="Check the record").click()
    page.locator("#g1-a2 a").click()
    expect(page.locator("li.step.current")).to_have_id("g1-a2")
    page.get_by_role("link", name="show on the board").first.click()
    expect(page.locator("li.step.current")).to_have_id("g1-a4")
    assert page.url.endswith("#g1-a4")


def test_without_javascript_the_links_step_and_flip(
    browser: Any, site: tuple[Server, dict[str, int]]
) -> None:
    context = browser.new_context(java_script_enabled=False)
    page = context.new_page()
    try:
        replay = open_match(page, site, "long", 1, "?g=1&a=1")
        expect_board(page, replay[0]["position_after"])
        page.get_by_role("link", name="Forward →").click()
        expect_board(page, replay[1]["position_after"])
        assert "a=2" in page.url  # the server drew it: no script stepped in place
        page.get_by_role("link", name="Flip (f)").click()
        expect_board(page, replay[1]["position_after"], "b")
        page.locator("#g1-a3 a").click()
        expect_board(page, replay[2]["position_after"], "b")
    finally:
        context.close()


def test_a_phone_sees_the_board_without_scrolling_sideways(
    browser: Any, site: tuple[Server, dict[str, int]]
) -> None:
    page = browser.new_page(viewport={"width": 375, "height": 740})
    try:
        open_match(page, site, "invalid", 1, "#g1-a4")
        expect_board(page, page.locator("#g1-a4").get_attribute("data-position"))
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        board = page.locator(".board-frame svg").bounding_box()
        assert board is not None and board["width"] <= 375
    finally:
        page.close()


# -- watching a live match ----------------------------------------------------------------


@pytest.fixture(scope="module")
def live_site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Server, Any]]:
    """A threaded server (streams hold a thread each) with a host's and two bots' tokens."""
    from tests.live.harness import live_setup

    with live_setup(tmp_path_factory.mktemp("live-page") / "archive.sqlite3") as setup:
        yield setup


def test_the_watch_page_follows_a_live_match(page: Any, live_site: tuple[Server, Any]) -> None:
    from playwright.sync_api import expect

    from tests.live.harness import create, join_both, play_out, token_of

    server, tokens = live_site
    live_id = create(server, tokens, "backgammon")["id"]
    state = join_both(server, tokens, live_id)
    page.goto(f"{server.base}/live/{live_id}")
    expect_board(page, state["position"])
    expect(page.locator('[data-field="ply"]')).to_have_text(str(state["ply"]))
    # The starter plays his opening roll: the page shows the new position without a reload.
    body = {"ply": state["ply"], "action": "play", "play": state["legal_plays"][0]}
    after = server.json(
        "POST", f"/v1/live/{live_id}/actions", body, token_of(tokens, state["to_act"])
    )
    expect_board(page, after["position"])
    expect(page.locator('[data-field="ply"]')).to_have_text(str(after["ply"]))
    # Played out by the reference bots: the page ends on the result and the stored match.
    final = play_out(server, tokens, live_id, seed=11)
    expect(page.get_by_role("link", name="Replay the stored match")).to_have_attribute(
        "href", f"/matches/{final['match_id']}"
    )
