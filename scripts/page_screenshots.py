"""Takes the README's screenshots of the web page: `python scripts/page_screenshots.py` writes docs/page-*.png.

Starts `boundloop serve` on the demo corpus and drives Debian's Chromium through Playwright, as the browser tests
do (tests/web/); the PNGs are reduced to 64 colours to stay small.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from PIL import Image  # noqa: E402

from tests.web.actions import ask, sign_in  # noqa: E402
from tests.web.browser import browser_session  # noqa: E402
from tests.web.demo_service import demo_service  # noqa: E402

DOCS = Path(__file__).resolve().parents[1] / "docs"
LEAVE = "How many days of annual leave do Lisbon employees get?"
SALARY = "What are the salary bands for software engineers in Lisbon?"


def save(page, name: str, **options) -> None:
    path = DOCS / name
    page.screenshot(path=str(path), **options)
    Image.open(path).convert("RGB").quantize(colors=64, dither=Image.Dither.NONE).save(path, optimize=True)
    print(f"{path.relative_to(DOCS.parent)}: {path.stat().st_size // 1024} KB")


def clip_to(page, locator) -> dict:
    box = locator.bounding_box()
    return {"x": 0, "y": 0, "width": page.viewport_size["width"], "height": box["y"] + box["height"] + 12}


def _answer(page, *, trace: bool = True):
    """Alice's leave question with its first passage open (and the trace against the budget)."""
    turn = ask(page, LEAVE)
    turn.get_by_test_id("citation").first.click()
    turn.get_by_test_id("passage").wait_for()
    if trace:
        turn.locator("details.trace summary").click()
        turn.locator("[role=meter]").first.wait_for()
    return turn


def _follow_up(page):
    """Dan's parking question, its follow-up, and a helpful rating."""
    ask(page, "How much does a monthly parking permit cost at the Toronto office?")
    turn = ask(page, "And daily parking?")
    turn.get_by_test_id("feedback-up").click()
    page.get_by_text("your rating was saved").wait_for()
    return turn


def _forbidden(page):
    """Bob asks for the salary bands: the steps, then documents he may read."""
    turn = ask(page, SALARY)
    turn.locator("details.steps-view summary").click()
    return turn


# (file, width, height, user, what to do, clip to the turn)
SHOTS = [
    ("page-answer.png", 1000, 1700, "alice", _answer, True),
    ("page-conversation.png", 1000, 1100, "dan", _follow_up, True),
    ("page-forbidden.png", 1000, 1900, "bob", _forbidden, True),
    ("page-375.png", 375, 812, "alice", lambda page: _answer(page, trace=False), False),
]


def main() -> int:
    from playwright.sync_api import sync_playwright

    log = Path("bench-results/screenshots.server.log")
    with demo_service(log, os.environ.get("BOUNDLOOP_CACHE")) as base, sync_playwright() as driver:
        for name, width, height, user, steps, clipped in SHOTS:
            with browser_session(driver, base, width=width, height=height) as session:
                page = session.page
                sign_in(page, session.base, f"demo-key-{user}")
                turn = steps(page)
                page.locator("body").click(position={"x": 5, "y": 5})  # no focus ring in the picture
                save(page, name, **({"clip": clip_to(page, turn)} if clipped else {}))
                session.assert_clean()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
