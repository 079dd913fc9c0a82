"""What the browser tests share: Debian's chromium driven by Playwright (the system
browser, no download). Without chromium the tests skip with the reason; REQUIRE_BROWSER=1
(CI) turns that skip into a failure."""

from __future__ import annotations

import os
import shutil
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium")


def require_browser() -> str:
    """The path of chromium, or skip (fail under REQUIRE_BROWSER=1) with the reason."""
    problem = None
    if CHROMIUM is None:
        problem = "chromium not found (make browser installs it)"
    else:
        try:
            import playwright.sync_api  # noqa: F401
        except ImportError:
            problem = "playwright is not installed (the dev extra has it)"
    if problem is None:
        assert CHROMIUM is not None
        return CHROMIUM
    if os.environ.get("REQUIRE_BROWSER") == "1":
        pytest.fail(problem + " (REQUIRE_BROWSER=1)")
    pytest.skip(problem)


def expect_board(page: Any, position: str, orientation: str = "w") -> None:
    from playwright.sync_api import expect

    board = page.locator(".board-frame svg")
    expect(board).to_have_attribute("data-position", position)
    expect(board).to_have_attribute("data-orientation", orientation)
