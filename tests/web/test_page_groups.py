"""Every page group answers as a page (issue 26: one blueprint per group, each made in the
site's frame): a refusal is the site's error page (HTML, the error's title and its words),
never the API's problem+json for the same error."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

import pytest

from referee.http.limits import Rate
from tests.api.support import archive_at
from tests.api.test_matches_api import BG_EXAMPLE, example, make_env


class ErrorPage(HTMLParser):
    """The error page's heading and its alert (``role="alert"``), as read."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.parts: dict[str, list[str]] = {"h1": [], "alert": []}
        self._in: str | None = None
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "h1" or ("role", "alert") in attrs:
            self._in = "h1" if tag == "h1" else "alert"

    def handle_endtag(self, tag: str) -> None:
        self._in = None

    def handle_data(self, data: str) -> None:
        if self._in is not None:
            self.parts[self._in].append(data)

    def said(self) -> tuple[str, str]:
        """(the heading, the alert's words)"""
        heading, alert = ("".join(self.parts[part]).strip() for part in ("h1", "alert"))
        return heading, alert


REFUSALS = {
    "archive": ("/matches/999", 404, "Not Found", "no match with id 999"),
    "live": ("/live/999", 404, "Not Found", "no live match with id 999"),
    "events": ("/events/999", 404, "Not Found", "no event with id 999"),
    "ratings": (
        "/ratings/backgammon/Nobody",
        404,
        "Not Found",
        "'Nobody' has no Short nardy (backgammon) rating",
    ),
    "docs": ("/docs/nothing", 404, "Not Found", "there is no document 'nothing': /docs lists them"),
    "archive search": (
        "/matches?valid=maybe",
        422,
        "Invalid search",
        "these search fields are not valid: valid",
    ),
}


@pytest.mark.parametrize("group", REFUSALS)
def test_each_page_group_answers_a_refusal_with_the_sites_error_page(
    tmp_path: Path, group: str
) -> None:
    path, status, title, message = REFUSALS[group]
    answer = make_env(archive_at(tmp_path)).client.get(path)
    assert (answer.status_code, answer.mimetype) == (status, "text/html")
    assert ErrorPage(answer.get_data(as_text=True)).said() == (title, message)


def test_the_check_page_answers_its_rate_limit_with_the_sites_error_page(tmp_path: Path) -> None:
    env = make_env(archive_at(tmp_path), RATE_LIMITS={"check": Rate(1, 60)})
    form = {"record": example(BG_EXAMPLE), "mode": "strict"}
    assert env.client.post("/check", data=form).status_code == 200
    refused = env.client.post("/check", data=form)
    assert (refused.status_code, refused.mimetype) == (429, "text/html")
    seconds = int(refused.headers["Retry-After"])
    assert 0 < seconds <= 60
    said = ErrorPage(refused.get_data(as_text=True)).said()
    assert said == (
        "Too many requests",
        f"too many check requests from this client; try again in {seconds} s",
    )
