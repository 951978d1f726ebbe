"""A chain's answer, past the name it links by: 'What 1996 book was written by the founder of Media Matters?'."""

from __future__ import annotations

from domain.text import stem
from reasoners.offline.answer_types import Expected
from reasoners.offline.candidates import candidates
from reasoners.offline.chains import Chain, name_key, subjects_of, titled


def past_the_link(chain: Chain, expected: Expected, question: str) -> str | None:
    """The chain's answer, unless it is only the name the chain links by and the unit before says what is asked.

    'What 1996 book was written by the founder of Media Matters?': the book's sentence ('The Seduction of Hillary
    Rodham is a 1996 book ... by David Brock') leads to David Brock's, which names him again; the answer is the
    subject the question's words describe in the earlier unit, not the link. Only when the noun asked for ('book') is
    the earlier unit's and not the last's: 'Brooklyn is a 2015 ... romantic drama film' answers 'what 2015 romantic
    drama', though the producer's sentence before it names the film.
    """
    answer, head = chain.answer, stem(expected.head) if expected.head else ""
    if answer is None or len(chain.readings) < 2 or not head:
        return answer
    earlier, last = chain.readings[-2:]
    link = name_key(answer)
    stated = subjects_of(last) | titled(last.unit.evidence.title)
    if head not in earlier.unit.stems or head in last.unit.stems or link not in stated or \
            f" {link} " not in f" {name_key(earlier.unit.plain)} ":
        return answer
    others = [c for c in candidates(earlier.unit, expected, question)
              if f" {name_key(c.text)} " not in f" {link} " and f" {link} " not in f" {name_key(c.text)} "]
    before = max(others, key=lambda c: c.rule_score, default=None)
    return before.text if before is not None and before.subject and not before.agent else answer
