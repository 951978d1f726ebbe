"""Offline follow-up resolution: a question that leans on earlier turns, made to stand alone without a model.

Two kinds of follow-up are resolved, from the earlier questions (as resolved) and what their answers showed:

- ellipsis ("And in Toronto?", "What about daily parking?", "Toronto?"): the last question again with the part the
  follow-up names swapped in: a name for the name of the same shape ("Lisbon" -> "Toronto"), else a phrase for the
  phrase ending in the same word ("monthly parking" -> "daily parking"), else a prepositional phrase for the one
  with the same preposition, else the last question's topic;
- pronouns ("Where does she sit?", "What is its web address?", "Who do I call there?"): a person pronoun takes the
  person most recently named, a thing pronoun the last short answer when it names something (else the last
  question's topic), "there" the last place named after in or at.

Anything else stands alone (a new topic) and is kept as asked. A pronoun the question itself explains ("reset my
password if I forget it") or that refers to nothing ("is it possible to") is left alone.
"""

from __future__ import annotations

import re

from boundloop.domain.conversation import Resolution, Turn
from boundloop.domain.text import stem
from boundloop.reasoners.offline import referents, vocabulary
from boundloop.reasoners.offline.referents import (
    AUX,
    DETERMINERS,
    PREPOSITIONS,
    RELATIVE,
    WH,
    Word,
    is_content,
    names,
    shape,
    words,
)

_CUE = re.compile(r"^\W*(?:(?:and|but|so|also|ok|okay)[\s,]+)?(?:what|how)\s+about\b|^\W*what\s+of\b"
                  r"|^\W*(?:and\s+)?(?:the\s+)?same\s+(?=for|in|at|on)|^\W*(?:and|also)\b", re.IGNORECASE)
_TAIL = re.compile(r"(?:[\s,]+(?:too|as well|then|instead))?[\s?!.]*$", re.IGNORECASE)
_PERSON = vocabulary.words("person_pronouns")
_THING = vocabulary.words("thing_pronouns")
_POSSESSIVE = vocabulary.words("possessive_pronouns")
_EXPLETIVE_NEXT = vocabulary.words("expletive_next")
_CLAUSE = vocabulary.words("clause_openers")


def resolve(question: str, turns: list[Turn]) -> Resolution:
    """The question made to stand alone from `turns` (oldest first), or as asked when it needs none of them."""
    if not turns:
        return Resolution(standalone_question=question, how="no earlier turns")
    cue = _CUE.match(question)
    rest = question[cue.end():] if cue else question
    if cue and words(rest) and words(rest)[0].lower in WH | AUX:  # "And what is her extension?": a full question
        return _pronouns(_sentence(rest), turns)
    if cue or _fragment(question):
        inner = _pronouns(_TAIL.sub("", rest).strip(" ,"), turns)
        return _ellipsis(inner.standalone_question, turns, inner.leaned_on)
    return _pronouns(question, turns)


def _fragment(question: str) -> bool:
    """A bare phrase asked as a question: "Toronto?", "For contractors?", "Daily parking?"."""
    ws = words(question)
    return bool(ws) and question.rstrip().endswith("?") and len(ws) <= 3 and ws[0].lower not in WH | AUX


def _sentence(text: str) -> str:
    text = text.strip(" ,")
    return text[:1].upper() + text[1:]


def _ellipsis(rest: str, turns: list[Turn], also: list[int]) -> Resolution:
    """The last question with `rest` (what the follow-up names) in the place of what it stands for."""
    n = len(turns) - 1
    base = turns[n].standalone_question.strip()
    swapped = _swap_name(base, rest) or _swap_phrase(base, rest) or _swap_preposition(base, rest) \
        or _swap_topic(base, rest)
    if swapped is None:
        swapped = base.rstrip(" ?.!") + " " + rest + "?", f"added {rest!r}"
    text, what = swapped
    return Resolution(standalone_question=_sentence(text), follow_up=True, leaned_on=sorted({n, *also}),
                      how=f"ellipsis of turn {n + 1}: {what}")


def _replace(base: str, start: int, end: int, new: str) -> str:
    return base[:start] + new + base[end:]


def _swap_name(base: str, rest: str) -> tuple[str, str] | None:
    """A name in the follow-up for the last question's name of the same shape, preferring the same preposition."""
    phrase = _phrase(rest)
    new = names(rest)
    if not new and phrase and all(w.text[:1].isupper() or w.text[:1].isdigit() for w in phrase):
        new = [rest[phrase[0].start:phrase[-1].end]]  # "Toronto", "North America": only names, first word too
    if not new:
        return None
    name = new[0]
    candidates = [old for old in names(base) if shape(old) == shape(name) and old != name]
    if not candidates and shape(name)[0] == 1:  # "Q4" for the "Q3" of "Q3 2026"
        candidates = [w.text for old in names(base) for w in words(old) if shape(w.text) == shape(name)
                      and w.text != name and w.text[:1].isupper() == name[:1].isupper()]
    if not candidates:
        return None
    before = (words(rest)[0].lower if words(rest) else "") if not rest.startswith(name) else ""
    same_preposition = [old for old in candidates if re.search(rf"\b{re.escape(before)}\s+(?:the\s+)?"
                                                               rf"{re.escape(old)}\b", base)] if before else []
    old = (same_preposition or candidates)[0]
    at = base.index(old)
    return _replace(base, at, at + len(old), name), f"{old!r} -> {name!r}"


