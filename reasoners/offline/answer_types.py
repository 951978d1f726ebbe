"""The kind of answer a question asks for, from its wording: a value (amount, date, name, code...) or an explanation.

The kind decides which spans of a sentence can be the short answer: 'In which room...' wants a room number, 'Who
approves...' a person or a role, 'How do I...' an explanation (no short answer). The head noun ('room', 'extension',
'web address') is kept too: tables name their columns with the same words.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from boundloop.domain.words import content_terms
from boundloop.reasoners.offline.choices import choice_options
from boundloop.reasoners.offline.clauses import ASKING, interrogative
from boundloop.reasoners.offline.deadlines import DUE_SPEED
from boundloop.reasoners.offline.head_nouns import HEAD_KINDS, respelled, spelled
from boundloop.reasoners.offline.vocabulary import words

_HEAD_WORDS = r"(?:what|which|whose)"
_SKIP = words("head_skipped")


_STEPS = re.compile(r"^\s*what (?:are|is) (?:the |our )?(?:steps|stages|process|procedure|instructions)\b")
"""A question asking how something is done, step by step, which an aggregation class would read as a list."""
_EXPLANATION = re.compile(
    r"^\s*(?:how (?:do|does|did|can|could|should|would|to|is|are)\b(?! (?:many|much|long|far|old|big|often))"
    r"|why\b|explain\b|describe\b|summari[sz]e\b"
    r"|what (?:should|must|do|can|could) (?:i|we|you|employees|staff|people)\b(?!.*\b(?:call|use|ask|contact)\b)"
    r"|what (?:should|must|can|could|do|does) [\w\s'’-]{1,60}? do\b"
    r"|what (?:happens|changes|steps|are the (?:steps|rules|requirements|options|conditions))"
    r"|what (?:is|are) (?:the |our |its |their )?(?:\w+(?:'s|’s) )?(?:process|procedure|polic(?:y|ies)|rules?|steps|"
    r"requirements?|difference|purpose|reason|approach|guidance)\b"
    r"|what did .* (?:decide|say|agree|discuss)\b|tell me about\b)",
    re.IGNORECASE,
)
_YES_NO = re.compile(r"^\s*(?:is|are|was|were|do|does|did|can|could|has|have|had|will|would|should|may|must|am)\b",
                     re.IGNORECASE)


@dataclass(frozen=True)
class Expected:
    """What a question wants back."""

    kind: str
    """yes_no, choice, person, place, date, time, amount, number, phone, email, url, room, code, postcode, address,
    name, list, explanation or other."""
    head: str = ""
    """The noun the question asks for ('room', 'extension', 'book'), when it names one."""
    options: tuple[str, ...] = ()
    """For a choice ('Which is older, X or Y?'), the options."""

    @property
    def wants_value(self) -> bool:
        """Whether a short answer (a value) makes sense; explanations get none."""
        return self.kind != "explanation"


_PHRASE_END = words("phrase_end")


_PARTICIPLES = words("participles")


_CONTRACTED = re.compile(r"\b(what|who|where|when|which|how)['’]?s\b", re.IGNORECASE)


def head_phrase(question: str) -> list[str]:
    """The words of the noun phrase a question asks for; empty when there is none.

    The phrase follows 'what/which/whose' (skipping 'is the name of') or 'how many', up to the first preposition or
    verb.
    """
    match = re.search(rf"\b{_HEAD_WORDS}\s+(.*)", question, re.IGNORECASE) or \
        re.search(r"\bhow (?:many|much)\s+(.*)", question, re.IGNORECASE)
    if not match:
        return []
    written = re.findall(r"[A-Za-z0-9][\w'’-]*", match.group(1))
    while written and (written[0].lower() in _SKIP or written[0].lower() in {"of", "the"}):
        written.pop(0)
    # a name's possessive says whose it is, not what is asked ('Priya Raman's extension' asks for an extension)
    for k, word in enumerate(written[:6]):
        if not word[:1].isupper() and word.lower() not in _NAME_PARTICLES:
            break
        if word.endswith(("'s", "’s", "s'", "s’")) and k + 1 < len(written):  # also 'Claimline Services' DA limit'
            del written[:k + 1]
            break
    phrase: list[str] = []
    for k, word in enumerate(written):
        lower = spelled(word.lower())
        if lower.isdigit():  # a year or count qualifies the noun ('What 2015 drama...'); it is not the noun
            continue
        if k and written[k - 1].isdigit() and _COUNTED.match(lower):
            continue  # so does the unit it counts ('the 24 hour emergency number' asks for a number, not an hour)
        # the phrase ends at a preposition or verb, or at a name after it ('Which player played Chad Bradford'); a
        # word in -ing before a name or 'the' is a verb ('what movie starring Melissa McCarthy')
        taking = lower.endswith("ing") and k + 1 < len(written) and \
            (written[k + 1][:1].isupper() or written[k + 1].lower() in {"the", "a", "an"})
        # an acronym before a lower-case noun qualifies it ('fictional MI6 agent'); other capitals start a name
        named = word[:1].isupper() and not (word.isupper() and len(word) > 1 and k + 1 < len(written) and
                                             written[k + 1][:1].islower())
        if phrase and (lower in _PHRASE_END or lower in _PARTICIPLES or _participle(lower) or named or taking):
            break
        phrase.append(lower.removesuffix("'s").removesuffix("’s"))
    return phrase


_NAME_PARTICLES = words("name_particles")
"""Lower-case words inside a name ('Marloes de Bruijn')."""


def head_noun(question: str) -> str:
    """The last word of the asked-for noun phrase ('daily meal allowance' -> 'allowance'); '' when none."""
    phrase = head_phrase(question)
    return phrase[-1] if phrase else ""


def _participle(word: str) -> bool:
    """'played', 'agreed', 'written' (a word of _PARTICIPLES aside): not 'speed', 'need' or 'breed'."""
    return word.endswith("ed") and len(word) > 4 and (not word.endswith("eed") or len(word) > 5)


_MEASURES = words("measures")
_BOUNDS = words("bound_words")
"""Words that bound what they qualify ('maximum number', 'max per transaction'): the noun after them is asked for."""
_BOUND_OF = re.compile(
    r"^\s*what (?:is|are|was|were) the (?:(most|least|max|maximum|min|minimum)|(longest|shortest|furthest|farthest))"
    r" (?:a|an|the|i|we|you|they|he|she|one|someone|anyone|my|our|your|their|staff|employees|people)\b")
"""'What's the most a director can approve?' asks for an amount; 'the longest a shift can be' for a duration."""
_COUNTED = re.compile(r"^(?:seconds?|minutes?|hours?|days?|weeks?|months?|years?)$")
_CALLED = words("called_lines")
"""Words before 'number' or 'line' that say it is called ('the emergency number', 'the security desk line')."""
_SPAN_OF_TIME = re.compile(r"\b(?:minimum|maximum|min|max|shortest|longest)\s+(?:[a-z-]+\s+)?times?\b")
"""'The minimum flight time', 'the maximum response time': a length of time, not a time of day."""


