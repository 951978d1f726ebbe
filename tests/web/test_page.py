"""The page in a real browser against `boundloop serve` on the demo: sign in, watch steps, read cited answers.

Every test also checks that no request left the machine and that the console stayed free of errors.
"""

from __future__ import annotations

import re

import pytest
import yaml

from boundloop.retrieval.config import DEMO_ROOT
from boundloop.retrieval.loaders import load_folder
from tests.web.actions import RECORD_APPEARANCES, appearances, ask, focused_testid, sign_in, storage_key
from tests.web.browser import browser_session

pytestmark = pytest.mark.slow

LEAVE = "How many days of annual leave do Lisbon employees get?"
SALARY = "What are the salary bands for software engineers in Lisbon?"
USERS = yaml.safe_load((DEMO_ROOT / "directory.yaml").read_text())["users"]
DOCS = [d for d in load_folder(DEMO_ROOT / "corpus") if hasattr(d, "acl")]
CANARY = re.compile(r"CANARY-[A-Z]+-\d{4}")


@pytest.fixture
def browser(playwright_driver, demo_server):
    with browser_session(playwright_driver, demo_server) as session:
        yield session


def test_sign_in_ask_watch_the_steps_then_open_a_cited_passage(browser):
    page = browser.page
    page.add_init_script(RECORD_APPEARANCES)
    sign_in(page, browser.base, "demo-key-alice")
    assert page.locator("#who-name").inner_text() == "Alice Moreau"
    assert storage_key(page) == "demo-key-alice"
    page.get_by_test_id("new-conversation").wait_for()  # the server has the conversations routes

    turn = ask(page, LEAVE)
    seen = appearances(page)
    assert seen[0] == "step" and seen.count("answer") == 1
    assert seen.index("answer") >= 5  # understand, plan, search, evaluate, refine... before the answer
    names = turn.locator("[data-testid=step] .node").all_text_contents()
    assert names[:4] == ["Question", "Understand", "Plan", "Search (hop 1)"] and "Verify" in names
    steps = turn.get_by_test_id("step").all_text_contents()  # folded away under "Steps (n)" once answered
    assert any(re.search(r"q0 found \d+", s) for s in steps) and any("gap:" in s for s in steps)

    answer = turn.get_by_test_id("answer")
    assert "25 working days" in answer.inner_text()
    assert turn.get_by_test_id("status").inner_text() == "Answered · complete"
    citation = answer.get_by_test_id("citation").first
    citation.click()
    passage = turn.get_by_test_id("passage")
    passage.wait_for()
    assert "Leave Policy 2026" in passage.inner_text() and "hr-leave-policy" in passage.inner_text()
    assert "25 working days" in " ".join(passage.locator("mark").all_inner_texts())
    assert citation.get_attribute("aria-expanded") == "true"
    page.keyboard.press("Escape")
    assert turn.get_by_test_id("passage").count() == 0 and focused_testid(page) == "citation"

    turn.locator("details.trace summary").click()
    meters = turn.locator("[role=meter]")
    meters.first.wait_for()
    assert meters.count() == 5  # one per limit: hops, searches, documents, tokens, time
    assert meters.first.get_attribute("aria-valuemax") == "3"  # hops against the demo's limit
    assert turn.locator(".timeline li").count() > 8

    # A follow-up: Shift+Enter makes a new line, Enter asks.
    page.get_by_test_id("question").fill("And how many personal days")
    page.get_by_test_id("question").press("Shift+Enter")
    assert page.get_by_test_id("question").input_value() == "And how many personal days\n"
    assert page.locator("li.turn").count() == 1
    page.get_by_test_id("question").fill("How many personal days do Toronto employees get?")
    second = ask(page, "How many personal days do Toronto employees get?")
    assert page.get_by_test_id("answer").count() == 2 and page.get_by_test_id("status").count() == 2
    assert second.get_by_test_id("status").inner_text().startswith(("Answered", "Fallback", "Abstained"))

    page.get_by_test_id("sign-out").click()
    assert page.get_by_test_id("api-key").is_visible() and storage_key(page) is None
    assert page.locator("li.turn").count() == 0
    page.reload()
    assert page.get_by_test_id("api-key").is_visible()
    browser.assert_clean()


