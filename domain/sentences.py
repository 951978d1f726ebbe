"""Sentences of a document's text: how paragraphs, headings, list items, fields and table rows become sentences.

The chunker packs these sentences into chunks, one a line; the reader and the instruction policy split a chunk's
text back into them (`chunk_sentences`). Each sentence can also say which source lines it was read from
(`source_sentences`), so that a chunk keeps its Markdown as written for people to read.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace

from boundloop.domain.vocabulary import words

MAX_WORDS = 120
"""No sentence is longer in words (and no chunk, which packs sentences up to this many words)."""
MAX_SENTENCE_CHARS = 800
"""No sentence, row or item is longer: text without punctuation is cut hard (at a space where it has one), so that
whatever a document holds, every chunk and every unit the reader reads has a bounded cost."""

_PARAGRAPH = re.compile(r"\n\s*\n")
# A full stop ends a sentence unless it ends an abbreviation that goes on: an initial ('John F. Kennedy'; not 'I',
# which ends 'World War I.'), a dotted abbreviation ('U.S. Army', 'e.g.') or a title or short form that precedes a
# name or number ('St. Louis', 'Dr. Lee', 'No. 4', 'Smith v. Jones', 'c. 1850'), street forms among them ('ul.
# Nabrzeże Bułgarskie 3', 'Av. da Liberdade', 'Mill Rd. 4').
_NOT_AN_END = (
    r"(?<![\s(\"][A-HJ-Za-z]\.)(?<!^[A-HJ-Za-z]\.)(?<!\.[A-Za-z]\.)"
    r"(?<!\b(?:St|Dr|Mr|Ms|Mt|Ft|Lt|No|no|vs|Jr|Sr|ca|ul|al|Av|Rd)\.)"
    r"(?<!\b(?:Mrs|Gen|Col|Maj|Sgt|Det|Rev|Ste|Fig|Ext|ext|Ave|Str)\.)(?<!\b(?:Prof|Capt|Dept|Blvd)\.)"
)
_SENTENCE = re.compile(r"(?<=[.!?])" + _NOT_AN_END + r"\s+(?=[\"'(\[A-Z0-9])")
_STRUCTURED = re.compile(r"^(#{1,6}\s|[-*+]\s|\d+[.)]\s|\|)")
_ORDINAL = re.compile(r"^(\d{1,3}[.)])\s+")
_TABLE_RULE = re.compile(r"^\|?[\s:|-]+\|?$")
_COLUMNS = re.compile(r"\S(?: {2,}|\t+)\S")
_UNDERLINE = re.compile(r"^(?:={3,}|-{3,}|~{3,})$")
_FIELD_LINE = re.compile(r"^(?:\*\*|__)?[A-Z][\w ()/&'’.,-]{0,40}?(?:\*\*|__)?\s*:(?:\*\*|__)?\s+\S")
"""A `Label: value` line ('Wifi (staff): MGW-HOLLIN-OPS', '**Owner:** Priya Raman'): a field."""
_BOLD_LINE = re.compile(r"^(?:\*\*|__)([^*_]{2,120}?)(?:\*\*|__)$")
_CAPITALS_LINE = re.compile(r"^(?=[^a-z]*[A-Z]{2})[A-Z0-9][A-Z0-9&/()'’,.-]*(?: [A-Z0-9&/()'’,.-]+){0,5}$")
"""A line of at most six words in capitals, flush left ('SITE MANAGER', 'FIRST AID')."""


Span = tuple[int, int]
"""`[start, end)` characters of a text."""


@dataclass(frozen=True)
class SourceSentence:
    """A sentence (or row, or item) and the span of the whole source lines it was read from."""

    text: str
    span: Span
    context: tuple[Span, ...] = ()
    """Lines it needs to show as written, above its own: a table row's header and rule."""


def _cells(row: str) -> list[str]:
    return [" ".join(c.replace("**", "").split()) for c in row.strip().strip("|").split("|")]


_NUMBERING = words("numbering_headers")


def _table_row(header: list[str], row: str) -> str:
    """A data row made self-contained: 'Header: cell; Header: cell' (the header row itself is not kept)."""
    # a numbering column ('#', 'No.') names nothing: '#: 1' would read as a heading
    pairs = [f"{h}: {c}" if h and h not in _NUMBERING else c for h, c in zip(header, _cells(row), strict=False)
             if c and c not in {"-", "—"}]
    return "; ".join(pairs)


