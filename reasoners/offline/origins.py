"""Whether named things are from one country, or from the one a question names.

'Are X and Y located in the same country?', 'Are X and Y located in the United States?'; asked also of the directors
of two films ('Do both directors of films X and Y share the same nationality?'). Each thing's own document says where
it is or whom it belongs to: a nationality word ('a Russian astrophysicist') or a country it names ('a school in
Sydney, New South Wales, Australia'); its earliest unit that says one speaks for it. Countries agree when they are one,
or one is within the other ('Scottish' agrees with 'British', not 'English'). When any thing's own document says no
country, the question is not answered here. A director is the person the film's own document says directed it, read
from that person's own document.
"""

from __future__ import annotations

import re

from boundloop.reasoners.offline.compare import own_document, stating
from boundloop.reasoners.offline.countries import agree, countries
from boundloop.reasoners.offline.reading import Reading

_SAME = re.compile(r"\bsame\s+(?:country|nationality|nation)\b", re.I)
_OPENING = re.compile(r"^\s*(?:are|were|is|was|do|does|did)\s+(?:both\s+)?(?:the\s+)?", re.I)
_CLOSING = re.compile(r"\s+(?:both\s+)?(?:films?\s+|movies?\s+)?(?:have|has|had|share|shares|shared|located|based|"
                      r"from|come|came|belong|(?:of|in)\s+the\s+same)\b.*$")
"""What follows the second thing; lower case, as titles capitalise their own 'From' and 'Of'."""
_FILM = re.compile(r"^(?:the\s+)?(?:(?:directors?\s+of\s+(?:the\s+)?)?(?:films?|movies?)\s+)", re.I)
_IN_COUNTRY = re.compile(r"\s+(?:both\s+)?(?:(?:located|based|situated|headquartered)\s+in|from)\s+(?:the\s+)?"
                         r"([A-Z][\w.'’ -]*?)\s*\??\s*$", re.I)
"""'Are X and Y located in the United States?': the country asked about, at the end."""
_COUNTRY_WORDS = 5
_DIRECTORS = re.compile(r"\bdirectors?\b", re.I)
_DIRECTED_BY = re.compile(r"\bdirected(?:,?\s+(?:and\s+)?(?:co-)?(?:produced|written|edited))*\s+by\s+"
                          r"((?:[A-Z][\w'’.-]*\s+){0,3}[A-Z][\w'’-]*)")


def _things(text: str) -> list[str]:
    """The things a yes/no question names before what it asks of them: 'Are X and Y located ...' gives X and Y."""
    parts = _OPENING.sub("", text.strip().rstrip("?"), count=1).rsplit(" and ", 1)
    parts[-1] = _CLOSING.sub("", parts[-1])
    return [thing for part in parts if (thing := _FILM.sub("", part).strip(" ,\"'"))]


def _director(film: str, readings: list[Reading]) -> tuple[str, Reading] | None:
    """Who the film's own document says directed it."""
    def named(reading: Reading) -> str | None:
        match = _DIRECTED_BY.search(reading.unit.plain)
        return match.group(1) if match else None
    return stating(film, readings, named)


def _origin(thing: str, readings: list[Reading], directed: bool) -> tuple[frozenset[str], list[Reading]] | None:
    """The countries the thing's own document says first, with the units saying it.

    `directed`: the thing is a film, and its director is asked about.
    """
    cited: list[Reading] = []
    if directed:
        found = _director(thing, readings)
        if found is None:
            return None
        thing = found[0]
        cited.append(found[1])
    origin = stating(thing, [r for r in readings if own_document(thing, r)], lambda r: countries(r.unit.plain))
    return (origin[0], [*cited, origin[1]]) if origin else None


def same_country(question: str, readings: list[Reading]) -> tuple[str, list[Reading]] | None:
    """'yes' or 'no' to whether the things the question names share a country, or are in the one it names.

    With the units saying each; None unless the question asks so and every thing's own document says a country.
    """
    asked = _IN_COUNTRY.search(question)
    wanted = countries(asked.group(1)) if asked and len(asked.group(1).split()) <= _COUNTRY_WORDS else None
    if _SAME.search(question):
        things = _things(question)
    elif wanted:
        things = _things(question[:asked.start()]) if asked else []
    else:
        return None
    said = [_origin(thing, readings, _DIRECTORS.search(question) is not None) for thing in things]
    if not things or len(things) < (1 if wanted else 2) or any(s is None for s in said):
        return None
    origins = [s[0] for s in said if s]
    cited = [r for s in said if s for r in s[1]]
    yes = all(agree(o, wanted) for o in origins) if wanted else agree(origins[0], origins[1])
    return ("yes" if yes else "no"), [r for i, r in enumerate(cited) if r not in cited[:i]]
