"""Whether two named things are from one country ('Are X and Y located in the same country?').

Asked also of the directors of two films ('Do both directors of films X and Y share the same nationality?'). Each
thing's own document says where it is or whom it belongs to: a nationality word ('a Russian astrophysicist') or a
country it names ('a school in Sydney, New South Wales, Australia'); its earliest unit that says one speaks for it.
Two things are from one country when those agree: yes; when both say one and they differ: no; when either says none,
the question is not answered here. A director is the person the film's own document says directed it, read from that
person's own document.
"""

from __future__ import annotations

import re

from reasoners.offline.compare import own_document, stating
from reasoners.offline.reading import Reading

_SAME = re.compile(r"\bsame\s+(?:country|nationality|nation)\b", re.I)
_OPENING = re.compile(r"^\s*(?:are|were|is|was|do|does|did)\s+(?:both\s+)?(?:the\s+)?", re.I)
_CLOSING = re.compile(r"\s+(?:both\s+)?(?:films?\s+|movies?\s+)?(?:have|has|had|share|shares|shared|located|based|"
                      r"from|come|came|belong|(?:of|in)\s+the\s+same)\b.*$")
"""What follows the second thing; lower case, as titles capitalise their own 'From' and 'Of'."""
_FILM = re.compile(r"^(?:the\s+)?(?:(?:directors?\s+of\s+(?:the\s+)?)?(?:films?|movies?)\s+)", re.I)
_DIRECTORS = re.compile(r"\bdirectors?\b", re.I)
_DIRECTED_BY = re.compile(r"\bdirected(?:,?\s+(?:and\s+)?(?:co-)?(?:produced|written|edited))*\s+by\s+"
                          r"((?:[A-Z][\w'’.-]*\s+){0,3}[A-Z][\w'’-]*)")
_COUNTRIES = {
    "united states": "american usa u.s. us",
    "united kingdom": "british english scottish welsh england scotland wales britain uk u.k.",
    "ireland": "irish", "france": "french", "germany": "german", "netherlands": "dutch holland",
    "belgium": "belgian", "spain": "spanish", "portugal": "portuguese", "italy": "italian", "greece": "greek",
    "switzerland": "swiss", "austria": "austrian", "sweden": "swedish", "norway": "norwegian", "denmark": "danish",
    "finland": "finnish", "iceland": "icelandic", "poland": "polish", "czech republic": "czech czechoslovak",
    "slovakia": "slovak", "hungary": "hungarian", "romania": "romanian", "bulgaria": "bulgarian",
    "serbia": "serbian", "croatia": "croatian", "slovenia": "slovenian", "bosnia": "bosnian", "albania": "albanian",
    "russia": "russian soviet", "ukraine": "ukrainian", "belarus": "belarusian", "lithuania": "lithuanian",
    "latvia": "latvian", "estonia": "estonian", "armenia": "armenian", "turkey": "turkish", "israel": "israeli",
    "egypt": "egyptian", "morocco": "moroccan", "algeria": "algerian", "tunisia": "tunisian", "nigeria": "nigerian",
    "kenya": "kenyan", "ethiopia": "ethiopian", "ghana": "ghanaian", "south africa": "", "iran": "iranian persian",
    "iraq": "iraqi", "syria": "syrian", "lebanon": "lebanese", "saudi arabia": "saudi", "pakistan": "pakistani",
    "india": "indian", "bangladesh": "bangladeshi", "nepal": "nepalese nepali", "china": "chinese",
    "japan": "japanese", "south korea": "korean", "vietnam": "vietnamese", "thailand": "thai",
    "philippines": "filipino", "indonesia": "indonesian", "malaysia": "malaysian", "singapore": "singaporean",
    "australia": "australian", "new zealand": "", "canada": "canadian", "mexico": "mexican", "cuba": "cuban",
    "brazil": "brazilian", "argentina": "argentine argentinian", "chile": "chilean", "colombia": "colombian",
    "peru": "peruvian", "venezuela": "venezuelan", "jamaica": "jamaican", "mauritius": "mauritian",
    "taiwan": "taiwanese", "mongolia": "mongolian",
}
_NAMES = {word: country for country, words in _COUNTRIES.items() for word in [country, *words.split()]}
_COUNTRY = re.compile(r"(?<![\w.])(?<!New )(?<!New South )(" +
                      "|".join(re.escape(n) for n in sorted(_NAMES, key=len, reverse=True)) + r")(?![\w])", re.I)
"""A country or nationality word; 'Wales' of 'New South Wales' and 'England' of 'New England' are states."""
_LOWER_ALIASES = frozenset({"us"})
"""Aliases that are also common words in lower case ('let us'): only their capitals count."""


def countries(text: str) -> frozenset[str] | None:
    """The countries a text names or says someone or something is from, None when it says none."""
    found = frozenset(_NAMES[m.group().lower()] for m in _COUNTRY.finditer(text)
                      if m.group().lower() not in _LOWER_ALIASES or m.group().isupper())
    return found or None


def _sides(question: str) -> tuple[str, str] | None:
    """The two things the question compares: 'Are X and Y located ...' gives X and Y."""
    body = _OPENING.sub("", question.strip().rstrip("?"), count=1)
    if " and " not in body:
        return None
    first, second = body.rsplit(" and ", 1)
    first, second = (_FILM.sub("", part).strip(" ,\"'") for part in (first, _CLOSING.sub("", second)))
    return (first, second) if first and second else None


def _director(film: str, readings: list[Reading]) -> tuple[str, Reading] | None:
    """Who the film's own document says directed it."""
    def named(reading: Reading) -> str | None:
        match = _DIRECTED_BY.search(reading.unit.plain)
        return match.group(1) if match else None
    return stating(film, readings, named)


def same_country(question: str, readings: list[Reading]) -> tuple[str, list[Reading]] | None:
    """'yes' or 'no' to whether the two things the question names share a country, with the units saying each."""
    if not _SAME.search(question) or (sides := _sides(question)) is None:
        return None
    cited: list[Reading] = []
    said: list[frozenset[str]] = []
    for side in sides:
        if _DIRECTORS.search(question):
            found = _director(side, readings)
            if found is None:
                return None
            side = found[0]
            cited.append(found[1])
        own = [r for r in readings if own_document(side, r)]
        origin = stating(side, own, lambda r: countries(r.unit.plain))
        if origin is None:
            return None
        said.append(origin[0])
        cited.append(origin[1])
    return ("yes" if said[0] & said[1] else "no"), [r for i, r in enumerate(cited) if r not in cited[:i]]