def kind_of_phrase(words: list[str]) -> str | None:
    """The value kind a noun phrase names ('mobile number' -> phone, 'salary band' -> amount), or None."""
    if len(words) > 1 and words[-1] in ("number", "line") and _CALLED & set(words[:-1]):
        return "phone"  # 'the emergency number', 'the support line': a number one calls, no count
    pairs = {" ".join(words[i:i + 2]) for i in range(len(words) - 1)}
    if pairs & {"web address", "web page", "web site", "e mail", "email address"}:
        return "email" if pairs & {"e mail", "email address"} else "url"
    if _MEASURES & set(words):  # 'speed limit', 'weight allowance': a measure, not a sum of money
        return "number"
    if words and _BOUNDS.issuperset(words):  # 'the max per transaction': a limit, of money or of a count
        return "amount"
    words = [w for w in words if w not in _BOUNDS]
    for pattern, kind in HEAD_KINDS:
        if any(pattern.match(word) for word in words):
            return kind
    return None


def plural_noun(phrase: list[str], question: str = "") -> str:
    """The plural noun among the first words of the asked-for phrase ('public holidays', 'meeting rooms'), or ''.

    A name is no plural noun: 'Leeds' in 'Which Leeds meeting rooms...'.
    """
    named = {w.lower() for w in re.findall(r"(?<!^)(?<![.?!]\s)\b[A-Z][a-z]+", question)}
    for k, word in enumerate(phrase[:3]):
        if word in named or _verb_after_what(word, question, first=k == 0):
            continue
        if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is", "ics", "'s")) and \
                word not in {"days", "hours", "weeks", "months", "years", "minutes", "news", "series", "species",
                             "sales", "does", "was", "has", "is", "this", "its"}:
            return word
    return ""


