"""A chain's answer when its last unit is not what is asked.

Past the name it links by ('What 1996 book was written by the founder of Media Matters?'), or before a unit that only
glosses a name the question gives ('Who served as the 1st Vice President of Colombia under El Libertador?').
"""

from __future__ import annotations

import re

from boundloop.domain.text import entities, stem, stems
from boundloop.reasoners.offline.answer_types import Expected
from boundloop.reasoners.offline.candidates import best, candidates
from boundloop.reasoners.offline.chains import Chain
from boundloop.reasoners.offline.places import name_key
from boundloop.reasoners.offline.unit_names import subjects_of, titled

STRONG_SUBJECT, WEAK_VALUE = 0.8, 0.3
"""Rule scores: an earlier unit's subject this strong answers in place of a last unit's value this weak."""


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


def before_the_gloss(chain: Chain, expected: Expected, question: str) -> str | None:
    """The chain's answer, unless its last unit only glosses a name the question gives and the one before is asked.

    'Who served as the 1st Vice President of Colombia under El Libertador?': Zea Díaz's sentence ('... was a
    Colombian ... politician ...') links by 'Simón Bolívar' to the sentence that calls him El Libertador; that
    sentence offers no one asked (its best value, 'Bolivia', is weak), so the answer is the earlier sentence's
    subject.
    """
    answer = chain.answer
    if len(chain.readings) < 2 or expected.kind not in ("person", "name", "place", "other"):
        return answer
    earlier, last = chain.readings[-2:]
    subject, value = best(earlier.unit, expected, question), best(last.unit, expected, question)
    if subject is None or not subject.subject or subject.agent or subject.rule_score < STRONG_SUBJECT or \
            value is not None and value.rule_score >= WEAK_VALUE:
        return answer
    named = {k for name in entities(question, names_only=True) for k in stems(name)}
    return subject.text if (named & last.unit.stems) - earlier.unit.stems else answer


def chain_answer(chain: Chain, expected: Expected, question: str) -> str | None:
    """The chain's answer, past the name it links by or before a gloss, when either holds; its own otherwise."""
    short = past_the_link(chain, expected, question)
    return before_the_gloss(chain, expected, question) if short == chain.answer else short


FULLER_MARGIN = 0.1
"""How far below the best chain's score a chain naming the same place in full may be."""


def named_in_full(found: list[Chain]) -> Chain:
    """The best chain, or a close one naming its answer in full past a hyphen ('Appleby-in-Westmorland', 'Appleby')."""
    best = found[0]
    if not best.answer:
        return best
    cut = re.compile(re.escape(best.answer) + r"[-–]\w")
    return next((c for c in found[1:5] if c.answer and c.score >= best.score - FULLER_MARGIN and cut.match(c.answer)),
                best)
