"""Retrieved text reaches the model only as quoted, delimited data: escaped, inside tags that carry its chunk id.

Escaping means a document cannot close its own tag or open a fake one (`</document>` inside a chunk arrives as
`&lt;/document&gt;`), so every instruction a document carries stays visibly inside the data it came with.
"""

from __future__ import annotations

from html import escape

from boundloop.domain.conversation import Turn
from boundloop.domain.models import Claim, Evidence

TURN_ANSWER_CHARS = 600
"""An earlier answer is quoted up to this length: enough for the names a follow-up refers to."""


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


def turns(earlier: list[Turn]) -> str:
    """The earlier turns, oldest first: each question as resolved and the answer its user was shown."""
    quoted = []
    for index, turn in enumerate(earlier, start=1):
        short = f' short="{escape(turn.short_answer)}"' if turn.short_answer else ""
        answer = escape(turn.answer[:TURN_ANSWER_CHARS], quote=False)
        quoted.append(f'<turn index="{index}"><question>{escape(turn.standalone_question, quote=False)}</question>'
                      f'<answer status="{turn.status}"{short}>{answer}</answer></turn>')
    return "\n".join(quoted) or "<no turns/>"