def _restricted_markers(user: str) -> set[str]:
    """Canaries, ids and titles of the demo documents the user may not read."""
    groups = set(USERS[user]["groups"])
    markers: set[str] = set()
    for doc in DOCS:
        if not set(doc.acl) & groups:
            markers |= {doc.doc_id, doc.title, *CANARY.findall(doc.text)}
    return markers


def test_a_forbidden_question_shows_nothing_restricted(browser):
    page = browser.page
    received: list[str] = []

    def record(route):  # everything the page receives, the answer stream included (buffered here)
        response = route.fetch()
        received.append(response.text())
        route.fulfill(response=response)

    page.route("**/*", record)
    sign_in(page, browser.base, "demo-key-bob")
    turn = ask(page, SALARY)
    assert turn.get_by_test_id("status").inner_text().split(" · ")[0] in {"Fallback", "Abstained"}
    follow = ask(page, "And in Toronto?")  # a follow-up about the same forbidden document
    assert "Toronto" in follow.locator(".standalone").inner_text()
    for answered in (turn, follow):
        for citation in answered.get_by_test_id("citation").all():
            citation.click()
        answered.locator("details.trace summary").click()
        answered.locator("[role=meter]").first.wait_for()
    shown = page.evaluate("document.body.innerText")
    assert any("event: result" in body for body in received)
    restricted = _restricted_markers("bob")
    assert "hr-salary-bands" in restricted and "CANARY-HR-4821" in restricted
    for text in [shown, *received]:
        assert not [m for m in restricted if m in text]
    browser.assert_clean()


def test_a_refused_key_stays_signed_out(browser):
    page = browser.page
    page.goto(browser.base)
    page.get_by_test_id("api-key").fill("not-a-key")
    page.get_by_test_id("sign-in").click()
    page.get_by_text("That API key was not accepted.").wait_for()
    assert not page.get_by_test_id("question").is_visible() and storage_key(page) is None
    assert focused_testid(page) == "api-key"
    # The browser reports the 401 of the refused sign-in itself; that is the only error expected.
    assert all("401" in error for error in browser.errors)
    browser.errors.clear()
    browser.assert_clean()


def test_labels_focus_order_and_contrast(browser):
    page = browser.page
    page.goto(browser.base)
    assert focused_testid(page) == "api-key"
    assert page.get_by_label("API key").count() == 1
    page.keyboard.press("Tab")
    assert focused_testid(page) == "sign-in"
    page.keyboard.press("Shift+Tab")
    page.keyboard.press("Shift+Tab")
    assert page.evaluate("document.activeElement.className") == "skip"

    sign_in(page, browser.base, "demo-key-alice")
    assert focused_testid(page) == "question" and page.get_by_label("Your question").count() == 1
    page.keyboard.press("Tab")
    assert focused_testid(page) == "ask"
    turn = ask(page, LEAVE)
    turn.get_by_test_id("citation").first.click()
    turn.locator("details.trace summary").click()
    turn.locator("[role=meter]").first.wait_for()
    page.get_by_test_id("question").focus()
    page.keyboard.press("Shift+Tab")  # back from the question into the last answer's controls
    assert page.evaluate("document.activeElement.closest('li.turn') !== null")

    unnamed = page.evaluate("""() => [...document.querySelectorAll('button, input, textarea, summary')]
        .filter((el) => el.offsetParent !== null)
        .filter((el) => !(el.labels && el.labels.length) && !el.getAttribute('aria-label')
                        && !el.textContent.trim())
        .map((el) => el.outerHTML)""")
    assert unnamed == []
    ratios = page.evaluate(CONTRAST, ["body", "label", ".hint", ".status", ".usage", ".steps .reason", "button",
                                      ".marker", "mark", ".passage .meta", "summary", ".tl-decision", ".budget"])
    low = [(selector, round(ratio, 2)) for selector, ratio in ratios if ratio < 4.5]
    assert ratios and low == []
    browser.assert_clean()


