"""Retrieved text reaches the model only as quoted, delimited data: escaped, inside tags that carry its chunk id.

Escaping means a document cannot close its own tag or open a fake one (`</document>` inside a chunk arrives as
`&lt;/document&gt;`), so every instruction a document carries stays visibly inside the data it came with.
"""

from __future__ import annotations

from html import escape

from domain.models import Claim, Evidence


def question_text(question: str) -> str:
    return escape(question, quote=False)


def document(evidence: Evidence) -> str:
    return (f'<document id="{escape(evidence.chunk_id)}" title="{escape(evidence.title)}">\n'
            f"{escape(evidence.text, quote=False)}\n</document>")


def documents(evidence: list[Evidence]) -> str:
    return "\n".join(document(e) for e in evidence) or "<no documents/>"


def claim(index: int, item: Claim) -> str:
    cites = escape(" ".join(item.citations))
    return f'<claim index="{index}" cites="{cites}">{escape(item.text, quote=False)}</claim>'