def _one_of(lower: str, plural: str) -> bool:
    """Whether 'which of ...' asks one of the things, its verb singular: 'Which of X's brothers plays for ...?'."""
    return bool(re.match(r"\s*which (?:one )?of\b", lower)) and re.search(
        rf"\b{re.escape(plural)}\s+(?:is|was|has|[a-z]+[^s']s)\b", lower) is not None


_AUXILIARIES = re.compile(r"\b(?:is|are|was|were|do|does|did|have|has|had|can|could|will|would|shall|should|may|"
                          r"might|must)\b", re.I)
_OPENS_OBJECT = words("opens_object")


def _verb_after_what(word: str, question: str, first: bool) -> bool:
    """Whether a word in -s right after 'what' is the question's verb, not a plural noun.

    'What flows between Bingen and Bonn?', 'What carries the flow?': no other verb, and an object or a place follows
    it. 'What rooms seat 12?', 'What holidays are ...' and 'Which offices in Europe observe ...' ask for things.
    """
    if not first or not re.match(r"\s*what\b", question, re.I):
        return False
    match = re.search(rf"\b{re.escape(word)}\s+([\w'’-]+)(.*)", question, re.I)
    if not match or match.group(1).lower() not in _OPENS_OBJECT:
        return False
    return not _AUXILIARIES.search(match.group(2))


def unabbreviated(question: str) -> str:
    """'What's' read as 'What is' (and who's, where's, when's, which's, how's)."""
    return _CONTRACTED.sub(lambda m: f"{m.group(1)} is", question)


_DIALLED = re.compile(r"\b(?:what|which)\s+(?:phone\s+|telephone\s+|contact\s+)?number\s+(?:do|should|can|must)\s+"
                      r"\w+\s+(?:call|ring|dial|phone|text)\b|\bnumber\s+(?:to|for me to)\s+(?:call|ring|dial)\b|"
                      r"^\s*(?:what|which)(?:\s+is|'s|’s)?\s+(?:the\s+)?number\s+(?:for|at)\b")
"""'What number do I ring', 'what's the number for the IT help desk': a number one calls ('the number of' counts)."""
_DEADLINE = re.compile(r"\bhow (?:long|many (?:days|weeks|months|hours))\s+(?:do|does|have|has|will)\s+\w+\s+"
                       r"(?:have|got|get)\s+to\b|\bhow long have \w+ got\b|" + DUE_SPEED.pattern, re.I)
"""'How long do I have to submit a claim?', 'how fast do we have to acknowledge an alarm?': the time allowed."""


