"""Real-browser fixtures: `boundloop serve` over the demo corpus, and Chromium driven by Playwright.

Without Chromium or Playwright these tests skip, except under CI (`CI` set), where `.ci/run` installs both and a
missing browser is a failure.
"""

from __future__ import annotations

import os
from collections.abc import Iterator

import pytest

from tests.web.browser import chromium_path
from tests.web.demo_service import demo_service

pytestmark = pytest.mark.slow


def _unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (.ci/run installs it)")
    pytest.skip(reason)


@pytest.fixture(scope="session")
def playwright_driver() -> Iterator[object]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _unavailable("Playwright for Python is not installed")
    if chromium_path() is None:
        _unavailable("Chromium is not installed (Debian package `chromium`)")
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="session")
def demo_server(tmp_path_factory, demo_cache) -> Iterator[str]:
    """The demo service on a free loopback port, its runs in a private cache; yields the page's URL."""
    with demo_service(tmp_path_factory.mktemp("web-server") / "server.log", str(demo_cache)) as base:
        yield base
