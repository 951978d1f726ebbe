"""Permission questions read against the rule that governs them.

'Am I allowed to fill up my own car with the truck's fuel card?' rarely shares its words with the rule that answers
it ('Using a fuel card for a private vehicle ... is strictly prohibited'), so coverage alone never reaches it. The
encoder does: the rule closest in meaning to the question, when it forbids the act, answers 'no'. So does a rule
that allows the act only with an approval the question says it will not have ('without anyone's approval' against
'only with prior written approval from the CFO').

Only 'no' is read this way. A rule that allows something is nearly always conditional ('premium economy for flights
of 6 hours or more'), and a rule with an exception or a limit ('may not work from home more than two days a week')
needs the question's own figures, which the ordinary yes/no reading compares.
"""

from __future__ import annotations

import re

from boundloop.domain.text import stems
from boundloop.reasoners.offline.answerability import Similarity
from boundloop.reasoners.offline.reading import Reading
from boundloop.reasoners.offline.units import Unit
from boundloop.reasoners.offline.vocabulary import words

_ASKS = re.compile(
    r"^\s*(?:(?:am i|are (?:we|you|staff|employees|contractors|visitors|drivers)|is (?:it|anyone|anybody))"
    r"\s+(?:allowed|permitted)\s+to"
    r"|(?:can|may|could) (?:i|we|staff|employees|contractors|visitors|drivers)\b"
    r"|is it (?:ok|okay|fine|alright|all right|acceptable|allowed|permitted) (?:to|if)\b)",
    re.IGNORECASE)
"""A question asking whether the asker may do something."""
_FORBIDS = re.compile(
    r"\b(?:(?:strictly |expressly )?(?:prohibited|forbidden|banned)|not (?:allowed|permitted)|may not|must not|"
    r"mustn't|cannot|can't|(?:is|are) not to be)\b", re.IGNORECASE)
_APPROVAL = r"approv|consent|permission|authori[sz]|sign(?:ed)?[- ]?off"
"""The words of someone's approval, as the start of a word ('approved', 'authorisation')."""
_CONDITIONAL = re.compile(
    rf"\bonly\b[^.;]{{0,60}}?\b(?:with|after|once|if|when)\b[^.;]{{0,60}}?\b(?:{_APPROVAL}|agree)"
    rf"|\b(?:requires?|needs?|must (?:be|have|get|first)|subject to)\b[^.;]{{0,60}}?\b(?:{_APPROVAL})",
    re.IGNORECASE)
"""A rule allowing the act only with someone's approval."""
_WITHOUT = re.compile(
    rf"\bwithout\b[^.?]{{0,30}}?\b(?:{_APPROVAL}|ask|tell|check|anyone|anybody|(?:my|a|the) (?:manager|boss|"
    r"line manager))", re.IGNORECASE)
"""The question says the asker will not have the approval a rule may ask for."""
_EXCEPTED = re.compile(
    r"\b(?:except|unless|other than|apart from|more than|less than|fewer than|longer than|over|above|below|under|"
    r"beyond|up to|at least|at most|no more than|exceed\w*|per|once|twice|one|two|three|four|five|six|seven|eight|"
    r"nine|ten|eleven|twelve)\b|\d", re.IGNORECASE)
"""A rule with an exception or a limit: whether it forbids the act depends on the question's particulars."""
_ALLOWS = re.compile(r"\b(?:may|can|allowed|permitted|eligible|entitled|approved)\b", re.IGNORECASE)
"""A heading or lead over a list of what is allowed ('What you may buy')."""
ITEM_WORDS = 8
"""An item of such a list names a thing; a longer unit under it states a rule of its own."""
_DEONTIC = words("deontic_verbs")
"""Words of the question that ask for permission rather than name the act."""
_ASKS_NEGATED = re.compile(r"\b(?:not|never|n't)\b", re.IGNORECASE)
FLOOR = 0.45
"""The rule must be at least this close in meaning (MiniLM cosine) to the question. Forbidding rules on the same
subject but about another act ('food and drinks are not allowed on the fuel card', 0.61 to the private-car question)
also say 'no' to it, so the floor only keeps out rules on other subjects (0.20-0.29 there)."""
RIVALS = 5
MARGIN = 0.05
"""Nor may one of the RIVALS best-read units of the evidence be closer to the question than the rule by more than
this: the evidence's answer is elsewhere, and the ordinary reading decides."""


def forbidden(question: str, readings: list[Reading], units: list[Unit], similarity: Similarity | None
              ) -> tuple[str, list[Reading]] | None:
    """'no', with the rule, when the rule closest to a permission question forbids the act.

    Or when it allows the act only with an approval the question rules out; None otherwise.

    `units` are every unit of the evidence, read or not: an allowed item that only repeats the question's words
    ('AdBlue') is no reading, yet it says the act is allowed.
    """
    if similarity is None or not readings or not _ASKS.search(question) or _ASKS_NEGATED.search(question):
        return None
    without = _WITHOUT.search(question) is not None
    rules = [r for r in readings if not r.unit.superseded and
             (_FORBIDS.search(r.unit.plain) and not _EXCEPTED.search(r.unit.plain) or
              without and _CONDITIONAL.search(r.unit.plain))]
    if not rules:
        return None
    rivals = sorted(readings, key=lambda r: -r.score)[:RIVALS]
    texts = [f"{r.unit.lead} {r.unit.plain}".strip() for r in rules + rivals]
    cosines = similarity(question, texts)
    best = max(range(len(rules)), key=lambda i: cosines[i])
    if cosines[best] < FLOOR or cosines[best] < max(cosines) - MARGIN:
        return None
    if allowed_by_name(question, rules[best].unit, units):
        return None
    return "no", [rules[best]]


def allowed_by_name(question: str, rule: Unit, units: list[Unit]) -> bool:
    """Whether a unit allowing something names what a permission question asks about and `rule` does not.

    'Can I buy AdBlue with the card?': 'AdBlue', under 'What you may buy', answers it, not the private-use ban.
    """
    if not _ASKS.search(question):
        return False
    asked = stems(question) - _DEONTIC - rule.stems
    return any(asked & u.stems for u in units if not u.is_heading and len(u.plain.split()) <= ITEM_WORDS and
               not _FORBIDS.search(u.plain) and _ALLOWS.search(f"{u.heading} {u.lead}"))
