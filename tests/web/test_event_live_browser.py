"""An event's page in a real browser (tests/web/browsing.py) against gunicorn, EVENTS.md §9
and issue 27: with JavaScript it changes in place when the event starts and when a round
finishes (no reload), and without it reloads itself; its results and standings are
readable at 390×844 (each row a card, nothing cut off) and stay tables at 1280×900; the
results say "wins 3–0" with the real points beside them; the options shown are only those
that apply (no Jacoby in match play)."""

from __future__ import annotations

import random
import re
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from referee.storage import open_storage
from tests.events.support import Site, make_site
from tests.server import Server, start, stop

PHONE = {"width": 390, "height": 844}
DESK = {"width": 1280, "height": 900}
DEADLINE_MS = 20_000


@dataclass
class Live:
    server: Server
    site: Site


@pytest.fixture
def live(tmp_path: Path) -> Iterator[Live]:
    """A fresh archive (each test plays a round of its own) served by gunicorn, and the
    site that built it, whose storage plays the live matches in process (under
    NARDY_REFEREE_TEST_BACKEND=postgresql: a PostgreSQL database, two workers)."""
    site = make_site(tmp_path)
    database = site.app.config["DATABASE"]
    site.storage.close()
    workers = 1 if isinstance(database, Path) else 2
    server = start(database, workers, log=tmp_path / "server.log")
    site.storage = open_storage(database)
    try:
        yield Live(server, site)
    finally:
        site.storage.close()
        stop(server)


def open_swiss(site: Site, name: str) -> dict[str, Any]:
    """An open bots Swiss of four, matches to 3 points."""
    return site.create(
        name=name, format="swiss", rounds=2, kind="bots", length=3, entrants=list(site.bots)[:4]
    )


def swiss(site: Site, name: str = "Tuesday Swiss") -> dict[str, Any]:
    """The same, running, round 1 paired."""
    return site.start(open_swiss(site, name)["id"])


def play_round(site: Site, event: dict[str, Any], seed: int) -> float:
    """Play every live match of the event's current round; when the last one ended."""
    rng = random.Random(seed)
    for pairing in event["rounds_played"][-1]["pairings"]:
        site.play(pairing["live_ids"][0], rng)
    return time.monotonic()


def round_statuses(page: Any, number: int) -> Any:
    return page.locator(f'[data-live-part="round-{number}"] table.pairings tbody .badge')


def test_with_javascript_the_page_changes_in_place_when_it_starts_and_a_round_finishes(
    page: Any, live: Live
) -> None:
    from playwright.sync_api import expect

    created = open_swiss(live.site, "Tuesday Swiss")
    page.goto(f"{live.server.base}/events/{created['id']}")
    expect(page.locator("[data-live-note]")).to_contain_text("Following the event live")
    expect(page.locator('[data-live-part="entrants"]')).to_be_visible()
    page.evaluate("window.stayed = true")  # gone if the page reloads
    event = live.site.start(created["id"])  # the page's body changes: standings, rounds
    expect(round_statuses(page, 1)).to_have_text(["playing", "playing"], timeout=DEADLINE_MS)
    expect(page.locator('[data-live-part="entrants"]')).to_have_count(0)
    expect(page.locator('[data-live-part="meta"] .badge')).to_have_text("running")
    ended = play_round(live.site, event, seed=4)
    expect(round_statuses(page, 1)).to_have_text(["finished", "finished"], timeout=DEADLINE_MS)
    seen = time.monotonic() - ended
    # Round 2 is paired, then its live matches attached (a change of its own): both show.
    second = page.locator('[data-live-part="round-2"]')
    expect(second.get_by_role("link", name="Watch")).to_have_count(2, timeout=DEADLINE_MS)
    assert page.evaluate("window.stayed === true"), "the page changed in place, not reloaded"
    print(f"round 1's results on the page {seen:.2f} s after its last match ended")
    # What the script put in place is what the server writes.
    shown = page.locator("[data-live-body]").inner_text()
    page.reload()
    assert page.locator("[data-live-body]").inner_text() == shown