def _phrase(rest: str) -> list[Word]:
    ws = words(rest)
    while ws and (ws[0].lower in PREPOSITIONS or ws[0].lower in DETERMINERS):
        ws = ws[1:]
    return ws


def _swap_phrase(base: str, rest: str) -> tuple[str, str] | None:
    """The phrase ending in the follow-up's last word ("monthly parking" for "daily parking")."""
    phrase = _phrase(rest)
    if not phrase or not is_content(phrase[-1]):
        return None
    head = stem(phrase[-1].lower)
    ws = words(base)
    hits = [j for j, w in enumerate(ws) if is_content(w) and stem(w.lower) == head]
    if not hits:
        return None
    j = hits[-1]
    i = j
    while i > 0 and is_content(ws[i - 1]) and ws[i - 1].lower not in WH and not ws[i - 1].text[:1].isupper():
        i -= 1
    new = rest[phrase[0].start:phrase[-1].end]
    return _replace(base, ws[i].start, ws[j].end, new), f"{base[ws[i].start:ws[j].end]!r} -> {new!r}"


def _swap_preposition(base: str, rest: str) -> tuple[str, str] | None:
    """A prepositional phrase for the last question's phrase with the same preposition ("for an employee")."""
    ws = words(rest)
    if not ws or ws[0].lower not in PREPOSITIONS:
        return None
    bs = words(base)
    for i, word in enumerate(bs):
        if word.lower != ws[0].lower:
            continue
        j = i + 1
        while j < len(bs) and bs[j].lower not in PREPOSITIONS | AUX | RELATIVE:
            j += 1
        if j > i + 1:
            old, new = base[word.start:bs[j - 1].end], rest[ws[0].start:]
            return _replace(base, word.start, bs[j - 1].end, new), f"{old!r} -> {new!r}"
    return None


def _swap_topic(base: str, rest: str) -> tuple[str, str] | None:
    """The follow-up's phrase for the last question's topic ("the one-time setup budget" for "the stipend")."""
    span = referents.topic_span(base)
    ws = words(rest)
    if span is None or not ws or ws[0].lower in PREPOSITIONS:  # "in Q4" is no topic: added to the question instead
        return None
    start, end = span
    return _replace(base, start, end, rest.strip()), f"{base[start:end]!r} -> {rest.strip()!r}"


def _pronouns(question: str, turns: list[Turn]) -> Resolution:
    """Each pronoun that points outside the question, replaced by what it points to."""
    ws = words(question)
    out, last, used, leaned = [], 0, [], set()
    for k, word in enumerate(ws):
        referent = _referent(ws, k, turns)
        if referent is None:
            continue
        text, n = referent
        possessive = word.lower in _POSSESSIVE or (word.lower == "her" and _before_a_noun(ws, k))
        new = (text + "'s") if possessive else text
        out.append(question[last:word.start] + (new if k else new[:1].upper() + new[1:]))
        last = word.end
        used.append(f"{word.text!r} -> {text!r} (turn {n + 1})")
        leaned.add(n)
    if not used:
        return Resolution(standalone_question=question, how="stands alone")
    resolved = "".join(out) + question[last:]
    return Resolution(standalone_question=resolved, follow_up=True, leaned_on=sorted(leaned),
                      how="pronoun " + ", ".join(used))


def _referent(ws: list[Word], k: int, turns: list[Turn]) -> tuple[str, int] | None:
    word = ws[k].lower
    if word in _PERSON:
        return referents.person(turns)
    if word == "there":
        after = ws[k + 1].lower if k + 1 < len(ws) else ""
        existential = (k and ws[k - 1].lower in AUX) or after in ("is", "are", "was", "were", "be", "'s")
        return None if existential else referents.place(turns)
    if word in _THING and not _internal(ws, k) and not _expletive(ws, k) and not _determiner(ws, k):
        return referents.thing(turns)
    return None


def _before_a_noun(ws: list[Word], k: int) -> bool:
    return k + 1 < len(ws) and is_content(ws[k + 1])


def _determiner(ws: list[Word], k: int) -> bool:
    """"that policy", "the form that I need": a "that" or "this" followed by more of its own phrase or clause.

    At the end of the question ("Who approves that?"), after an auxiliary ("Is that taxable?") or before a
    preposition ("Who signs off on that for me?") it stands for something said before.
    """
    if ws[k].lower not in ("that", "this"):
        return False
    last = k + 1 == len(ws)
    return not (last or (k > 0 and ws[k - 1].lower in AUX) or (not last and ws[k + 1].lower in PREPOSITIONS))


def _expletive(ws: list[Word], k: int) -> bool:
    """"Is it possible to", "it takes ... to": an "it" that refers to nothing."""
    if ws[k].lower != "it":
        return False
    nxt = [w.lower for w in ws[k + 1:k + 3]]
    takes = nxt[:1] in (["take"], ["takes"], ["took"]) and "to" in (w.lower for w in ws[k + 1:])
    return takes or any(w in _EXPLETIVE_NEXT for w in nxt)


def _internal(ws: list[Word], k: int) -> bool:
    """A thing the question itself names before a clause break: "my password ... if I forget it"."""
    for j in range(k - 1, -1, -1):
        if ws[j].lower in _CLAUSE:
            return any(ws[i].lower in DETERMINERS and is_content(ws[i + 1]) for i in range(j - 1))
    return False
