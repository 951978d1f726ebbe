"""Values a question's own words rule out.

The owner of what is asked ('the postcode for the *site*'), an acronym for a person, an extension for a mobile number,
a range holding the question's own number.
"""

from __future__ import annotations

import re

from boundloop.domain.text import stem

_ACRONYM = re.compile(r"[A-Z][A-Z&]{1,5}s?")
_MOBILE = re.compile(r"\b(?:mobile|cell(?:ular)?|cellphone)\b", re.I)
MOBILE_DIGITS = 7
"""A mobile number has at least this many digits; fewer is an extension or a short code."""
_RANGE = re.compile(r"(?<![\w.,])(\d{1,4})\s?(?:to|–|-)\s?(\d{1,4})(?![\w.,]\d)")


def owner_stems(question: str, head: str) -> set[str]:
    """The words naming whose `head` is asked ('site' of 'the postcode for the site Fenella works from').

    Their column holds the owner, not the value: 'Site: Caddon Marsh' is where the postcode is, not the postcode.
    """
    if not head:
        return set()
    found = re.findall(rf"\b{re.escape(head)}\w*\s+(?:for|of|at)\s+(?:(?:the|a|an|our|this|that|my|your|his|her|"
                       rf"their)\s+)?([a-z][\w-]*)", question, re.IGNORECASE)
    return {stem(word.lower()) for word in found}


def acronym(span: str) -> bool:
    """Whether a span is a lone acronym ('DA', 'CUO'): it names a thing or a role, never a person."""
    return _ACRONYM.fullmatch(span) is not None


def asks_mobile(question: str) -> bool:
    """Whether the question asks for a mobile number ('Dr Mehta's mobile', 'her cell')."""
    return _MOBILE.search(question) is not None


def mobile_number(value: str) -> bool:
    """Whether a value has the digits of a mobile number, not of a desk extension ('ext. 2201')."""
    return len(re.sub(r"\D", "", value)) >= MOBILE_DIGITS


def given_ranges(text: str, question_values: set[str]) -> list[range]:
    """Ranges of the text that hold a number the question gives: conditions, not answers.

    'Staff in bands 2 to 5 get up to five days' for a band 5: the 2 is not the answer.
    """
    given = {float(v) for v in question_values if re.fullmatch(r"\d{1,4}", v)}
    return [range(m.start(), m.end()) for m in _RANGE.finditer(text)
            if any(float(m.group(1)) <= g <= float(m.group(2)) for g in given)]
