"""A cited passage shows as written: its Markdown rendered safely in the real page, the claim still marked.

Every test also checks that no request left the machine and that the console stayed free of errors (a
Content-Security-Policy violation is one).
"""

from __future__ import annotations

import json

import pytest

from tests.web.actions import ask, sign_in
from tests.web.browser import browser_session

pytestmark = pytest.mark.slow

LEAVE = "How many days of annual leave do Lisbon employees get?"
# Each line tries another way in; any one that ran would set window.__pwned or fetch from evil.example.
HOSTILE = """# Leave <img src=x onerror="window.__pwned=1">

<script>window.__pwned = 2</script>

<img src="https://evil.example/a.png" onerror="window.__pwned=3">

<a href="javascript:window.__pwned=4">raw link</a> and <b onmouseover="window.__pwned=5">bold</b>

[script link](javascript:window.__pwned=6) [data link](data:text/html,<script>alert(1)</script>) [relative](/runs)

![tracker](https://evil.example/b.png) <iframe src="https://evil.example/"></iframe>

<div style="background:url(https://evil.example/c.png)">styled</div>

| Office | Annual leave |
|---|---|
| <svg onload="window.__pwned=7"> | 25 working days `<script>` |
"""
# Watches for what must not happen: a CSP violation, a new element that runs or loads anything.
WATCH = """
window.__violations = [];
document.addEventListener("securitypolicyviolation", (e) => window.__violations.push(e.violatedDirective));
"""


@pytest.fixture
def browser(playwright_driver, demo_server):
    with browser_session(playwright_driver, demo_server) as session:
        session.page.add_init_script(WATCH)
        yield session
        assert session.page.evaluate("window.__violations") == []
        session.assert_clean()


def parser_loaded(page) -> bool:
    return page.evaluate("performance.getEntriesByType('resource').some((r) => r.name.endsWith('.mjs'))")


def _open_first_passage(page, base):
    sign_in(page, base, "demo-key-alice")
    turn = ask(page, LEAVE)
    assert not parser_loaded(page)  # the Markdown parser loads with the first passage shown, not with the page
    turn.get_by_test_id("answer").get_by_test_id("citation").first.click()
    passage = turn.get_by_test_id("passage")
    passage.wait_for()
    return passage


def test_a_cited_table_shows_as_a_table_and_headings_as_headings_with_the_claim_marked(browser):
    passage = _open_first_passage(browser.page, browser.base)
    body = passage.locator(".passage-md")
    assert body.count() == 1 and passage.locator(".passage-text").count() == 0 and parser_loaded(browser.page)
    table = body.locator("table")
    assert table.locator("thead th").all_inner_texts() == ["", "Lisbon", "Toronto"]
    assert table.locator("tbody tr").first.locator("td").all_inner_texts() == [
        "Annual leave", "25 working days", "20 working days"]
    assert "Annual leave" in body.locator("h6.md-h2").all_inner_texts()  # '## Annual leave' under the h4 title
    assert "|" not in body.inner_text() and "## " not in body.inner_text()
    assert "25 working days" in table.locator("mark").all_inner_texts()  # the claim's words, in their cell


def test_hostile_passage_markdown_does_nothing_and_shows_as_text(browser):
    page = browser.page

    def hostile(route):
        response = route.fetch()
        body = response.json()
        for passage in body["passages"]:
            passage["markdown"] = HOSTILE
        route.fulfill(response=response, body=json.dumps(body))

    page.route("**/runs/*/passages", hostile)
    passage = _open_first_passage(page, browser.base)
    body = passage.locator(".passage-md")
    for link in body.locator("a, .link-inert").all():
        link.click(modifiers=["Alt"])  # Alt: no new tab either way; a javascript: href would still run
    body.locator("b, td").first.hover()
    text = body.inner_text()
    assert "<script>window.__pwned = 2</script>" in text and '<img src="https://evil.example/a.png"' in text
    assert "<iframe" in text and '<div style="background' in text and "<svg onload" in text
    assert body.locator("script, img, iframe, svg, div, b, [style], [onerror], [onload], [onmouseover]").count() == 0
    anchors = body.locator("a")
    assert anchors.count() == 0  # javascript:, data: and relative links are not links
    assert body.locator(".link-inert").all_inner_texts() == ["relative"]
    assert "tracker" in text  # an image is its alt text, never fetched
    assert body.locator("table td").nth(1).inner_text() == "25 working days <script>"
    assert page.evaluate("window.__pwned") is None


def rendered(page, markdown: str) -> dict:
    return page.evaluate("""async (markdown) => {
        const { renderMarkdown } = await import("./assets/js/markdown.js");
        const root = renderMarkdown(markdown);
        const all = [...root.querySelectorAll("*")];
        return { tags: all.map((e) => e.tagName.toLowerCase()),
                 attributes: all.flatMap((e) => [...e.attributes].map(
                     (a) => `${e.tagName.toLowerCase()}.${a.name}=${a.value}`)),
                 text: root.textContent };
    }""", markdown)


def test_the_renderer_builds_only_its_own_tags_and_attributes(browser):
    page = browser.page
    page.goto(browser.base)
    out = rendered(page, "## Head\n\n1. *one*\n2. **two** ~~old~~\n\n| a | b |\n|:-:|--:|\n| `x` | y |\n\n"
                         "> quoted\n\n```\ncode <b>\n```\n\n"
                         "[site](https://example.org/p?q=1) [mail](mailto:hr@x.example)")
    assert out["tags"] == ["h6", "ol", "li", "em", "li", "strong", "s", "table", "thead", "tr", "th", "th", "tbody",
                           "tr", "td", "code", "td", "blockquote", "p", "pre", "code", "p", "a", "a"]
    assert sorted(out["attributes"]) == sorted([
        "h6.class=md-h2", "th.class=align-center", "th.class=align-right", "td.class=align-center",
        "td.class=align-right", "a.href=https://example.org/p?q=1", "a.rel=noopener noreferrer", "a.target=_blank",
        "a.referrerpolicy=no-referrer", "a.href=mailto:hr@x.example", "a.rel=noopener noreferrer", "a.target=_blank",
        "a.referrerpolicy=no-referrer"])
    assert "code <b>" in out["text"]
    numbered = rendered(page, "3. third\n4. fourth")
    assert numbered["attributes"] == ["ol.start=3"]
