"""Headless Chromium from the system (Debian's `chromium`) under Playwright for Python; never Playwright's download.

`BrowserSession` records what the page does that it must not: requests to any other host (aborted before they
leave) and console errors or uncaught exceptions.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlsplit

CHROMIUM_CANDIDATES = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
# Without the background-networking flags Chromium calls out to Google's services at every start.
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def chromium_path() -> str | None:
    """`BOUNDLOOP_CHROMIUM`, else Debian's chromium, else None."""
    configured = os.environ.get("BOUNDLOOP_CHROMIUM")
    if configured:
        return configured
    return next((path for path in CHROMIUM_CANDIDATES if shutil.which(path)), None)


@dataclass
class BrowserSession:
    """One browser profile and page against one local server."""

    page: Any
    base: str
    outside: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def assert_clean(self) -> None:
        assert self.outside == [], f"requests to other hosts: {self.outside}"
        assert self.errors == [], f"console errors: {self.errors}"


@contextmanager
def browser_session(playwright: Any, base: str, width: int = 1100, height: int = 900,
                    executable: str | None = None) -> Iterator[BrowserSession]:
    """A fresh profile (`--user-data-dir`) whose every request to a host other than `base`'s is aborted."""
    local = urlsplit(base).netloc
    profile = tempfile.mkdtemp(prefix="boundloop-chromium-")
    context = playwright.chromium.launch_persistent_context(
        profile, executable_path=executable or chromium_path(), args=CHROMIUM_ARGS, headless=True,
        viewport={"width": width, "height": height}, service_workers="block")
    try:
        page = context.pages[0] if context.pages else context.new_page()
        session = BrowserSession(page=page, base=base)

        def guard(route: Any) -> None:
            url = route.request.url
            if urlsplit(url).netloc == local or url.startswith(("data:", "blob:")):
                route.fallback()
            else:
                session.outside.append(url)
                route.abort("blockedbyclient")

        context.route("**/*", guard)
        page.on("console", lambda m: session.errors.append(m.text) if m.type == "error" else None)
        page.on("pageerror", lambda exc: session.errors.append(f"uncaught: {exc}"))
        yield session
    finally:
        context.close()
        shutil.rmtree(profile, ignore_errors=True)
