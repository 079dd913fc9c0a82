"""A double elimination's brackets in a real browser (tests/web/browsing.py), against
gunicorn on an archive whose event was played through the API first: the winners', the
losers' bracket and the grand final stand one below the other, each bracket's levels side
by side and a later level's match between the two it follows; with and without
JavaScript, and on a phone without the page scrolling sideways."""

from __future__ import annotations

import os
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest

from tests.events.support import make_site
from tests.events.test_bracket_events import PEOPLE, run_out
from tests.server import Server, running


@dataclass
class Built:
    server: Server
    event_id: int
    champion: str


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Built]:
    folder = tmp_path_factory.mktemp("brackets-browser")
    site = make_site(folder)
    created = site.create(name="Double cup", format="double-elimination", kind="records",
                          entrants=PEOPLE)  # fmt: skip
    event = run_out(site, created["id"], lambda pairing: "w")
    site.storage.close()
    with running(folder / "archive.sqlite3", workers=1) as server:
        yield Built(server, created["id"], event["standings"][0]["name"])


def test_the_brackets_stand_level_by_level(page: Any, built: Built) -> None:
    from playwright.sync_api import expect

    page.goto(f"{built.server.base}/events/{built.event_id}")
    brackets = page.locator("section.bracket-part")
    expect(brackets).to_have_count(3)
    expect(brackets.get_by_role("heading", level=3)).to_have_text(
        ["Winners' bracket", "Losers' bracket", "Grand final"]
    )
    winners, losers, final = (brackets.nth(at) for at in range(3))
    assert winners.bounding_box()["y"] < losers.bounding_box()["y"] < final.bounding_box()["y"]
    levels = winners.locator("ol.bracket > li")
    expect(levels).to_have_count(3)
    boxes = [levels.nth(at).bounding_box() for at in range(3)]
    assert boxes[0]["x"] < boxes[1]["x"] < boxes[2]["x"]  # side by side
    semis = levels.nth(1).locator(".bracket-match")
    top, bottom = semis.nth(0).bounding_box(), semis.nth(1).bounding_box()
    middle = levels.nth(2).locator(".bracket-match").bounding_box()
    assert top["y"] < middle["y"] < bottom["y"] + bottom["height"]
    expect(losers.locator("ol.bracket > li")).to_have_count(4)
    expect(final.locator(".slot.won")).to_contain_text(built.champion)
    shots = os.environ.get("BRACKET_SCREENSHOT")
    if shots:  # a look by eye: BRACKET_SCREENSHOT=/tmp/brackets.png
        page.locator("section.bracket-section").screenshot(path=shots)


def test_the_brackets_are_there_without_javascript(browser: Any, built: Built) -> None:
    from playwright.sync_api import expect

    context = browser.new_context(java_script_enabled=False)
    try:
        page = context.new_page()
        page.goto(f"{built.server.base}/events/{built.event_id}")
        expect(page.get_by_role("heading", name="Brackets")).to_be_visible()
        expect(page.locator("section.bracket-part")).to_have_count(3)
    finally:
        context.close()


def test_on_a_phone_only_the_brackets_scroll(browser: Any, built: Built) -> None:
    page = browser.new_page(viewport={"width": 390, "height": 800})
    try:
        page.goto(f"{built.server.base}/events/{built.event_id}")
        overflow = page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0
    finally:
        page.close()
