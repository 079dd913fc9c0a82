"""Render one board per variant to docs/boards/*.png with headless chromium (the README
shows them). Run with ``make screenshots`` after changing the drawing."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

from playwright.sync_api import sync_playwright

from referee.board_svg import HEIGHT, WIDTH, board_svg

OUT = Path(__file__).resolve().parents[1] / "docs" / "boards"
SIZE = 520
POSITIONS = {
    # Mid-game, Black on the bar, White owns a 2-cube and has rolled 6-4; 7-point match 3-2.
    "backgammon": "backgammon 2b,,,,2w,6w,1w,2w,,,,5b,3w,,,,2b,,4b,1b,,,,1w"
    " w0b1 w0b0 w 64 2w 7:3-2 -",
    # Both sides on their way round from their heads (24 and 12); Black has rolled 5-3.
    "long-nardy": "long-nardy 1b,,,1b,,,2b,,,,2w,8b,1w,,,1w,,,2w,1b,,,2b,9w"
    " w0b0 w0b0 b 53 - 0:0-0 -",
    # The 4 + 11 start played on; White has rolled 5-2.
    "khachapuri": "khachapuri ,1b,1w,,,9w,,,1b,2w,,3b,,,1w,,,8b,,,,2b,,2w w0b0 w0b0 w 52 - 0:0-0 -",
}


def main() -> int:
    chromium = shutil.which("chromium")
    if chromium is None:
        print("chromium not found: make browser", file=sys.stderr)
        return 1
    OUT.mkdir(parents=True, exist_ok=True)
    height = round(SIZE * HEIGHT / WIDTH)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": SIZE, "height": height})
        for name, position in POSITIONS.items():
            svg = board_svg(position, size=SIZE, players=("Alice", "Bob"))
            page.set_content(f"<body style='margin:0'>{svg}</body>")
            page.screenshot(path=str(OUT / f"{name}.png"))
            print(f"wrote {OUT / name}.png", file=sys.stderr)
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
