"""In Chromium: sign in through the provider's own login page, ask a question, sign out through the provider."""

from __future__ import annotations

import shutil
import tempfile
import threading
import time
from collections.abc import Iterator

import httpx
import pytest

from boundloop.service.app import create_app
from boundloop.service.oidc_tokens import OidcSettings
from tests.identity.conftest import SERVICE_PORT
from tests.identity.provider import CLIENT_SECRET
from tests.service.conftest import make_state
from tests.web.actions import TIMEOUT_MS, ask
from tests.web.browser import CHROMIUM_ARGS, chromium_path

pytestmark = pytest.mark.slow


@pytest.fixture
def service(index, encoder, tmp_path, provider) -> Iterator[str]:
    """The app on the port the provider knows as its redirect target, in a thread of this process."""
    import uvicorn

    state = make_state(index, encoder, tmp_path, oidc=OidcSettings(
        issuer=provider.issuer, audience="boundloop", client_id="boundloop", client_secret=CLIENT_SECRET))
    server = uvicorn.Server(uvicorn.Config(create_app(state), host="127.0.0.1", port=SERVICE_PORT,
                                           log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    base = f"http://127.0.0.1:{SERVICE_PORT}"
    for _ in range(100):
        try:
            if httpx.get(f"{base}/healthz").status_code == 200:
                break
        except httpx.HTTPError:
            time.sleep(0.05)
    try:
        yield base + "/"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


@pytest.fixture
def page() -> Iterator[object]:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        pytest.skip("Playwright for Python is not installed (the browser extra)")
    if chromium_path() is None:
        pytest.skip("Chromium is not installed (Debian package `chromium`)")
    profile = tempfile.mkdtemp(prefix="boundloop-chromium-")
    with sync_playwright() as driver:
        context = driver.chromium.launch_persistent_context(profile, executable_path=chromium_path(),
                                                            args=CHROMIUM_ARGS, headless=True)
        try:
            yield context.pages[0] if context.pages else context.new_page()
        finally:
            context.close()
            shutil.rmtree(profile, ignore_errors=True)


def test_a_person_signs_in_with_the_provider_asks_and_signs_out(service, page, provider):
    page.goto(service)
    page.get_by_test_id("provider-sign-in").click()
    page.wait_for_url(f"{provider.issuer}/**", timeout=TIMEOUT_MS)  # the provider's own login page
    page.fill("input[name=login]", "dave")
    page.fill("input[name=password]", "any password")
    page.click("button[type=submit]")
    page.get_by_test_id("question").wait_for(state="visible", timeout=TIMEOUT_MS)
    assert page.text_content("#who-name") == "dave"
    assert page.evaluate("document.cookie") == ""  # the session cookie is HttpOnly: scripts cannot read it
    turn = ask(page, "What is the parental leave policy?")
    assert turn.get_by_test_id("status").count() == 1
    assert "could not be asked" not in (turn.text_content() or "")
    page.get_by_test_id("sign-out").click()
    page.wait_for_url(f"{provider.issuer}/**", timeout=TIMEOUT_MS)  # the provider's end-session page
    page.goto(service)  # back on the page, the session is gone: the sign-in choices show again
    page.get_by_test_id("provider-sign-in").wait_for(state="visible", timeout=TIMEOUT_MS)
    assert page.is_hidden("#chat-view")
