"""Offline understanding: the question's class, entities and answer type, from its wording alone."""

from __future__ import annotations

import re

from boundloop.domain.models import QueryClass, Understanding
from boundloop.domain.text import entities
from boundloop.domain.words import content_terms
from boundloop.reasoners.offline.choices import choice_options

_CHITCHAT = re.compile(
    r"^\s*(hi|hello|hey|thanks|thank you)\b|\b(write|compose) (me )?(a |an )?(poem|joke|story|song|essay)"
    r"|\btell me a joke\b|\bweather (today|tomorrow|forecast)\b",
    re.IGNORECASE,
)
_LIVE_TOPICS = ("weather|forecast|temperature|rain|snow|traffic|stock price|share price|exchange rate|news|"
               "headlines|score")
_LIVE_TIMES = "today|tomorrow|tonight|right now|now|at the moment|currently|this (?:morning|afternoon|evening|weekend)"
_LIVE = re.compile(rf"(?=.*\b(?:{_LIVE_TOPICS})\b)(?=.*\b(?:{_LIVE_TIMES})\b)", re.IGNORECASE | re.DOTALL)
"""Live facts ('the weather in Lisbon today'): a company's documents never hold them, whatever place they name."""
_COMPARE_WORDS = re.compile(
    r"\b(compare[ds]?|comparison|versus|vs\.?|difference between|differ|same|both|either|neither)\b", re.IGNORECASE
)
_COMPARATIVE = re.compile(
    r"\b(first|earlier|later|older|younger|more|less|fewer|larger|bigger|smaller|higher|lower|longer|shorter|"
    r"taller|closer|further|farther|newer|better|worse|cheaper|greater|most|least|last)\b",
    re.IGNORECASE,
)
_AGGREGATE = re.compile(
    r"\b(how many \w+ (are|were) there|list (all|the|every)|what are (all )?the \w+s\b|in total|total number|"
    r"count of|all (the )?\w+ (that|which|with|in|on))\b"
    r"|^(which|what) (\w+ ){0,2}\w+[^s]s (are|were|do|does|did|seat|have|has|in|of|on|at)\b",
    re.IGNORECASE,
)
_INDIRECT = re.compile(
    r"\bthe (person|people|team|system|tool|manager|owner|office|room|lead|contact|department|building)"
    r"( \w+)? (responsible|in charge|I|we|you|who|that|which|where)\b",
    re.IGNORECASE,
)
_RELATIVE = re.compile(r"\b\w+\s+(who|whom|whose|which|that|where)\s+\w+", re.IGNORECASE)
_NESTED_OF = re.compile(r"\bof (the|a|an) \w+.*\bof\b", re.IGNORECASE)
_YES_NO = re.compile(r"^\s*(is|are|was|were|do|does|did|can|could|has|have|had|will|should)\b", re.IGNORECASE)


def answer_type(question: str) -> str:
    lower = question.lower().strip()
    if _YES_NO.match(lower):
        return "yes_no"
    person = r"\b(which|what) (person|man|woman|actor|director)\b"
    if re.match(r"^(who|whom|whose)\b", lower) or re.search(person, lower):
        return "person"
    if re.match(r"^when\b", lower) or re.search(r"\b(what|which) (year|date|day|month|time)\b", lower):
        return "date"
    if re.search(r"\bhow (many|much|long|far|old|big)\b|\bwhat (percentage|number|amount)\b", lower):
        return "number"
    if re.match(r"^where\b", lower) or re.search(r"\b(what|which) (city|country|room|floor|building|office)\b", lower):
        return "place"
    return "other"


def classify(question: str) -> Understanding:
    """The class is a hint for planning; nothing here decides what may be seen or when to stop."""
    found = entities(question)
    kind = answer_type(question)
    if not content_terms(question) or _CHITCHAT.search(question) or _LIVE.match(question):
        return Understanding(query_class="out_of_scope", entities=found, answer_type=kind)
    body = question.strip()
    has_or = re.search(r"\bor\b", body, re.IGNORECASE) is not None
    if re.search(r"\bcompared (with|to)\b", body, re.IGNORECASE) or (
        _COMPARE_WORDS.search(body) and (len(found) >= 2 or has_or or " and " in body)
    ):
        query_class: QueryClass = "comparison"
    elif has_or and len(found) >= 2 and (_COMPARATIVE.search(body) or re.match(r"^(which|who)\b", body, re.I)):
        query_class = "comparison"
    elif has_or and _COMPARATIVE.search(body) and len(options := choice_options(body)) == 2:
        # 'which office opens earlier, bergen or rotterdam?': options typed in lower case are the compared things
        query_class = "comparison"
        found = [*found, *(o for o in options if o not in found)]
    elif _YES_NO.match(body) and len(found) >= 2 and " and " in body:
        query_class = "comparison"
    elif _RELATIVE.search(body[1:]) or _NESTED_OF.search(body) or _INDIRECT.search(body):
        query_class = "multi_hop"
    elif _AGGREGATE.search(body):
        query_class = "aggregation"
    else:
        query_class = "lookup"
    return Understanding(query_class=query_class, entities=found, answer_type=kind)