def test_the_page_works_375_pixels_wide(playwright_driver, demo_server):
    with browser_session(playwright_driver, demo_server, width=375, height=740) as browser:
        page = browser.page
        sign_in(page, browser.base, "demo-key-alice")
        turn = ask(page, LEAVE)
        turn.get_by_test_id("citation").first.click()
        turn.locator("details.trace summary").click()
        turn.locator("[role=meter]").first.wait_for()
        assert page.evaluate("document.documentElement.scrollWidth") <= 375
        box = page.get_by_test_id("ask").bounding_box()
        assert box and box["x"] >= 0 and box["x"] + box["width"] <= 375
        browser.assert_clean()


def test_docs_render_from_local_assets(browser):
    page = browser.page
    page.goto(browser.base + "docs")
    page.locator(".swagger-ui .info .title").wait_for()
    assert "boundloop" in page.locator(".swagger-ui .info .title").inner_text()
    assert page.locator(".opblock-summary-path").filter(has_text="/runs/{run_id}/passages").count() == 1
    browser.assert_clean()


def test_another_users_conversation_is_not_listed_nor_opened(browser):
    page = browser.page
    sign_in(page, browser.base, "demo-key-alice")
    ask(page, LEAVE)
    page.get_by_test_id("conversation").first.wait_for()
    mine = page.get_by_test_id("conversation").first.get_attribute("data-conversation-id")
    page.get_by_test_id("sign-out").click()
    sign_in(page, browser.base, "demo-key-bob")
    ask(page, "Who is the Head of Finance?")  # bob has a conversation of his own, so his list is not empty
    page.get_by_test_id("conversation").first.wait_for()
    listed = [b.get_attribute("data-conversation-id") for b in page.get_by_test_id("conversation").all()]
    assert mine and listed and mine not in listed
    bob = {"X-API-Key": "demo-key-bob"}
    assert page.request.get(f"{browser.base}conversations/{mine}", headers=bob).status == 404
    refused = page.request.post(f"{browser.base}ask/stream", headers=bob,
                                data={"question": "And in Toronto?", "conversation_id": mine})
    assert refused.status == 404 and "25 working days" not in refused.text()
    browser.assert_clean()


CONTRAST = """(selectors) => {
  const channels = (css) => css.match(/[\\d.]+/g).map(Number);
  const luminance = ([r, g, b]) => [r, g, b].map((c) => {
    c /= 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  }).reduce((sum, c, i) => sum + c * [0.2126, 0.7152, 0.0722][i], 0);
  const background = (el) => {
    for (let node = el; node; node = node.parentElement) {
      const c = channels(getComputedStyle(node).backgroundColor);
      if (c.length < 4 || c[3] > 0) return c;
    }
    return [255, 255, 255];
  };
  return selectors.flatMap((selector) => [...document.querySelectorAll(selector)]
    .filter((el) => el.offsetParent !== null || el === document.body)
    .map((el) => {
      const [a, b] = [luminance(channels(getComputedStyle(el).color)), luminance(background(el))];
      return [selector, (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05)];
    }));
}"""


def test_refusals_and_failed_runs_are_said_plainly(browser):
    page = browser.page
    sign_in(page, browser.base, "demo-key-alice")
    page.route("**/ask/stream", lambda route: route.fulfill(
        status=429, headers={"Retry-After": "3"}, json={"detail": "too many questions at once"}))
    turn = ask(page, LEAVE)
    assert turn.get_by_test_id("status").inner_text() == (
        "The question could not be asked: too many questions at once. Try again in 3 s.")
    page.unroute("**/ask/stream")
    page.route("**/ask/stream", lambda route: route.fulfill(
        status=200, content_type="text/event-stream",
        body='event: error\ndata: {"detail":"the run failed; see the server log"}\n\n'))
    turn = ask(page, LEAVE)
    assert turn.get_by_test_id("status").inner_text() == "the run failed; see the server log"
    assert page.get_by_test_id("ask").is_enabled() and page.get_by_test_id("answer").count() == 0
    assert all("429" in error for error in browser.errors)  # the browser reports the refused request itself
    browser.errors.clear()
    browser.assert_clean()
