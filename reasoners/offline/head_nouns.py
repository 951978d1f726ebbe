"""Head nouns: the nouns a question names what it asks by, and the kind of value each asks for.

'extension' asks for a phone number, 'postcode' for a postcode, 'salary' for an amount; a misspelt one ('extention')
is still read.
"""

from __future__ import annotations

import difflib
import re

# head noun -> kind; checked in order, first match wins
_HEADS: list[tuple[str, str]] = [
    (r"extensions?|phone|telephone|mobile|cell|bleeps?|pagers?|numbers? (?:to|do i|should i|i) call", "phone"),
    (r"e-?mail|mailbox|inbox", "email"),
    (r"url|web ?(?:site|address|page)|website|link|homepage|domain", "url"),
    (r"rooms?|desks?|floors?|offices? number|seat number", "room"),
    (r"post ?codes?|postal ?codes?|zip(?: ?codes?)?|eircodes?|postcode", "postcode"),
    (r"address(?:es)?", "address"),
    (r"channels?|command|identifier|id|code|reference|ref|ticket|version|sku|hashtag|ssid|password|key|tag|prefix",
     "code"),
    (r"times?|hours?|o'clock", "time"),
    (r"years?|dates?|days?|months?|decade|century|deadline|weekday", "date"),
    (r"costs?|prices?|fees?|salary|salaries|allowances?|budgets?|amounts?|revenue|deductibles?|stipends?|bonus(?:es)?|"
     r"limits?|caps?|ceilings?|thresholds?|spend|spending|reimbursement|payment|compensation|pay|rates?|wages?|"
     r"fines?|turnover|per diems?|"
     r"profit|income|sales|valuation|value|funding|grant", "amount"),
    (r"numbers?|percentage|percent|share|capacity|count|population|age|height|length|size|duration|period|"
     r"turnaround|quantity|total|speed|distance|weight|temperature|temp|score|ratio|proportion|bandwidth|memory|ram|"
     r"storage|notice|readings?|concentration|dose|dosage|pressure|voltage|frequency|levels?|output|throughput|average",
     "number"),
    (r"person|people|man|woman|actor|actress|director|author|writer|singer|player|artist|musician|composer|"
     r"president|manager|owner|approver|contact|lead|leader|head|chair|founder|ceo|cto|cfo|coach|member|employee|"
     r"officer|sponsor|minister|king|queen|wife|husband|son|daughter|father|mother|brother|sister|producer|"
     r"designer|architect|engineer|scientist|politician|journalist|presenter|host|character|role", "person"),
    (r"city|cities|country|countries|state|town|region|county|province|place|location|venue|island|river|"
     r"continent|village|district|building|site|campus|airport|station|nationality", "place"),
]
HEAD_KINDS = [(re.compile(rf"^(?:{pattern})$"), kind) for pattern, kind in _HEADS]
_HEAD_WORDS_SPELLED = tuple(sorted({w for pattern, _ in _HEADS
                                   for w in re.findall(r"[a-z]{6,}", re.sub(r"\(.*?\)|s\?", "", pattern))}))
"""Head nouns long enough that a typo in them ('extention', 'adress') is still recognised."""
SPELLING_CUTOFF = 0.88


def spelled(word: str) -> str:
    """The head noun a misspelt word stands for ('extention' -> 'extension'), else the word itself."""
    if len(word) < 6 or any(pattern.match(word) for pattern, _ in HEAD_KINDS) or \
            word.removesuffix("s") in _HEAD_WORDS_SPELLED or word.removesuffix("es") in _HEAD_WORDS_SPELLED:
        return word  # a plural is no typo ('offices')
    close = difflib.get_close_matches(word, _HEAD_WORDS_SPELLED, n=1, cutoff=SPELLING_CUTOFF)
    return close[0] if close else word


def respelled(question: str) -> str:
    """The question with its misspelt head nouns as they are spelled ('what's their extention' -> 'extension')."""
    return re.sub(r"\b[a-z]{6,}\b", lambda m: spelled(m.group(0)), question)
