"""Typed spans of a sentence: the values a short answer can be (amounts, dates, names, codes, contacts...).

Each finder returns (start, end) offsets into the text, so a reader can measure how close a span stands to the words
the question matched, and whether the question itself already says it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from boundloop.domain.contacts import EMAIL, PHONE
from boundloop.reasoners.offline.vocabulary import words

_CURRENCY = r"(?:EUR|CAD|USD|GBP|CHF|AUD|JPY|PLN|SEK|NOK|DKK|CZK|HUF|INR|NZD|SGD|HKD|ZAR|€|\$|£|¥|₹|US\$|C\$)"
_CODES = r"(?:EUR|CAD|USD|GBP|CHF|AUD|JPY|PLN|SEK|NOK|DKK|CZK|HUF|INR|NZD|SGD|HKD|ZAR)"
_SCALE = r"(?:\s?(?:million|billion|thousand|bn|m|k)\b)?"
_UNITS = (
    r"(?:%|percent|per ?cent|working days?|business days?|calendar days?|days?|weeks?|months?|years?|hours?|hrs?|"
    r"minutes?|mins?|seconds?|GB|TB|MB|kB|Mbit/s|Gbit/s|Mbps|Gbps|km/h|kph|mph|m/s|knots?|kts?|km|kilometres?|kilometers?|miles?|"
    r"metres?|meters?|"
    r"m²|sq ?m|square (?:metres?|meters?|feet)|kg|kilograms?|tonnes?|tons?|lbs?|pounds|people|persons|seats?|"
    r"employees|staff|members|rooms?|floors?|nights?|times|points|inches|feet|ft|cm|mm|°C|°F|degrees?|"
    r"euros?|dollars?|inhabitants|residents|copies|episodes|seasons|games|goals|votes|species|"
    # concentrations, volumes, pressures and power, as plant runbooks and lab manuals give them
    r"[mµu]?g/[lL]|mmol/[lL]|ppm|ppb|m[lL]|litres?|liters?|bar|psi|kPa|kWh|MWh|kW|MW|dB|lux)"
)
_NUMBER = r"\d[\d,]*(?:\.\d+)?"
_MONTH = (r"(?:January|February|March|April|May|June|July|August|September|October|November|December|"
          r"Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\.?")

PATTERNS: dict[str, re.Pattern[str]] = {
    "amount": re.compile(
        rf"{_CURRENCY}\s?{_NUMBER}{_SCALE}(?:\s?(?:–|-|to)\s?{_CURRENCY}?\s?{_NUMBER}{_SCALE})?"
        rf"(?:\s(?:per|a|each)\s(?:day|night|week|month|year|person|employee|hour|trip))?"
        rf"|{_NUMBER}{_SCALE}\s?(?:{_CODES}|zł|kr|euros?|dollars?|pounds sterling|francs?|zloty|złoty)(?!\w)"
        # pence and cents: '45p per mile', '30 cents a kilometre'
        r"|(?<![\w.,])\d{1,2}(?:\.\d+)?\s?(?:p|pence|cents?)(?![\w'’-])"
        r"(?:\s(?:per|a|each)\s(?:mile|km|kilometre|kilometer|minute|hour|page|unit))?"
    ),
    "number": re.compile(
        rf"(?:\b(?:up to|at least|at most|about|around|over|under|above|below|more than|less than|nearly|almost)\s)?"
        rf"{_NUMBER}(?:\s?(?:–|-|to)\s?{_NUMBER})?{_SCALE}\s?{_UNITS}(?:\b|(?<=%))"
        rf"(?:\s(?:per|a|each)\s(?:day|week|month|year|person|device|employee|night))?"
        r"|\b(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|fifteen|twenty|thirty|forty|fifty|"
        r"hundred)\s(?:working\s)?(?:days?|weeks?|months?|years?|hours?|people|times)\b"
        rf"|{_NUMBER}\s?(?:million|billion|trillion|thousand|hundred)\b"
        # a bare number; one written with a leading zero ('01632 552222', '0044') dials or codes, it counts nothing
        rf"|(?<![\w.+/:-])(?!0\d){_NUMBER}(?![\w/:-]|\.\d)"
    ),
    "date": re.compile(
        rf"\b(?:(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day,?\s)?\d{{1,2}}(?:st|nd|rd|th)?\s{_MONTH}(?:,?\s\d{{4}})?"
        rf"|\b{_MONTH}\s\d{{4}}\b|\b{_MONTH}\s\d{{1,2}}(?:st|nd|rd|th)?\b(?:,?\s\d{{4}})?|\b\d{{4}}-\d{{2}}-\d{{2}}\b|\b(?:Q[1-4]|H[12])\s\d{{4}}"
        r"|\b(?:1[0-9]|20)\d\d(?:s|\s?(?:–|-)\s?(?:1[0-9]|20)?\d\d)?\b"
        r"|\b(?:early|mid|late)[- ](?:1[0-9]|20)\d\d\b|\b\d{1,2}(?:st|nd|rd|th) century\b"
        # a recurring or relative day: 'by the last working day of each month', 'every Friday'
        r"|\b(?:(?:by|before|on|until|no later than)\s+)?the\s+"
        r"(?:last|first|second|third|fourth|final|\d{1,2}(?:st|nd|rd|th))"
        r"\s+(?:working\s+|business\s+|calendar\s+)?(?:day|week|Monday|Tuesday|Wednesday|Thursday|Friday)"
        r"(?:\s+of\s+(?:each|every|the)\s+(?:month|quarter|year|week))?"
        r"|\bevery\s+(?:other\s+)?(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday|month|quarter)\b"
        # a day of every month: 'on the 25th of each month', 'the 1st of the month'
        r"|\bthe\s+\d{1,2}(?:st|nd|rd|th)\s+(?:day\s+)?of\s+(?:each|every|the)\s+month\b"
    ),
    "time": re.compile(
        r"\b(?:[01]?\d|2[0-3])[:h][0-5]\d(?:\s?(?:[ap]\.?m\.?))?(?:\s?(?:–|-|to)\s?(?:[01]?\d|2[0-3])[:h][0-5]\d)?"
        # a zone or a city after it: '09:00 UTC', '16:00 Lisbon / 11:00 Toronto', '10:00 Oslo time'
        r"(?:\s(?:local|UTC|GMT|CET|CEST|EST|EDT|ET|PT|PST|PDT|BST)\b(?:\stime)?"
        r"|\s(?!(?:Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day)[A-Z][a-z]+(?=\s*(?:/|$|[.;,)])|\stime\b)(?:\stime)?)?"
        # '9am', '8.30 am', '9am - 1pm', '12 noon'
        r"|\b(?:1[0-2]|0?[1-9])(?:[:.][0-5]\d)?\s?[ap]\.?m\b\.?"
        r"(?:\s?(?:–|-|to|until)\s?(?:(?:1[0-2]|0?[1-9])(?:[:.][0-5]\d)?\s?[ap]\.?m\b\.?|noon|midnight))?"
        r"|\b(?:12\s)?(?:noon|midnight)\b(?:\s?(?:–|-|to|until)\s?(?:1[0-2]|0?[1-9])(?:[:.][0-5]\d)?\s?[ap]\.?m\b\.?)?",
        re.IGNORECASE,
    ),
    "phone": PHONE,
    "email": EMAIL,
    "url": re.compile(r"\bhttps?://[^\s)\]>;,]+|\b(?:[a-z0-9-]+\.)+(?:example|com|org|net|io|dev|app|co|pt|ca|uk|de|"
                      r"fr|eu|gov|edu|internal|local|corp)(?:/[^\s)\]>;,]*)?\b", re.IGNORECASE),
    "room": re.compile(r"\b(?:room|desk|office|suite|floor|seat|level)\s+[A-Z]?\d+(?:[.-]\d+)*[A-Z]?\b"
                       r"|(?<![\w.+-])\d{1,2}[.-]\d{2,3}[A-Z]?(?![\w.-]|\.\d)"
                       r"|(?<![\w.+-])(?-i:[A-Z]{1,2}-?[A-Z]?\d{1,2}[.-]\d{2,3}[A-Z]?)(?![\w.-]|\.\d)", re.IGNORECASE),
    "address": re.compile(  # a street line: '120 Bothwell Street, Glasgow G2 7JP', 'ul. Nabrzeże Bułgarskie 3'
        r"\b\d{1,4}[A-Za-z]?,?\s+(?:[A-ZÀ-Þ][\w'’.-]+\s+){0,3}(?:Street|Road|Rd|Lane|Way|Avenue|Ave|Drive|"
        r"Place|Square|Court|Grove|Park|Boulevard|Quay|Wharf|Row|Terrace|Crescent|Close|Gardens|Hill|Parade)\b"
        r"|\b(?:ul\.|Rua|Av\.|Avenida|Via|Viale|Calle|Rue|Boulevard)\s+[^,;\n]{2,40}?\s\d{1,4}[A-Za-z]?\b"
        r"|\b[A-ZÀ-Þ][a-zà-ÿ]+(?:strasse|straße|weg|gracht|laan|plein|kade|gasse|vej|gata|gatan|veien)\s\d{1,4}[A-Za-z]?\b"
    ),
    "postcode": re.compile(
        r"\b[A-Z]{1,2}\d[A-Z\d]?\s\d[A-Z]{2}\b"  # British: 'MG9 6LE', 'SW1A 1AA'
        r"|\b[A-Z]\d{2}\s?[A-Z\d]{4}\b"  # Irish Eircode: 'D02 X285'
        r"|(?<![\w-])\d{4}\s?[A-Z]{2}\b(?!-)"  # Dutch: '3011 AB'
        r"|(?<![\w-])\d{2,4}-\d{3}(?![\w-])"  # Polish, Portuguese: '81-341', '4470-558'
        r"|(?<![\w-])[A-Z]{1,2}-\d{4,5}\b"  # with a country letter: 'CH-4058'
        r"|(?<=[A-Z]{2}\s)\d{5}(?:-\d{4})?\b"  # a US ZIP after its state: 'MA 02139'
        r"|(?<=Singapore\s)\d{6}\b"
        r"|(?<=,\s)\d{4,5}(?=\s+[A-Z][a-zà-ÿ]+(?:\s|,|$))",  # after a street, before its town: ', 4058 Basel'
    ),
    "code": re.compile(
        r"`[^`]{1,60}`|(?<![\w/])[#/@][A-Za-z][\w-]{1,40}"
        r"|\b(?=[A-Z0-9-]*\d)(?=[A-Z0-9-]*[A-Z])[A-Z0-9]{1,10}(?:-[A-Z0-9]{1,10}){1,4}\b"
        r"|\b[A-Z]{1,4}\d{1,6}[A-Z]?\b|(?<![\w-])[A-Z][a-z]+-[A-Z][\w-]+\b"
    ),
    "locative": re.compile(
        r"\b(?:in|at|on|inside|near|next to|behind|beside|outside|under|opposite|by)\s+(?:the\s+|a\s+)?"
        r"[\w'’-]+(?:\s+(?!(?:and|or|but|if|when|for|to|from|with|which|that|of|in|at|on|by|is|are)\b)[\w'’-]+){0,3}"
    ),
    "emphasis": re.compile(r"\*\*([^*]{2,80})\*\*|\*([^*\s][^*]{0,78}[^*\s]|[^*\s])\*|_([^_]{2,80})_"
                           r"|[\"“]([^\"”]{2,80})[\"”]"),
}

# a name may hold a quoted nickname between its words: 'Henry Albert "Hank" Azaria' is one name
_NAME = re.compile(
    r"(?:[A-Z][\w'’.-]*|[A-Z]\.)(?:\s+(?:(?:of|the|and|de|da|do|dos|du|van|von|der|del|la|le|y|for|&)\s+)*"
    r"(?:[A-Z][\w'’.-]*|[A-Z]\.|\d+|[\"“][A-Z][\w'’.-]*(?:\s[A-Z][\w'’.-]*)?[\"”](?=\s+[A-Z])))*"
)
_LEADING_WORDS = words("span_leading_words")
_ROLES = words("roles")
"""Job titles written before a person's name ('General Manager Gregg Hale'), which are not part of it; ranks and
titles of nobility are ('Commander James Bond', 'King George IV')."""
_QUALIFIERS = words("role_qualifiers")
"""Words that qualify a job title ('General Manager'), and alone are none ('Head Office')."""
_NOT_NAMES = words("not_names")


def finditer(kind: str, text: str) -> Iterator[tuple[int, int]]:
    """Offsets of every span of `kind` in `text` ('name': capitalised names, 'emphasis': marked-up phrases)."""
    if kind == "name":
        yield from _names(text)
        return
    pattern = PATTERNS[kind]
    for match in pattern.finditer(text):
        if kind == "url" and text[max(0, match.start() - 1):match.start()] in {"@", ".", "/"}:
            continue
        if kind == "emphasis":
            group = next(i for i in range(1, (match.lastindex or 0) + 1) if match.group(i))
            yield match.start(group), match.end(group)
        else:
            start, end = match.span()
            while end > start and text[end - 1] in ".,;:":
                end -= 1
            yield start, end


def _names(text: str) -> Iterator[tuple[int, int]]:
    """Capitalised runs without leading function words, skipping lone capitalised words that open a sentence."""
    for match in _NAME.finditer(text):
        start, end = match.span()
        words = text[start:end].split()
        while words and words[0].lower() in _LEADING_WORDS and not _acronym(words[0]):
            start = text.index(words[1], start + len(words[0])) if len(words) > 1 else end
            words.pop(0)
        for _ in range(_titled(words)):  # 'Striker Samuel Eto'o' is Samuel Eto'o
            start = text.index(words[1], start + len(words[0]))
            words.pop(0)
        while words and words[-1].lower() in _LEADING_WORDS | {"'s"} and not _acronym(words[-1]):
            words.pop()
        if not words:
            continue
        end = start + len(" ".join(words)) if " ".join(words) == text[start:start + len(" ".join(words))] else end
        span = text[start:end].rstrip(".,;:'’")
        end = start + len(span)
        before = text[:start].rstrip()[-1:]
        opens = start == 0 or before in {".", "!", "?", ":", "|", "-", "*", "#", ";", "—", "–", "(", "\n"}
        if not span or span.lower() in _NOT_NAMES or span.isdigit():
            continue
        if len(words) == 1 and opens and not _looks_like_a_name(span):
            continue
        yield start, end


def _titled(words: list[str]) -> int:
    """How many of a name's first words are a job title before a person's name of two or more words, else 0."""
    titled = 0
    for k, word in enumerate(words[:-2]):
        if word.lower() not in _ROLES | _QUALIFIERS:
            break
        if word.lower() in _ROLES and words[k + 1][:1].isupper():
            titled = k + 1
    while 0 < titled < len(words) - 2 and words[titled].lower() in _QUALIFIERS:  # 'Director General Anna Berg'
        titled += 1
    return titled


def _acronym(word: str) -> bool:
    """'IT' or 'AS' in capitals is a name's word, not the pronoun or preposition."""
    return len(word) > 1 and word.isupper()


def _looks_like_a_name(word: str) -> bool:
    """A lone capitalised word that is still a name: has inner capitals or digits, or is not a common word shape."""
    return any(c.isupper() for c in word[1:]) or any(c.isdigit() for c in word)


def spans(kind: str, text: str) -> list[str]:
    """The texts of every span of `kind`, in order."""
    return [text[s:e] for s, e in finditer(kind, text)]


_YEAR = re.compile(r"(?<![\d–-])(?:1[0-9]|20)\d\d(?![\d–s-])")


def year_in(span: str) -> str:
    """The one year a fuller date gives ('1827' of 'March 1827'); '' for a bare year, a decade or a range."""
    years = _YEAR.findall(span)
    return years[0] if len(years) == 1 and not _YEAR.fullmatch(span) else ""


def has_year(span: str) -> bool:
    """Whether a date gives its year ('20 July 1981', not '31 July')."""
    return _YEAR.search(span) is not None
