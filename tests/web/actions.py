"""What a person does on the page, as Playwright steps, and what the tests read back from it."""

from __future__ import annotations

from typing import Any

TIMEOUT_MS = 30_000
# Records when each live step and each answer first appears, so a test can tell that steps came first.
RECORD_APPEARANCES = """
window.__appeared = [];
new MutationObserver((records) => {
  for (const record of records) for (const node of record.addedNodes) {
    if (node.nodeType !== 1) continue;
    for (const el of [node, ...node.querySelectorAll("[data-testid]")]) {
      const id = el.dataset && el.dataset.testid;
      if (id === "step" || id === "answer") window.__appeared.push([id, performance.now()]);
    }
  }
}).observe(document, { childList: true, subtree: true });
"""


def sign_in(page: Any, base: str, key: str) -> None:
    page.goto(base)
    page.get_by_test_id("api-key").fill(key)
    page.get_by_test_id("sign-in").click()
    page.get_by_test_id("question").wait_for(state="visible", timeout=TIMEOUT_MS)


def ask(page: Any, question: str) -> Any:
    """Type the question, press Enter, wait for this turn's status; returns the turn's element."""
    before = page.get_by_test_id("status").count()
    page.get_by_test_id("question").fill(question)
    page.get_by_test_id("question").press("Enter")
    page.get_by_test_id("status").nth(before).wait_for(timeout=TIMEOUT_MS)
    return page.locator("li.turn").nth(before)


def appearances(page: Any) -> list[str]:
    return [kind for kind, _ in page.evaluate("window.__appeared")]


def storage_key(page: Any) -> str | None:
    return page.evaluate("sessionStorage.getItem('boundloop.apiKey')")


def focused_testid(page: Any) -> str | None:
    return page.evaluate("document.activeElement && document.activeElement.dataset.testid || null")
