"""The text of an RTF document: what an Outlook message holds when its body is stored only as (compressed) RTF.

A small reader, not a renderer: paragraphs and line breaks are kept, formatting is dropped, and destinations that
hold no body text (font and colour tables, pictures, document info, and the HTML tags of a message that Outlook
wrapped in RTF, the `htmltag` destinations) are skipped.
"""

from __future__ import annotations

import re

_TOKEN = re.compile(r"\\([a-zA-Z]+)(-?\d+)? ?|\\'([0-9a-fA-F]{2})|\\([^a-zA-Z])|([{}])|([^\\{}\r\n]+)|[\r\n]+")
_SKIPPED = frozenset({
    "fonttbl", "colortbl", "stylesheet", "info", "pict", "object", "header", "footer", "headerl", "headerr",
    "footerl", "footerr", "listtable", "listoverridetable", "rsidtbl", "generator", "xmlnstbl", "datastore",
    "themedata", "colorschememapping", "latentstyles", "filetbl", "revtbl", "pgdsctbl", "mmathPr", "fldinst",
})
_BREAKS = {"par": "\n", "line": "\n", "tab": "\t", "emdash": "—", "endash": "–", "bullet": "•", "lquote": "‘",
           "rquote": "’", "ldblquote": "“", "rdblquote": "”", "emspace": " ", "enspace": " ", "sect": "\n\n"}


def rtf_text(rtf: bytes) -> str:
    """The text of `rtf`; `ValueError` when it is not RTF."""
    source = rtf.decode("latin-1")
    if not source.lstrip().startswith("{\\rtf"):
        raise ValueError("the body is not RTF")
    codepage = re.search(r"\\ansicpg(\d+)", source[:2000])
    encoding = f"cp{codepage.group(1)}" if codepage else "cp1252"
    out: list[str] = []
    pending = bytearray()  # \'hh bytes, decoded together (a multi-byte code page spells one character in several)
    stack: list[tuple[bool, int]] = []
    skip, unicode_skip, to_skip = False, 1, 0
    for match in _TOKEN.finditer(source):
        word, number, hexbyte, symbol, brace, text = match.groups()
        if to_skip and (hexbyte or text):  # the ANSI stand-ins that follow a \uN character
            if text and len(text) > to_skip:
                text, to_skip = text[to_skip:], 0
            else:
                to_skip -= 1 if hexbyte else len(text or "")
                continue
        if hexbyte is None and pending:
            out.append(pending.decode(encoding, errors="replace"))
            pending.clear()
        if brace == "{":
            stack.append((skip, unicode_skip))
        elif brace == "}":
            skip, unicode_skip = stack.pop() if stack else (skip, unicode_skip)
        elif skip:
            continue
        elif symbol == "*":
            skip = True  # an optional destination: a reader that does not know it ignores it
        elif word in _SKIPPED:
            skip = True
        elif word == "uc":
            unicode_skip = int(number or 1)
        elif word == "u":
            out.append(chr(int(number) % 65536))
            to_skip = unicode_skip
        elif word in _BREAKS:
            out.append(_BREAKS[word])
        elif hexbyte:
            pending.append(int(hexbyte, 16))
        elif symbol in {"\\", "{", "}"}:
            out.append(symbol)
        elif symbol == "~":
            out.append(" ")
        elif text:
            out.append(text)
    if pending:
        out.append(pending.decode(encoding, errors="replace"))
    lines = (" ".join(line.split()) for line in "".join(out).split("\n"))
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()
