"""Which clause of a question asks.

People set the scene first ('I start next week - who gives me my badge?'), ask two things at once ('Who signs it,
and what's their extension?') or open with a condition ('if a London hotel is £140 a night will expenses cover it').
"""

from __future__ import annotations

import re

_SCENE = re.compile(r"(?<=[.!?;])\s+|\s+[-–—]\s+")
"""Where a question that sets the scene first parts from what it asks: a sentence end, a dash."""
_COMPOUND = re.compile(r",?\s+and\s+(?=(?:what|which|where|when|who|how)\b)", re.I)
"""'Who signs it, and what's their extension?' asks for the extension, through the person who signs."""
ASKING = re.compile(r"^\s*(?:(?:in|at|on|for|from|to|by|with) (?:which|what|whom)\b|who|whom|whose|what|which|when|"
                    r"where|why|how|is|are|was|were|can|could|do|does|did|should|may|must|will|would|am)\b", re.I)

_YES_NO = re.compile(r"^\s*(?:is|are|was|were|can|could|do|does|did|should|may|must|will|would|am|has|have)\b", re.I)
_VALUE_ASKED = re.compile(r"^\s*(?:what|which|who|whom|whose|when|where|how (?:many|much|long|late|early|often))\b",
                          re.I)
"""A question for a value after a yes/no question ('... open at the weekend? what hours?'): it asks what answers
both, so the value is the answer, not a bare 'yes'."""


_REQUEST = re.compile(
    r"^\s*(?:(?:hi|hello|hey)\b[\s,!]*)?(?:(?:please|pls|kindly|quick one:?)\s+)?"
    r"(?:(?:can|could|would|will)\s+(?:you|u)\s+(?:please\s+)?|do\s+you\s+(?:happen\s+to\s+)?know\s+(?!(?:if|whether)\b)|"
    r"i(?:'d|\s+would)\s+like\s+to\s+know\s+|i\s+(?:need|want)\s+to\s+know\s+|please\s+)?"
    r"(?:(?:tell|show|give|send)\s+me\s+|remind\s+me\s+(?:of\s+)?|let\s+me\s+know\s+|(?=list\s)|(?=name\s)|"
    r"(?:find|look\s+up)\s+(?:me\s+)?|(?<=know\s))", re.I)
"""A request wrapped round what is asked ('can you remind me of the roof code', 'could you list the wifi names',
'do you know who signs it'): the wrapper asks nothing itself, and 'can you' in it is no yes/no question."""
_WH = re.compile(r"(?:what|which|who|whom|whose|where|when|why|how|whether|if)\b", re.I)
_OPENER = re.compile(r"^\s*(?:(?:hi|hello|hey)\b[\s,!]*)?(?:(?:a\s+)?quick\s+(?:one|question|q)|(?:one\s+)?question|"
                     r"sorry|random\s+(?:one|question))\s*(?:[:,!]|\s[-–—])\s*", re.I)
"""An opener before the question ('Quick one: how fast ...', 'Question - who ...'): it asks nothing."""


NOW = re.compile(r"\b(?:these\s+days|nowadays|at\s+the\s+moment|at\s+present|right\s+now|currently|actually|still|"
                 r"anymore|any\s+more|latest)\b", re.I)
"""Words asking what holds now, after any change a later document made ('still free?', 'who reviews it these
days?'): a signal for the plan, no words a passage must hold."""


def without_now(question: str) -> str:
    """The question without its words asking what holds now ('these days' has no 'days' to find)."""
    return " ".join(NOW.sub(" ", question).split())


_HEARSAY = re.compile(r"^\s*(?:(?:i|we)(?:'ve|\s+have)?\s+)?(?:heard|hear|was told|were told|someone (?:said|told)|"
                      r"(?:the\s+)?rumou?r\s+is|apparently)\b[^?]*\d[^?]*$", re.I)
"""A remark after the question giving a value the asker heard ('heard we're going to 12h'): no part of what is
asked."""


def without_hearsay(question: str) -> str:
    """The question without a remark after it giving a value the asker heard: it may be a proposal, never the answer.

    'how long are the shifts at Gdynia at the moment? heard we're going to 12h' asks the shifts' length now; a
    remark without a value ('heard rumours') is left as it is.
    """
    asking, mark, rest = question.rpartition("?")
    return f"{asking}{mark}" if mark and asking.strip() and _HEARSAY.match(rest) else question


