"""Conversations, follow-ups and feedback on the page, against the real routes of `boundloop serve --demo`.

henry is the only user these tests sign in as, so his list starts empty in a fresh server.
"""

from __future__ import annotations

import json

import pytest

from tests.web.actions import ask, sign_in
from tests.web.browser import browser_session

pytestmark = pytest.mark.slow

LEAVE = "How many days of annual leave do Lisbon employees get?"
KEY = "demo-key-henry"


def api(page, base: str, path: str) -> dict:
    """The server's view, read with henry's key from inside the page's origin."""
    return json.loads(page.request.get(base + path, headers={"X-API-Key": KEY}).text())


def test_conversations_follow_ups_and_feedback(playwright_driver, demo_server):
    with browser_session(playwright_driver, demo_server) as browser:
        page = browser.page
        asked: list[dict] = []
        page.on("request", lambda r: asked.append(r.post_data_json) if r.url.endswith("/ask/stream") else None)
        sign_in(page, browser.base, KEY)
        page.get_by_test_id("new-conversation").wait_for()
        page.get_by_text("No conversations yet.").wait_for()
        assert page.get_by_test_id("conversation").count() == 0

        first = ask(page, LEAVE)
        assert "conversation_id" not in asked[0]
        assert first.locator(".short-answer").inner_text().endswith("25 working days")
        listed = page.get_by_test_id("conversation")
        listed.first.wait_for()
        cid = listed.first.get_attribute("data-conversation-id")
        assert listed.first.get_attribute("aria-current") == "true" and listed.first.inner_text() == LEAVE

        follow = ask(page, "And in Toronto?")
        assert asked[1]["conversation_id"] == cid
        assert follow.locator(".standalone").inner_text() == (
            "Understood as: How many days of annual leave do Toronto employees get?")
        assert "20 working days" in follow.get_by_test_id("answer").inner_text()
        steps = follow.get_by_test_id("step").all_text_contents()
        assert steps[0].startswith("Question") and "ellipsis of turn 1" in steps[0]
        assert [t["question"] for t in api(page, browser.base, f"conversations/{cid}")["turns"]] == [
            LEAVE, "And in Toronto?"]

        first.get_by_test_id("feedback-up").click()
        page.get_by_text("your rating was saved").wait_for()
        run_id = api(page, browser.base, f"conversations/{cid}")["turns"][0]["run_id"]
        assert api(page, browser.base, f"runs/{run_id}")["feedback"]["score"] == 1
        assert first.get_by_test_id("feedback-up").get_attribute("aria-pressed") == "true"
        first.get_by_label("Comment (optional)").fill("Clear, and it cites the policy.")
        first.get_by_role("button", name="Send comment").click()
        page.get_by_text("your comment was saved").wait_for()
        feedback = api(page, browser.base, f"runs/{run_id}")["feedback"]
        assert (feedback["score"], feedback["comment"]) == (1, "Clear, and it cites the policy.")

        page.get_by_test_id("new-conversation").click()
        assert page.locator("li.turn").count() == 0
        ask(page, "What is the name of the Wi-Fi network that visitors should use in the office?")
        assert "conversation_id" not in asked[2]
        page.get_by_test_id("conversation").nth(1).wait_for()
        assert page.get_by_test_id("conversation").nth(1).get_attribute("data-conversation-id") == cid

        page.locator(f"[data-conversation-id='{cid}']").click()
        page.get_by_test_id("answer").nth(1).wait_for()
        assert page.locator("li.turn .question").all_text_contents() == [
            "You asked: " + LEAVE, "You asked: And in Toronto?"]
        assert page.get_by_test_id("citation").count() >= 2  # rebuilt from GET /runs/{run_id}
        ask(page, "And personal days?")
        assert asked[3]["conversation_id"] == cid  # a reopened conversation goes on
        assert len(api(page, browser.base, f"conversations/{cid}")["turns"]) == 3
        browser.assert_clean()

        page.route("**/runs/*/feedback", lambda route: route.fulfill(status=404, json={"detail": "Not Found"}))
        page.get_by_test_id("feedback-down").first.click()  # a server without the route: the controls go
        page.wait_for_selector("body.feedback-off", state="attached")
        assert not page.get_by_test_id("feedback-up").first.is_visible()
        assert all("404" in error for error in browser.errors)
