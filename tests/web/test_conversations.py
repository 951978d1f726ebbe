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

        # Deleted elsewhere (another tab, the CLI): the next question says so, and the one after starts anew.
        assert page.request.delete(browser.base + f"conversations/{cid}", headers={"X-API-Key": KEY}).status == 204
        gone = ask(page, "And sick leave?")
        assert "That conversation is gone" in gone.get_by_test_id("status").inner_text()
        assert all("404" in error for error in browser.errors) and len(browser.errors) == 1
        page.locator(f"[data-conversation-id='{cid}']").wait_for(state="detached")
        ask(page, "Who is the Head of Finance?")
        assert "conversation_id" not in asked[-1]


def test_a_reopened_conversation_says_which_turns_it_cannot_show(playwright_driver, demo_server):
    """A turn withheld after a revocation, and one still running, are said plainly; their runs are not fetched.

    The demo's directory cannot change under a running `serve --demo`, so the conversation's JSON is edited on its
    way to the page (the withholding itself is tested over HTTP in tests/service/test_conversations.py).
    """
    with browser_session(playwright_driver, demo_server) as browser:
        page = browser.page
        runs: list[str] = []
        page.on("request", lambda r: runs.append(r.url) if "/runs/" in r.url else None)
        sign_in(page, browser.base, KEY)
        ask(page, LEAVE)
        # the conversation this ask made: the one marked current (other tests' conversations of alice, made in the
        # same second, may be listed first)
        current = page.locator("[data-testid='conversation'][aria-current='true']")
        current.wait_for()
        cid = current.get_attribute("data-conversation-id")
        real = api(page, browser.base, f"conversations/{cid}")
        shown = real["turns"][0]
        withheld = {**shown, "run_id": "a" * 32, "question": "And the salary bands?", "standalone_question": None,
                    "answer": None, "short_answer": None, "status": "answered", "withheld": True}
        running = {**withheld, "run_id": "b" * 32, "question": "And in Toronto?", "status": "running",
                   "withheld": False}
        page.route(f"**/conversations/{cid}", lambda route: route.fulfill(
            json={**real, "turns": [shown, withheld, running]}))
        page.get_by_test_id("new-conversation").click()
        runs.clear()
        page.locator(f"[data-conversation-id='{cid}']").click()
        page.get_by_test_id("status").nth(2).wait_for()
        statuses = page.get_by_test_id("status").all_text_contents()
        assert statuses[1:] == ["Withheld: it showed documents you can no longer read.", "Still running."]
        assert "25 working days" in page.get_by_test_id("answer").first.inner_text()
        assert [url.rsplit("/", 1)[-1] for url in runs] == [shown["run_id"]]  # only the turn it may show
        browser.assert_clean()


def test_more_conversations_than_a_page_are_listed_a_page_at_a_time(playwright_driver, demo_server):
    """frank has 21 new conversations: the first 20 are listed, "More conversations" adds the next, each once."""
    with browser_session(playwright_driver, demo_server) as browser:
        page = browser.page
        frank = {"X-API-Key": "demo-key-frank"}
        made = [json.loads(page.request.post(browser.base + "ask", headers=frank,
                                             data={"question": f"What is the Wi-Fi network for visitors? ({n})"}
                                             ).text())["conversation_id"] for n in range(21)]
        sign_in(page, browser.base, "demo-key-frank")
        listed = page.get_by_test_id("conversation")
        listed.nth(19).wait_for()
        assert listed.count() == 20 and listed.first.get_attribute("data-conversation-id") == made[-1]
        page.get_by_role("button", name="More conversations").click()
        listed.nth(20).wait_for()
        ids = [b.get_attribute("data-conversation-id") for b in listed.all()]
        assert ids[:21] == made[::-1] and len(ids) == len(set(ids))  # frank may have older ones (the demo cache)
        browser.assert_clean()


def test_a_conversation_is_deleted_from_the_list_once_confirmed(playwright_driver, demo_server):
    with browser_session(playwright_driver, demo_server) as browser:
        page = browser.page
        sign_in(page, browser.base, "demo-key-grace")
        ask(page, "How much RAM does the standard engineering laptop have?")
        page.get_by_test_id("new-conversation").click()
        ask(page, LEAVE)
        listed = page.get_by_test_id("conversation")
        remove = page.get_by_role("button", name=f"Delete the conversation: {LEAVE}")
        remove.wait_for()  # the list has the new conversation on top; grace's earlier ones are already listed
        ours = [b.get_attribute("data-conversation-id") for b in listed.all()][:2]
        grace = {"X-API-Key": "demo-key-grace"}

        page.once("dialog", lambda dialog: dialog.dismiss())
        remove.click()
        assert page.request.get(browser.base + f"conversations/{ours[0]}", headers=grace).status == 200

        page.once("dialog", lambda dialog: dialog.accept())
        remove.click()  # the open conversation: the thread empties, and the next question starts a new one
        page.locator(f"[data-conversation-id='{ours[0]}']").wait_for(state="detached")
        assert page.locator("li.turn").count() == 0
        assert page.request.get(browser.base + f"conversations/{ours[0]}", headers=grace).status == 404
        assert listed.first.get_attribute("data-conversation-id") == ours[1]
        browser.assert_clean()
