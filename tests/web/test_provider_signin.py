"""In Chromium: sign in through the provider's own login page, ask a question, sign out through the provider.

The provider is the real one of tests/identity (oidc-provider on Node); the test skips without Node or its packages.
"""

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
from tests.identity.conftest import SERVICE_PORT, provider  # noqa: F401 (the provider fixture)
from tests.identity.provider import CLIENT_SECRET
from tests.service.conftest import make_state
from tests.web.actions import TIMEOUT_MS, ask
from tests.web.browser import CHROMIUM_ARGS, chromium_path

pytestmark = pytest.mark.slow


@pytest.fixture
def service(index, encoder, tmp_path, provider) -> Iterator[str]:  # noqa: F811
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
def page(playwright_driver) -> Iterator[object]:
    """A fresh profile; unlike `browser_session` it may visit the provider, which is on another port."""
    profile = tempfile.mkdtemp(prefix="boundloop-chromium-")
    context = playwright_driver.chromium.launch_persistent_context(  # type: ignore[attr-defined]
        profile, executable_path=chromium_path(), args=CHROMIUM_ARGS, headless=True)
    try:
        yield context.pages[0] if context.pages else context.new_page()
    finally:
        context.close()
        shutil.rmtree(profile, ignore_errors=True)


def test_a_person_signs_in_with_the_provider_asks_and_signs_out(service, page, provider):  # noqa: F811
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
