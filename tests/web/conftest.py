"""The browser and a fresh page for the browser tests (tests/web/browsing.py)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.web.browsing import require_browser


@pytest.fixture(scope="session")
def browser() -> Iterator[Any]:
    """One Chromium per test process, for every module's pages (a launch costs about a
    second of processor time, and a dozen modules use it)."""
    executable = require_browser()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        # one renderer process for all the module's pages: a sixth less processor time
        # (tests/web/test_browser_replay.py) than one a page
        arguments = ["--no-sandbox", "--renderer-process-limit=1"]
        launched = playwright.chromium.launch(executable_path=executable, args=arguments)
        yield launched
        launched.close()


@pytest.fixture
def page(browser: Any) -> Iterator[Any]:
    """A fresh page; a script error on it fails the test."""
    opened = browser.new_page(viewport={"width": 1200, "height": 900})
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    yield opened
    opened.close()
    assert errors == []
