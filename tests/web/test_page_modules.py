"""The page's pure modules, run in the browser: claim marking, SSE framing."""

from __future__ import annotations

import pytest

from tests.web.browser import browser_session

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def page(playwright_driver, demo_server):
    with browser_session(playwright_driver, demo_server) as session:
        session.page.goto(session.base)
        yield session.page
        session.assert_clean()


def marked(page, text: str, claim: str) -> list[str]:
    return page.evaluate("""async ([text, claim]) => {
        const { markRanges } = await import("./assets/js/highlight.js");
        return markRanges(text, claim).map(([start, end]) => text.slice(start, end));
    }""", [text, claim])


def test_a_verbatim_claim_is_marked_whole(page):
    text = "Expense policy.\nClaims above EUR 5,000 need approval from the Head of Finance. Claims go to Concur."
    assert marked(page, text, "claims above EUR 5,000 need approval from the head of finance.") == [
        "Claims above EUR 5,000 need approval from the Head of Finance"]


def test_a_paraphrase_marks_its_words_in_the_best_lines_only(page):
    text = ("Leave policy for all offices.\nLisbon: 25 working days of annual leave.\nToronto: 20 working days.\n"
            "Sick leave is separate.")
    assert marked(page, text, "Lisbon employees get 25 working days of annual leave") == [
        "Lisbon: 25 working days of annual leave"]


def test_a_passage_without_the_claims_words_is_not_marked(page):
    assert marked(page, "The canteen opens at noon.", "Annual leave is 25 days") == []


def test_server_sent_events_split_anywhere_are_read_whole(page):
    events = page.evaluate("""async () => {
        const { readEvents } = await import("./assets/js/sse.js");
        const text = 'event: span\\ndata: {"node":"plan"}\\n\\n'
            + 'event: result\\ndata: {"run_id":"r","answer":"a\\\\nb"}\\n\\n';
        const bytes = new TextEncoder().encode(text);
        const body = new ReadableStream({ start(controller) {
            for (let i = 0; i < bytes.length; i += 7) controller.enqueue(bytes.slice(i, i + 7));
            controller.close();
        } });
        const out = [];
        for await (const event of readEvents(body)) out.push(event);
        return out;
    }""")
    assert events == [{"event": "span", "data": {"node": "plan"}},
                      {"event": "result", "data": {"run_id": "r", "answer": "a\nb"}}]


def test_a_run_whose_model_was_unavailable_says_so_under_the_answer(page):
    notes = page.evaluate("""async (why) => {
        const { notesBlock } = await import("./assets/js/answer.js");
        return [notesBlock({ model_unavailable: why }).textContent, notesBlock({ model_unavailable: null })];
    }""", "model unavailable (timeout in understand); the rest of the run was decided offline")
    assert notes == ["Model unavailable (timeout in understand); the rest of the run was decided offline.", None]


def test_the_status_line_words_come_from_the_limits_declaration(page):
    """status.js has no list of limits: limits.js, made from `BudgetLimits`' fields, names each one."""
    texts = page.evaluate("""async () => {
        const { statusText, usageText } = await import("./assets/js/status.js");
        return [statusText({ status: "answered", complete: false, stop_reason: "documents" }),
                statusText({ status: "fallback", complete: false, stop_reason: "retrieval_calls" }),
                usageText({ hops: 1, retrieval_calls: 2, documents: 2, tokens: 300, elapsed_ms: 1500 })];
    }""")
    assert texts == ["Answered · incomplete: stopped at the document limit",
                     "Fallback · incomplete: stopped at the search limit",
                     "1 hop · 2 searches · 2 documents · 300 tokens · 1,500 ms"]