def test_without_javascript_the_page_reloads_itself(browser: Any, live: Live) -> None:
    from playwright.sync_api import expect

    event = swiss(live.site, "No script Swiss")
    context = browser.new_context(java_script_enabled=False, viewport=DESK)
    try:
        page = context.new_page()
        loads: list[str] = []
        page.on("load", lambda: loads.append(page.url))
        page.goto(f"{live.server.base}/events/{event['id']}")
        expect(page.locator("noscript")).to_have_count(2)  # the refresh and the note
        expect(round_statuses(page, 1)).to_have_text(["playing", "playing"])
        play_round(live.site, event, seed=5)
        expect(round_statuses(page, 1)).to_have_text(["finished", "finished"], timeout=DEADLINE_MS)
        assert len(loads) >= 2, "the page was loaded again by its refresh"
    finally:
        context.close()


def finished_swiss(live: Live) -> dict[str, Any]:
    event = swiss(live.site, "Finished Swiss")
    seed = 0
    while event["status"] == "running":
        seed += 1
        event = live.site.event(event["id"])
        if all(p["live_ids"] for p in event["rounds_played"][-1]["pairings"]):
            play_round(live.site, event, seed)
            event = live.site.event(event["id"])
    return event


@pytest.mark.parametrize("viewport", [PHONE, DESK], ids=["390x844", "1280x900"])
def test_results_and_standings_read_whole_on_a_phone_and_a_desk(
    browser: Any, live: Live, viewport: dict[str, int]
) -> None:
    from playwright.sync_api import expect

    event = finished_swiss(live)
    page = browser.new_page(viewport=viewport)
    try:
        page.goto(f"{live.server.base}/events/{event['id']}")
        overflow = page.evaluate(
            "document.documentElement.scrollWidth - document.documentElement.clientWidth"
        )
        assert overflow <= 0, "the page does not scroll sideways"
        cells = page.locator(
            "table.standings td, table.standings th[scope=row], table.pairings td.result"
        )
        width = viewport["width"]
        for at in range(cells.count()):
            box = cells.nth(at).bounding_box()
            assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, at
        header = page.locator("table.standings thead").first
        phone = viewport == PHONE
        assert header.bounding_box()["height"] <= 1 if phone else header.is_visible()
        if phone:  # each row is a card: a result's cell runs across the card
            result = page.locator("table.pairings td.result").first
            assert result.bounding_box()["width"] > width * 0.6
        # A result says the score as it counts and the real one beside it when it differs.
        for played in event["rounds_played"]:
            for pairing in played["pairings"]:
                real = sorted(pairing["points"], reverse=True)
                counted = [min(points, event["length"]) for points in real]
                words = f"{pairing['winner']} wins {counted[0]}–{counted[1]}"
                if counted != real:
                    words += f", scored {real[0]}–{real[1]}"
                rows = page.locator(f'[data-live-part="round-{played["number"]}"] tbody tr')
                cell = rows.nth(pairing["table"] - 1).locator("td.result")
                expect(cell).to_have_text(re.compile(rf"{re.escape(words)}( \(.+\))?\."))
        options = page.locator(".settings dd").nth(5)
        expect(options).to_contain_text("Crawford rule: yes")
        expect(page.locator(".settings")).not_to_contain_text("jacoby")
        expect(page.locator(".settings")).not_to_contain_text("beavers")
        # The archive holds the event's matches under its name (EVENTS.md §10).
        page.get_by_role("link", name="its matches in the archive").click()
        match_ids = [
            m for r in event["rounds_played"] for p in r["pairings"] for m in p["match_ids"]
        ]
        expect(page.locator("table.archive tbody tr")).to_have_count(len(match_ids))
    finally:
        page.close()
