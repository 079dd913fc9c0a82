"""An event's page when the server refuses it the event's stream (429: as many follow the
event as the server lets, EVENTS.md §9's limits): with JavaScript it reads itself again
every few seconds instead, in place, and says so (a real browser against gunicorn)."""

from __future__ import annotations

import json
from typing import Any

from tests.web.test_event_live_browser import (  # noqa: F401 (live: a fixture)
    DEADLINE_MS,
    Live,
    live,
    play_round,
    round_statuses,
    swiss,
)


def test_a_refused_stream_leaves_the_page_reading_itself_again(
    page: Any,
    live: Live,  # noqa: F811 (the fixture imported above)
) -> None:
    from playwright.sync_api import expect

    event = swiss(live.site, "Crowded Swiss")
    refusals: list[str] = []

    def refuse(route: Any) -> None:
        refusals.append(route.request.url)
        problem = {"type": "about:blank", "status": 429, "code": "too_many_streams"}
        route.fulfill(
            status=429,
            headers={"Retry-After": "1"},
            content_type="application/problem+json",
            body=json.dumps(problem),
        )

    page.route("**/stream", refuse)
    page.goto(f"{live.server.base}/events/{event['id']}")
    expect(page.locator("[data-live-note]")).to_contain_text("Many follow this event")
    expect(round_statuses(page, 1)).to_have_text(["playing", "playing"])
    page.evaluate("window.stayed = true")  # gone if the page reloads
    play_round(live.site, event, seed=6)
    expect(round_statuses(page, 1)).to_have_text(["finished", "finished"], timeout=DEADLINE_MS)
    assert page.evaluate("window.stayed === true"), "the page changed in place, not reloaded"
    assert refusals, "the page asked for the stream"
