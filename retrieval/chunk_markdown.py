"""A chunk's Markdown as written: the source lines its sentences were read from, for people to read.

The reader and the verifier read a chunk's flat `text` ('Leave: 25 days' for a table row); the web page shows the
passage as its author wrote it, so this keeps the lines themselves, with the headings and the table header a window
cut off from its section needs to read as it did, and nothing else of the document.
"""

from __future__ import annotations

from boundloop.domain.sentences import Span

PASSAGE_FORMAT = "markdown-1"
"""Names how chunks keep their Markdown: the demo index is rebuilt when it changes."""

MAX_MARKDOWN_CHARS = 6000
"""A chunk's Markdown is at most this long, or it is left empty (the page shows the flat text): a window holds at most
about 120 words, so only a document of very long lines (a minified file, a table without breaks) goes over."""


def passage_markdown(text: str, headings: list[Span], spans: list[Span], headers: list[Span]) -> str:
    """The lines of `text` from the first of `spans` to the last, under the `headings` and table `headers` above them.

    Example: a window that starts at the fifth row of a table under '## Lisbon' gets the '## Lisbon' line, a blank
    line, the table's header and rule lines, then its own rows. Empty when that is over MAX_MARKDOWN_CHARS.
    """
    if not spans:
        return ""
    start, end = min(s for s, _ in spans), max(e for _, e in spans)
    body = text[start:end]
    above = [h for h in headers if h[1] <= start]
    if above:  # the window starts inside a table: its header and rule go straight above the rows
        first, last = max(above)
        body = text[first:last] + "\n" + body
    blocks = [text[s:e].strip() for s, e in headings if e <= start] + [body]
    markdown = "\n\n".join(blocks)
    return markdown if len(markdown) <= MAX_MARKDOWN_CHARS else ""
