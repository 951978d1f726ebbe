"""Countries a text names or says someone or something is from ('an Italian actor', 'born in Rome, Italy').

Nationality words and country names map to one name per country, so 'Italian' and 'Italy' agree; England, Scotland,
Wales and Northern Ireland are each their own, within the United Kingdom.
"""

from __future__ import annotations

import re

_COUNTRIES = {
    "united states": "american",
    "united kingdom": "british", "england": "english", "scotland": "scottish", "wales": "welsh",
    "northern ireland": "",
    "ireland": "irish", "france": "french", "germany": "german", "netherlands": "dutch",
    "belgium": "belgian", "spain": "spanish", "portugal": "portuguese", "italy": "italian", "greece": "greek",
    "switzerland": "swiss", "austria": "austrian", "sweden": "swedish", "norway": "norwegian", "denmark": "danish",
    "finland": "finnish", "iceland": "icelandic", "poland": "polish", "czech republic": "czech",
    "slovakia": "slovak", "hungary": "hungarian", "romania": "romanian", "bulgaria": "bulgarian",
    "serbia": "serbian", "croatia": "croatian", "slovenia": "slovenian", "bosnia": "bosnian", "albania": "albanian",
    "russia": "russian soviet", "ukraine": "ukrainian", "belarus": "belarusian", "lithuania": "lithuanian",
    "latvia": "latvian", "estonia": "estonian", "armenia": "armenian", "turkey": "turkish", "israel": "israeli",
    "egypt": "egyptian", "morocco": "moroccan", "algeria": "algerian", "tunisia": "tunisian", "nigeria": "nigerian",
    "kenya": "kenyan", "ethiopia": "ethiopian", "ghana": "ghanaian", "south africa": "", "iran": "iranian persian",
    "iraq": "iraqi", "syria": "syrian", "lebanon": "lebanese", "saudi arabia": "saudi", "pakistan": "pakistani",
    "india": "indian", "bangladesh": "bangladeshi", "nepal": "nepalese", "china": "chinese",
    "japan": "japanese", "south korea": "korean", "vietnam": "vietnamese", "thailand": "thai",
    "philippines": "filipino", "indonesia": "indonesian", "malaysia": "malaysian", "singapore": "singaporean",
    "australia": "australian", "new zealand": "", "canada": "canadian", "mexico": "mexican", "cuba": "cuban",
    "brazil": "brazilian", "argentina": "argentine argentinian", "chile": "chilean", "colombia": "colombian",
    "peru": "peruvian", "venezuela": "venezuelan", "jamaica": "jamaican", "mauritius": "mauritian",
    "taiwan": "taiwanese", "mongolia": "mongolian",
}
"""Each country and the words for its people ('Italian'), one name per country."""
_OTHER_NAMES = {"united states": "usa u.s. us", "united kingdom": "britain uk u.k.", "netherlands": "holland",
                "czech republic": "czechoslovak", "nepal": "nepali"}
"""Other words that name a country here, and are not counted among the words for its people elsewhere."""
NATIONALITIES = frozenset(word for words in _COUNTRIES.values() for word in words.split())
"""The words for the people of a country ('Italian', 'British'): `name_roles.DEMONYMS` adds regions' ('European')."""
_NAMES = {word: country for country, words in _COUNTRIES.items()
          for word in [country, *words.split(), *_OTHER_NAMES.get(country, "").split()]}
_COUNTRY = re.compile(r"(?<![\w.])(?<!New )(?<!New South )(" +
                      "|".join(re.escape(n) for n in sorted(_NAMES, key=len, reverse=True)) + r")(?![\w])", re.I)
"""A country or nationality word; 'Wales' of 'New South Wales' and 'England' of 'New England' are states."""
_LOWER_ALIASES = frozenset({"us"})
"""Aliases that are also common words in lower case ('let us'): only their capitals count."""
_PARTS = {"england": "united kingdom", "scotland": "united kingdom", "wales": "united kingdom",
          "northern ireland": "united kingdom"}
"""Countries within a country: a Scot is British, but not English."""


def agree(one: frozenset[str], other: frozenset[str]) -> bool:
    """Whether two texts' countries agree: one they share, or one within the other ('English' and 'British')."""
    return any(a == b or _PARTS.get(a) == b or _PARTS.get(b) == a for a in one for b in other)


def countries(text: str) -> frozenset[str] | None:
    """The countries a text names or says someone or something is from, None when it says none."""
    found = frozenset(_NAMES[m.group().lower()] for m in _COUNTRY.finditer(text)
                      if m.group().lower() not in _LOWER_ALIASES or m.group().isupper())
    return found or None
