"""The documents' pages and the API reference in a real browser (Debian's chromium through
Playwright, tests/web/browsing.py), at desktop and phone width, against gunicorn: Swagger
UI draws every operation of the served spec, no request leaves the site, the pages fit
the screen, and an anchor brings its heading into view."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.server import Server, running

ROOT = Path(__file__).resolve().parents[2]
SCREENS = {"desktop": {"width": 1200, "height": 900}, "phone": {"width": 390, "height": 844}}
METHODS = {"get", "put", "post", "delete", "patch"}
DOCUMENTS = sorted(path.stem for path in (ROOT / "docs").glob("*.md"))


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    with running(tmp_path_factory.mktemp("docs") / "archive.sqlite3", workers=1) as started:
        yield started


@pytest.fixture(params=sorted(SCREENS))
def screen(browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """A fresh page at one screen size; a script error on it fails the test."""
    opened = browser.new_page(viewport=SCREENS[request.param])
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    opened.close()
    assert errors == []


def operations() -> int:
    spec = yaml.safe_load((ROOT / "openapi.yaml").read_text())
    return sum(len(METHODS & set(item)) for item in spec["paths"].values())


def test_the_api_reference_draws_every_operation_from_this_site(
    screen: Any, server: Server
) -> None:
    from playwright.sync_api import expect

    requested: list[str] = []
    screen.on("request", lambda request: requested.append(request.url))
    screen.goto(server.base + "/docs/api")
    blocks = screen.locator(".opblock")
    expect(blocks.first).to_be_visible()
    expect(blocks).to_have_count(operations())
    check = screen.locator(".opblock-summary-path", has_text="/v1/plays/check")
    expect(check).to_be_visible()
    check.click()  # an operation opened shows its request body, and still fits the screen
    expect(screen.locator(".opblock.is-open .opblock-section-request-body")).to_be_visible()
    assert fits(screen)
    # the spec and Swagger UI's files were loaded, all of them from this server
    assert any(url.endswith("/openapi.yaml") for url in requested)
    assert any(url.endswith("swagger-ui-bundle.js") for url in requested)
    assert [url for url in requested if not url.startswith(server.base + "/")] == []


def fits(page: Any) -> bool:
    width: bool = page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth"
    )
    return width


@pytest.mark.parametrize("name", DOCUMENTS)
def test_a_document_fits_the_screen(screen: Any, server: Server, name: str) -> None:
    from playwright.sync_api import expect

    screen.goto(f"{server.base}/docs/{name}")
    expect(screen.locator("article.doc h1")).to_be_visible()
    assert fits(screen)


def test_an_anchor_brings_its_heading_into_view(screen: Any, server: Server) -> None:
    from playwright.sync_api import expect

    screen.goto(server.base + "/docs/rules#14-9")
    heading = screen.locator('h3[id="14-9"]')
    expect(heading).to_be_in_viewport()
    expect(heading).to_contain_text("Match play")
    box = heading.bounding_box()
    assert box is not None and box["y"] >= 0


def test_the_check_pages_options_hint_links_to_the_options(screen: Any, server: Server) -> None:
    from playwright.sync_api import expect

    screen.goto(server.base + "/")
    screen.locator("#options-hint a").click()
    expect(screen).to_have_url(server.base + "/docs/rules#12-1")
    expect(screen.locator('h3[id="12-1"]')).to_be_in_viewport()