def split_sentences(text: str) -> list[str]:
    """Split text into sentences; paragraph breaks, headings, list items and table rows also end a sentence.

    Markdown table rows become 'Column: value; ...' so each row carries its header's meaning; rows of a plain-text
    table aligned with spaces become 'cell; cell'.
    """
    return [sentence.text for sentence in source_sentences(text)]


def source_sentences(text: str) -> list[SourceSentence]:
    """`split_sentences`, each sentence with the source lines it comes from."""
    sentences: list[SourceSentence] = []
    for paragraph_start, paragraph in _paragraphs(text):
        prose: list[tuple[str, Span]] = []
        header: list[str] = []
        header_span: tuple[Span, ...] = ()
        item = False  # whether the last sentence is a list item that an indented line may continue
        bare: SourceSentence | None = None  # a table's first row while no rule line has followed it
        lines = _underlined_headings(_lines_at(paragraph, paragraph_start))
        fields = _field_lines([line for line, _ in lines])
        for n, (line, span) in enumerate(lines):
            stripped = line.strip()
            if item and not prose and line[:1].isspace() and stripped and not _STRUCTURED.match(stripped):
                last = sentences[-1]  # a wrapped list item's next line
                sentences[-1] = replace(last, text=last.text + " " + " ".join(stripped.split()),
                                        span=(last.span[0], span[1]))
                continue
            item = bool(re.match(r"^([-*+]|\d+[.)])\s", stripped))
            if _TABLE_RULE.match(stripped) and stripped.count("|") and sentences:
                if sentences[-1].text.startswith("|"):
                    head = sentences.pop()
                    header, header_span = _cells(head.text), ((head.span[0], span[1]),)
                continue
            if n in fields or _STRUCTURED.match(stripped) or _COLUMNS.search(stripped):
                sentences.extend(_prose_sentences(prose))
                prose = []
                if stripped.startswith("|") and not header and bare is not None and sentences[-1] is bare and \
                        not re.search(r"\d", bare.text):
                    # a table typed without its rule line ('| # | Action | Owner |' over its rows): its first row heads
                    # it when it holds only words; a first row of values ('| Leeds | 07:00 |') is data
                    header, header_span = _cells(sentences.pop().text), (bare.span,)
                if stripped.startswith("|") and header:
                    sentences.append(SourceSentence(_table_row(header, stripped), span, header_span))
                elif _COLUMNS.search(stripped) and not _STRUCTURED.match(stripped):
                    # a row of a plain-text table aligned with spaces: its columns become '; '-separated cells
                    cells = re.split(r" {2,}|\t+", stripped)
                    label = cells[0] + " " if cells[0].endswith(":") and len(cells) > 1 else ""  # 'Staff:    X'
                    sentences.append(SourceSentence(label + "; ".join(cells[1:] if label else cells), span))
                else:
                    sentences.append(SourceSentence(" ".join(stripped.split()), span))
                bare = sentences[-1] if stripped.startswith("|") and not header else None
            elif stripped:
                prose.append((stripped, span))
        sentences.extend(_prose_sentences(prose))
    return [replace(sentence, text=piece) for sentence in sentences for piece in bounded_pieces(sentence.text)]


def _paragraphs(text: str) -> Iterator[tuple[int, str]]:
    """The paragraphs of `text` (split at blank lines), each with the offset it starts at."""
    at = 0
    for gap in _PARAGRAPH.finditer(text):
        yield at, text[at:gap.start()]
        at = gap.end()
    yield at, text[at:]


def _lines_at(paragraph: str, start: int) -> list[tuple[str, Span]]:
    """The lines of a paragraph (as `str.splitlines` cuts them), each with its span in the whole text."""
    lines: list[tuple[str, Span]] = []
    for raw in paragraph.splitlines(keepends=True):
        line = raw.splitlines()[0]
        lines.append((line, (start, start + len(line))))
        start += len(raw)
    return lines


