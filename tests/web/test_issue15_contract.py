"""The page's conversation and feedback code against issue 15's contract (served by a double until it lands)."""

from __future__ import annotations

import pytest

from tests.web.actions import ask, sign_in
from tests.web.browser import browser_session
from tests.web.issue15_double import Issue15Double

pytestmark = pytest.mark.slow

LEAVE = "How many days of annual leave do Lisbon employees get?"


def test_conversations_follow_ups_and_feedback_use_the_contract(playwright_driver, demo_server):
    double = Issue15Double()
    with browser_session(playwright_driver, demo_server) as browser:
        page = browser.page
        double.install(page)
        sign_in(page, browser.base, "demo-key-alice")
        page.get_by_test_id("new-conversation").wait_for()
        assert page.get_by_test_id("conversation").all_inner_texts() == ["Parking in Toronto"]

        first = ask(page, LEAVE)
        assert "conversation_id" not in double.asked[0]
        short = first.locator(".short-answer")
        assert short.inner_text().endswith("25 working days")
        assert first.evaluate("t => t.querySelector('.short-answer').compareDocumentPosition("
                              "t.querySelector('.claims')) & Node.DOCUMENT_POSITION_FOLLOWING") > 0
        listed = page.get_by_test_id("conversation")
        listed.nth(1).wait_for()
        cid = listed.first.get_attribute("data-conversation-id")
        assert listed.first.get_attribute("aria-current") == "true" and cid not in (None, "c-earlier")

        ask(page, "And in Toronto?")
        assert double.asked[1]["conversation_id"] == cid

        first.get_by_test_id("feedback-up").click()
        page.get_by_text("your rating was saved").wait_for()
        run_id = double.feedback[-1][0]
        assert double.feedback == [(run_id, {"score": 1})]
        assert first.get_by_test_id("feedback-up").get_attribute("aria-pressed") == "true"
        first.get_by_label("Comment (optional)").fill("Clear, and it cites the policy.")
        first.get_by_role("button", name="Send comment").click()
        page.get_by_text("your comment was saved").wait_for()
        assert double.feedback[-1] == (run_id, {"score": 1, "comment": "Clear, and it cites the policy."})

        page.get_by_test_id("new-conversation").click()
        assert page.locator("li.turn").count() == 0
        ask(page, LEAVE)
        assert "conversation_id" not in double.asked[2]

        page.locator(f"[data-conversation-id='{cid}']").click()
        page.get_by_test_id("answer").nth(1).wait_for()
        assert page.locator("li.turn .question").all_text_contents() == [
            "You asked: " + LEAVE, "You asked: And in Toronto?"]
        assert page.get_by_test_id("citation").count() >= 1  # rebuilt from GET /runs/{run_id}

        ask(page, "And at which office is that?")
        assert double.asked[3]["conversation_id"] == cid  # a reopened conversation goes on
        browser.assert_clean()

        double.feedback_status = 404  # the route went away: the controls go too
        page.get_by_test_id("feedback-down").first.click()
        page.wait_for_selector("body.feedback-off", state="attached")
        assert not page.get_by_test_id("feedback-up").first.is_visible()
        assert all("404" in error for error in browser.errors)
