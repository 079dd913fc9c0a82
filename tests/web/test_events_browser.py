"""The events and ratings pages in a real browser (tests/web/browsing.py), against gunicorn
on an archive whose events were built through the API first: a user goes from the events
to an event, to a pairing's replay; sees a knockout's bracket with its rounds side by side;
opens a rating and sees its chart; and all of it works without JavaScript and on a phone."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from tests.events.support import make_site
from tests.server import Server, running
from tests.web.test_events_pages import club_round_robin


@dataclass
class Built:
    server: Server
    club: int
    cup: int
    cup_final: dict[str, Any]


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Built]:
    folder = tmp_path_factory.mktemp("events-browser")
    site = make_site(folder)
    club = club_round_robin(site).event_id
    cup = site.start(
        site.create(name="Bot cup", format="knockout", kind="bots", entrants=list(site.bots))["id"]
    )["id"]
    final = site.play_out(cup, seed=11)["rounds_played"][-1]["pairings"][0]
    site.create(name="Next week", format="swiss", rounds=2, kind="records", entrants=["X", "Y"])
    site.storage.close()
    with running(folder / "archive.sqlite3", workers=1) as server:
        yield Built(server, club, cup, final)


def test_from_the_events_to_an_event_to_a_pairings_replay(page: Any, built: Built) -> None:
    from playwright.sync_api import expect

    page.goto(built.server.base + "/")
    page.get_by_role("navigation", name="Site").get_by_role("link", name="Events").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Events")
    finished = page.locator("section", has=page.get_by_role("heading", name="Finished"))
    finished.get_by_role("link", name="Club night").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Club night")
    first = page.locator("table.pairings tbody tr").first
    white = first.locator("td").nth(1).inner_text()
    black = first.locator("td").nth(2).inner_text()
    replay = first.get_by_role("link", name="Replay")
    replay.focus()  # keyboard first: the link is reached and followed with Enter
    page.keyboard.press("Enter")
    expect(page.get_by_role("heading", level=1)).to_contain_text(f"{white} – {black}")
    expect(page.locator(".board-frame svg")).to_be_visible()


def test_a_knockouts_bracket_stands_round_by_round(page: Any, built: Built) -> None:
    from playwright.sync_api import expect

    page.goto(f"{built.server.base}/events/{built.cup}")
    rounds = page.locator("ol.bracket > li")
    expect(rounds).to_have_count(3)
    boxes = [rounds.nth(at).bounding_box() for at in range(3)]
    assert boxes[0]["x"] < boxes[1]["x"] < boxes[2]["x"]  # side by side
    assert len({round(box["y"]) for box in boxes}) == 1
    final = rounds.nth(2).locator(".slot.won")
    expect(final).to_contain_text(built.cup_final["winner"])
    # The final's match stands between the two semi-finals, not at the top.
    semis = rounds.nth(1).locator(".bracket-match")
    top, bottom = semis.nth(0).bounding_box(), semis.nth(1).bounding_box()
    middle = rounds.nth(2).locator(".bracket-match").bounding_box()
    assert top["y"] < middle["y"] < bottom["y"] + bottom["height"]
    rounds.nth(2).get_by_role("link", name="Watch").click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(
        f"Live match {built.cup_final['live_ids'][0]}"
    )


def test_a_rating_shows_its_chart(page: Any, built: Built) -> None:
    from playwright.sync_api import expect

    page.goto(built.server.base + "/events")
    page.get_by_role("navigation", name="Site").get_by_role("link", name="Ratings").click()
    table = page.locator("table.ratings").first
    name = table.locator("tbody th").first.inner_text()
    table.get_by_role("link", name=name, exact=True).click()
    chart = page.get_by_role("img", name=f"{name}'s Short nardy (backgammon) rating")
    expect(chart).to_be_visible()
    box = chart.bounding_box()
    assert box["width"] > 300 and box["height"] > 100
    rows = page.locator("table.history tbody tr")
    expect(chart.locator("circle")).to_have_count(rows.count() + 1)


def test_the_pages_work_without_javascript(browser: Any, built: Built) -> None:
    from playwright.sync_api import expect

    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(built.server.base + "/events")
        page.get_by_role("link", name="Bot cup").click()
        expect(page.get_by_role("heading", name="Standings")).to_be_visible()
        page.locator("table.pairings").first.get_by_role("link", name="Replay").first.click()
        expect(page.locator(".board-frame svg")).to_be_visible()
    finally:
        context.close()


@pytest.mark.parametrize("path", ["/events", "event", "/ratings"])
def test_on_a_phone_only_the_tables_scroll(browser: Any, built: Built, path: str) -> None:
    """A narrow screen: the page itself does not scroll sideways (wide tables and the
    bracket scroll inside their own boxes)."""
    page = browser.new_page(viewport={"width": 390, "height": 800})
    try:
        page.goto(built.server.base + (f"/events/{built.cup}" if path == "event" else path))
        overflow = page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0
    finally:
        page.close()