def bounded_pieces(sentence: str) -> list[str]:
    """`sentence` as it is, or cut into pieces of at most MAX_WORDS words and MAX_SENTENCE_CHARS characters."""
    if len(sentence) <= MAX_SENTENCE_CHARS and sentence.count(" ") < MAX_WORDS:
        return [sentence]
    pieces: list[str] = []
    words: list[str] = []
    size = 0
    for word in sentence.split(" "):
        while len(word) > MAX_SENTENCE_CHARS:  # a run without spaces: cut it by characters
            pieces.extend([" ".join(words)] if words else [])
            words, size = [], 0
            pieces.append(word[:MAX_SENTENCE_CHARS])
            word = word[MAX_SENTENCE_CHARS:]
        if words and (size + 1 + len(word) > MAX_SENTENCE_CHARS or len(words) >= MAX_WORDS):
            pieces.append(" ".join(words))
            words, size = [], 0
        words.append(word)
        size += len(word) + (1 if size else 0)
    if words:
        pieces.append(" ".join(words))
    return [piece for piece in pieces if piece]


def _field_lines(lines: list[str]) -> set[int]:
    """The lines of a block of fields: a `Label: value` line next to another one is a field of its own, not prose.

    A lone 'Note: ...' line inside wrapped prose stays prose; 'Address: ...' over 'Design capacity: ...' are two.
    """
    like = [bool(_FIELD_LINE.match(line.strip())) for line in lines]
    return {i for i, field in enumerate(like) if field and ((i and like[i - 1]) or (i + 1 < len(like) and like[i + 1]))}


def _underlined_headings(lines: list[tuple[str, Span]]) -> list[tuple[str, Span]]:
    """Plain-text headings underlined with '====' or '----' become Markdown headings; the underline goes.

    A line that is wholly bold ('**When is payday?**', as FAQs set their questions) is a heading too, and so is a
    short line in capitals over an indented block ('SITE MANAGER' over '  Beatriz Lopes'), as plain-text guides lay
    out their sections. A heading keeps its underline in its source span.
    """
    out: list[tuple[str, Span]] = []
    for n, (line, span) in enumerate(lines):
        below = lines[n + 1][0] if n + 1 < len(lines) else ""
        if _CAPITALS_LINE.match(line) and below[:1].isspace() and below.strip():
            out.append(("### " + line.strip(), span))  # 'SITE MANAGER' over an indented '  Beatriz Lopes'
            continue
        bold = _BOLD_LINE.match(line.strip())
        if bold and not bold.group(1).rstrip().endswith(":"):  # 'Owner:' leads into its value
            out.append(("#### " + " ".join(bold.group(1).split()), span))
            continue
        if _UNDERLINE.match(line.strip()):
            previous, above = out[-1] if out else ("", span)
            if previous.strip() and len(previous.split()) <= 10 and not _STRUCTURED.match(previous.strip()):
                out[-1] = ("## " + previous.strip(), (above[0], span[1]))
            continue  # a rule under a heading, or on its own: layout
        out.append((line, span))
    return out


def chunk_sentences(text: str) -> list[str]:
    """The sentences of a chunk's text: the chunker puts one sentence (or table row, or list item) per line.

    A numbered item keeps its number with its first sentence ('1. Ask your manager.', not '1.' and 'Ask ...').
    """
    found: list[str] = []
    for line in text.split("\n"):
        line = line.strip()
        marker = _ORDINAL.match(line)
        parts = [s for s in _SENTENCE.split(line[marker.end():] if marker else line) if s]
        if marker and parts:
            parts[0] = f"{marker.group(1)} {parts[0]}"
        found += parts
    return found


def _prose_sentences(lines: list[tuple[str, Span]]) -> list[SourceSentence]:
    """The sentences of a run of prose lines; a sentence's span runs from its first word's line to its last's."""
    words = [(word, span) for line, span in lines for word in line.split()]
    joined = " ".join(word for word, _ in words)
    found: list[SourceSentence] = []
    at = 0
    for sentence in _SENTENCE.split(joined) if joined else []:
        if not sentence:
            continue
        last = min(at + sentence.count(" "), len(words) - 1)  # the split falls on single spaces between words
        found.append(SourceSentence(sentence, (words[at][1][0], words[last][1][1])))
        at = last + 1
    return found