def expected_answer(question: str, query_class: str = "lookup") -> Expected:
    """The kind of answer `question` asks for."""
    question = respelled(interrogative(unabbreviated(question)))
    lower = question.strip().lower()
    phrase = head_phrase(question)
    head = phrase[-1] if phrase else ""
    options = choice_options(question) if query_class in ("comparison", "lookup", "multi_hop") else ()
    if options:
        return Expected("choice", head, options)
    if _YES_NO.match(lower):
        return Expected("yes_no")
    if _STEPS.match(lower):  # 'What are the steps to book a trip?': a procedure, however the question is classed
        return Expected("explanation")
    if (bound := _BOUND_OF.match(lower)) and query_class != "aggregation":
        # 'What's the maximum a claims handler can settle?': one bound, whatever plural modifies its holder
        return Expected("amount" if bound.group(1) else "number", bound.group(1) or bound.group(2))
    plural = plural_noun(phrase, question)
    if plural and _one_of(lower, plural):  # 'Which of X's older brothers plays ...?': one brother
        phrase = phrase[:phrase.index(plural) + 1]
        head, plural = plural, ""
    if query_class == "aggregation" or (re.match(r"^\s*(which|what)\b", lower) and plural):
        return Expected("list", plural or head)
    if query_class == "comparison" and re.search(r"\bcompare|\bversus\b|\bvs\b", lower):
        nouns = re.findall(r"[a-z][a-z'-]*", lower)
        return Expected(kind_of_phrase(nouns) or "other", head)
    if _EXPLANATION.match(lower):
        return Expected("explanation")
    if _DIALLED.search(lower):  # 'what number do I ring for ...': a phone number or extension, not a count
        return Expected("phone", "number")
    named = kind_of_phrase(phrase) if phrase else None
    if re.match(r"^\s*(who|whom|whose)\b", lower) or re.search(r"\b(?:to|by|from|for|with|of) whom?\b", lower) or \
            re.search(r"\bwhom?\s*\?\s*$", lower):  # asked in place: 'a sitcom written by who?'
        return Expected(named if lower.startswith("whose") and named else "person", head)
    if re.search(r"\bhow much\b", lower):
        return Expected(named if named in ("amount", "number") else "amount", head)
    if _DEADLINE.search(lower):  # 'How long do I have to submit a claim?' asks for the limit ('within 30 days')
        return Expected("number", "deadline")
    if re.search(r"\bhow (many|long|far|old|big|often|large|tall|high|soon|wide|deep|heavy|fast|quickly|late|early|"
                 r"frequently)\b", lower):
        return Expected("number", head)
    if re.search(r"\bwhat time\b|\bat what hour\b", lower):
        return Expected("time", "time")
    if re.match(r"^\s*when\b", lower) or re.search(r"\bby when\b|\buntil when\b|\bwhen\s*\?\s*$", lower):
        return Expected("date", head)
    if re.match(r"^\s*where\b", lower) or re.search(r"\bwhere\s*\?\s*$", lower):
        # where someone sits or works from is a desk or room ('Where does the facilities coordinator sit?')
        seated = re.search(r"\b(sit|sits|sitting|seated|desk)\b|^\s*where(?: is|'s)? (?:the )?office of\b|"
                           r"^\s*where(?: is|'s)? (?:\w+(?:'s|’s)|his|her|their) office\b", lower)
        return Expected("room" if named == "room" or seated else "place", head)
    if named == "time" and _SPAN_OF_TIME.search(lower):
        return Expected("number", head)
    if named:
        return Expected(named, head)
    if head:
        return Expected("name", head)
    if re.match(r"^\s*what (is|are|was|were)\b", lower) and len(content_terms(question)) <= 3:
        return Expected("explanation")
    if not ASKING.match(question) and (bare := _bare_kind(lower)):  # 'email address of the QA manager?'
        return Expected(bare[0], bare[1])
    return Expected("other", head)


def _bare_kind(lower: str) -> tuple[str, str] | None:
    """For a question that is only a noun phrase, the kind its first words name, with its noun.

    'email address of the QA manager in Gdansk?', 'hotel cap per night in London'.
    """
    words = re.findall(r"[a-z][a-z'-]*", lower)
    lead = list(itertools.takewhile(lambda w: w not in _PHRASE_END, words))[:4]
    kind = kind_of_phrase(lead) if lead else None
    return (kind, lead[-1]) if kind else None