_OUTCOME = re.compile(r"\b(?:end|ends|ended|ending|wind|winds|wound)\s+up\s+(?=\w+ing\b)", re.I)
"""'End up' before a verb ('did the ride end up raising'): it says the verb's outcome and asks nothing of its own."""


def without_outcome(question: str) -> str:
    """The question without 'end up' before the verb it leads into ('... end up raising?' -> '... raising?')."""
    return _OUTCOME.sub("", question)


def requested(question: str) -> str:
    """What a request asks: 'can you tell me the site's address?' -> 'what is the site's address?'.

    A wrapped question keeps its own words ('tell me who signs it' -> 'who signs it'); a list asked for stays one
    ('could you list the first aid contacts' -> 'list the first aid contacts'); any other thing asked for is asked
    as 'what is ...'. A question with no such wrapper is returned as it is, so 'Can you bring a guest?' still asks
    yes or no.
    """
    if (opener := _OPENER.match(question)) and ASKING.match(question[opener.end():]):
        question = question[opener.end():]
    match = _REQUEST.match(question)
    if match is None or match.end() == 0:
        return question
    rest = question[match.end():].lstrip()
    if not rest or rest == question.lstrip():
        return question
    if _WH.match(rest) or re.match(r"(?:list|name)\s", rest, re.I):
        return rest[0].upper() + rest[1:]
    return f"What is {rest}"


def interrogative(question: str) -> str:
    """The clause that asks, when the question sets the scene first; the whole question otherwise.

    'I'm starting in Gdansk next week - who gives me my badge?' asks 'who gives me my badge?'; a request asks what
    it wraps (`requested`).
    """
    question = requested(question)
    if '"' in question or "“" in question:  # a quoted title may hold any punctuation ('"Hey Pa! There's a Goat"')
        return question
    compound = _COMPOUND.split(question.strip())
    if len(compound) == 2 and ASKING.match(compound[0]) and (compound[1].rstrip().endswith("?") or "?" not in question):
        return compound[1]  # 'Who signs it, and what's their extension?' (typed without the mark too)
    if (conditioned := _after_condition(question)) is not None:
        return conditioned  # 'if a London hotel is £140 a night will expenses cover it'
    clauses = [c for c in _SCENE.split(question.strip()) if c.strip()]
    if len(clauses) > 1 and _YES_NO.match(clauses[0]) and _VALUE_ASKED.match(clauses[-1]) and \
            clauses[-1].rstrip().endswith("?"):
        return clauses[-1]  # 'is the desk open at the weekend? what hours?': the hours answer both
    if len(clauses) < 2 or ASKING.match(clauses[0]):  # a question that starts by asking is asked as a whole
        return question  # ('Which film ..., What Will You Do When You Catch Me? or School On Fire?')
    # the asking clause is a question of its own: 'Brian G. Hutton or X?' is not split at the initial
    asking = [c for c in clauses if ASKING.match(c) and c.rstrip().endswith("?")]
    # the asking clause may itself ask two things ('NOK 14,000 - who approves it and what's their extension?')
    return interrogative(asking[-1]) if asking else question


_CONDITION = re.compile(r"^\s*(?:if|once|suppose|when(?!\s+(?:is|are|was|were|do|does|did|can|could|will|would|should|"
                        r"must|may|has|have|had)\b))\s", re.I)
"""A condition opens the question ('if ...', 'when I work nights ...'); 'when does' asks for a date instead."""
_QUESTION_WORD = re.compile(r"\b(?:what|which|who|whom|whose|where|how)\b", re.I)
_AUXILIARY = re.compile(r"\b(?:will|would|can|could|do|does|did|is|are|should|may|must|am)\b(?=(?:\s+\S+){2})", re.I)


def _after_condition(question: str) -> str | None:
    """The asking clause of a question that opens with a condition and no comma to end it, else None.

    'if a london hotel is £140 a night will expenses cover it' asks 'will expenses cover it'; 'if I leave in June how
    much do I pay back' asks 'how much do I pay back': its first question word, else its last auxiliary.
    """
    if not _CONDITION.match(question) or re.search(r"[,;:–—]|\s-\s", question):
        return None
    asking = _QUESTION_WORD.search(question, 3)
    if asking:
        return question[asking.start():]
    starts = [m.start() for m in _AUXILIARY.finditer(question, 3)]
    return question[starts[-1]:] if starts else None
