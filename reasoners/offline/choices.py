"""The options of a question that picks between two named things ('Which is older, X or Y?').

Options stand after a comma ('Who was born first, X or Y?'), on both sides of 'or' ('Is the X or the Y the genus of
more species?'), after a colon where a name may hold a comma ('older: University of California, Berkeley or
Syracuse University'), after 'between' ('Between X and Y, who is older?'), after a comparison ('born first of X
and Y') or between commas ('Which battle, X, or Y, was fought first?').
"""

from __future__ import annotations

import re

from boundloop.domain.text import stems

_COMPARED = (r"(?:first|last|earlier|later|older|younger|oldest|youngest|elder|eldest|more|most|less|least|fewer|"
             r"bigger|larger|smaller|longer|shorter|taller|higher|lower|greater|newer|closer|farther|further|"
             r"biggest|largest|smallest|longest|shortest|tallest|highest|lowest|greatest|newest|closest|recently)")
_CHOICE_FORMS = (
    re.compile(r"^\s*(?:which|who|what)\b[^:,]*:\s*(?:the\s+)?(.+?),?\s+or\s+(?:the\s+)?(.+?)$", re.I),
    re.compile(r"^\s*(?:in\s+)?between\s+(?:the\s+)?(?:two\s+[a-z]+\s+)?(.+?)\s+and\s+(?:the\s+)?(.+?)\s*,?\s*"
               r"(?:which|who|what)\b", re.I),
    re.compile(rf"^\s*(?:which|who|what)\b.*\b{_COMPARED}\s+of\s+(?:the\s+)?(.+?)\s+and\s+(?:the\s+)?(.+?)$", re.I),
    re.compile(r"^\s*(?:which|what)\s+[a-z]+,\s+(?:the\s+)?(.+?),?\s+or\s+(?:the\s+)?(.+?),\s+(?:was|is|were|are|"
               r"did|does|has|had)\b", re.I),
)
"""Choices laid out otherwise than 'X or Y' at the end."""
_COMPARED_FIRST = re.compile(rf"^\s*(?:which|who|what)\b[^,]*?\b{_COMPARED},\s*(.+\sor\s.+)$", re.I)
"""A comparison asked before its options, which may hold commas and colons of their own."""
_CHOICE = re.compile(r",?\s*(?:the\s+)?(.+?)\s+or\s+(?:the\s+)?(.+?)\s*\??\s*$", re.IGNORECASE)


def choice_options(question: str) -> tuple[str, ...]:
    """The options of a question that picks between two named things, in any of the layouts above, else ()."""
    body = question.strip().rstrip("?").strip()
    if compared := _COMPARED_FIRST.match(body):  # 'Which film came out earlier, That Devil, Bateese or Harvest: 1,000'
        options = _short(tuple(re.sub(r"^the\s+", "", o.strip(" \"'“”")) for o in compared.group(1).rsplit(" or ", 1)),
                         MAX_TITLE_WORDS)
        if len(options) == 2:
            return options
    for form in _CHOICE_FORMS:
        if (match := form.search(body)) and (options := _short(tuple(o.strip(" ,\"'“”") for o in match.groups()))):
            return options
    if not re.search(r"\bor\b", body, re.IGNORECASE):
        return ()
    if "," in body and re.match(r"^\s*(which|who|what)\b", body, re.IGNORECASE):
        match = _CHOICE.match(body.rsplit(",", 1)[1])
        if match and (options := _short(tuple(o.strip(" \"'“”") for o in match.groups()))):
            return options
    match = re.search(r"((?:[A-Z\"“][\w'’.\"”-]*\s+)*?[A-Z\"“][\w'’.\"”-]*)\s+or\s+(?:the\s+)?"
                      r"((?:[A-Z\"“][\w'’.\"”-]*)(?:\s+[A-Z\"“][\w'’.\"”-]*)*)", body)
    # a question opening on its verb picks only when it compares ('Was X or Y born first?', 'Did X or Y have the
    # higher rate?'); 'Was X or Y a singer?' asks yes or no
    if match and (match.start() > 0 or _COMPARING.fullmatch(body[match.end():]) or
                  re.search(rf"\b{_COMPARED}\b", body[match.end():], re.IGNORECASE)):
        left = match.group(1).split()
        while left and left[0].lower() in {"is", "are", "was", "were", "did", "does", "do", "has", "have", "which",
                                           "who", "the", "a", "an"}:
            left.pop(0)
        options = (" ".join(left).strip("\"“”"), match.group(2).strip("\"“”"))
        if all(options):
            return options
    return ()


MAX_OPTION_WORDS = 8
MAX_TITLE_WORDS = 12
"""Options laid out after the comparison are read whole, so they may be longer ('A Nightmare On Elm Street 4: The
Dream Master')."""
_COMPARING = re.compile(rf"\s*(?:(?!a\b|an\b|the\b)[a-z]+\s+)?(?:{_COMPARED}|(?!a\b|an\b|the\b)[a-z]+er)(?:\s+\w+)?\s*",
                        re.I)
"""What follows 'X or Y' in a question that compares them: 'born first', 'taller', 'more popular'."""


def _short(options: tuple[str, ...], most: int = MAX_OPTION_WORDS) -> tuple[str, ...]:
    """The options when each is a name of at most `most` words, else ()."""
    return options if all(o and len(o.split()) <= most for o in options) else ()


_COMPARISON = re.compile(rf"\b{_COMPARED}\b(?:\s+in\s+the\s+(?:morning|afternoon|evening|day))?", re.IGNORECASE)
"""The words of a choice's comparison: 'earlier in the morning', 'bigger', 'more'."""


def without_comparison(weights: dict[str, float], question: str) -> dict[str, float]:
    """A choice's word weights without its comparison's words: no passage says 'earlier'; each option's says a time.

    'Which office opens earlier in the morning, Bergen or Rotterdam?' is read by 'Office hours: 07:00–16:00'.
    """
    compared = comparison_stems(question)
    return {k: w for k, w in weights.items() if k not in compared} if compared else weights


def comparison_stems(question: str) -> set[str]:
    """The stems of the words of the question's comparison ('earlier', 'morning' of 'earlier in the morning')."""
    return {k for match in _COMPARISON.finditer(question) for k in stems(match.group(0))}
