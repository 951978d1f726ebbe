"""A saved Outlook message (.msg) as text, as an .eml is read: the subject is the title, the fields lead the body.

An .msg is an OLE compound file ([MS-OXMSG]): each variable-size property is a stream `__substg1.0_IIIITTTT` (id,
type), fixed-size ones (times) sit in `__properties_version1.0`, and each attachment is a storage
`__attach_version1.0_#NNNNNNNN` holding its own. The body is the plain text, else the HTML, else the compressed RTF.
"""

from __future__ import annotations

import codecs
import struct
from datetime import UTC, datetime, timedelta
from io import BytesIO
from typing import Any

from boundloop.retrieval.formats.container_check import OLE_MAGIC, ZIP_MAGIC
from boundloop.retrieval.formats.mail_text import mail_text
from boundloop.retrieval.formats.office_text import Attachment, OfficeText
from boundloop.retrieval.formats.rtf_text import rtf_text
from boundloop.retrieval.html_comments import strip_comments
from boundloop.retrieval.html_text import html_text

SUBJECT, SENDER_NAME, SENDER_EMAIL, SENDER_SMTP = 0x0037, 0x0C1A, 0x0C1F, 0x5D01
DISPLAY_TO, DISPLAY_CC, BODY, HTML, RTF_COMPRESSED = 0x0E04, 0x0E03, 0x1000, 0x1013, 0x1009
CLIENT_SUBMIT_TIME, DELIVERY_TIME, CODEPAGE = 0x0039, 0x0E06, 0x3FFD
ATTACH_LONG_FILENAME, ATTACH_FILENAME, ATTACH_DATA = 0x3707, 0x3704, 0x3701
UNICODE, STRING8, BINARY, SYSTIME, INTEGER = 0x001F, 0x001E, 0x0102, 0x0040, 0x0003
PROPERTIES = "__properties_version1.0"
TOP_HEADER = 32  # the message's property stream starts with 32 bytes of counts; an attachment's with 8
_EPOCH = datetime(1601, 1, 1, tzinfo=UTC)  # FILETIME counts 100 ns steps from here
_NOT_MSG = ((b"%PDF", "a PDF"), (ZIP_MAGIC, "a ZIP package (an Office file?)"), (b"{\\rtf", "an RTF document"))


class _Storage:
    """One storage of the message (the message itself, or an attachment): its properties by id."""

    def __init__(self, ole: Any, prefix: list[str], header: int, codepage: str = "cp1252") -> None:
        self.ole, self.prefix, self.codepage = ole, prefix, codepage
        self.fixed: dict[int, tuple[int, bytes]] = {}
        raw = self._stream(PROPERTIES) or b""
        for start in range(header, len(raw) - 15, 16):
            tag, _flags, value = struct.unpack_from("<II8s", raw, start)
            self.fixed[tag >> 16] = (tag & 0xFFFF, value)

    def _stream(self, name: str) -> bytes | None:
        path = [*self.prefix, name]
        return bytes(self.ole.openstream(path).read()) if self.ole.exists("/".join(path)) else None

    def text(self, prop: int) -> str:
        unicode = self._stream(f"__substg1.0_{prop:04X}{UNICODE:04X}")
        if unicode is not None:
            return unicode.decode("utf-16-le", errors="replace").rstrip("\x00")
        narrow = self._stream(f"__substg1.0_{prop:04X}{STRING8:04X}")
        return narrow.decode(self.codepage, errors="replace").rstrip("\x00") if narrow is not None else ""

    def binary(self, prop: int) -> bytes | None:
        return self._stream(f"__substg1.0_{prop:04X}{BINARY:04X}")

    def time(self, prop: int) -> datetime | None:
        kind, value = self.fixed.get(prop, (0, b""))
        ticks = struct.unpack("<Q", value)[0] if kind == SYSTIME else 0
        return _EPOCH + timedelta(microseconds=ticks // 10) if ticks else None

    def integer(self, prop: int) -> int | None:
        kind, value = self.fixed.get(prop, (0, b""))
        return struct.unpack_from("<i", value)[0] if kind == INTEGER else None


def _body(message: _Storage) -> str:
    plain = message.text(BODY)
    if plain.strip():
        return plain
    html = message.binary(HTML)
    if html is None:
        html = message.text(HTML).encode("utf-8") or None
    if html:
        return html_text(strip_comments(html.decode("utf-8", errors="replace"))[0])[1]
    compressed = message.binary(RTF_COMPRESSED)
    if compressed:
        import compressed_rtf

        try:
            return rtf_text(compressed_rtf.decompress(compressed))
        except Exception as exc:  # the library raises bare Exceptions for a bad header or checksum
            raise ValueError(f"damaged Outlook message: its RTF body cannot be read ({exc})") from None
    return ""


def _attachments(ole: Any, codepage: str) -> tuple[Attachment, ...]:
    """Attachments stored by value, with a file name; embedded messages and links are not files and are left."""
    storages = sorted({entry[0] for entry in ole.listdir(streams=False, storages=True)
                       if len(entry) == 1 and entry[0].startswith("__attach_version1.0_#")})
    found = []
    for name in storages:
        attachment = _Storage(ole, [name], 8, codepage)
        data = attachment.binary(ATTACH_DATA)
        file_name = attachment.text(ATTACH_LONG_FILENAME) or attachment.text(ATTACH_FILENAME)
        if data is not None and file_name:
            found.append(Attachment(file_name, data))
    return tuple(found)


def _codec(codepage: int | None) -> str:
    """The Python codec of a Windows code page (PR_MESSAGE_CODEPAGE); Windows-1252 when unknown or absent."""
    name = "utf-8" if codepage == 65001 else f"cp{codepage}"
    try:
        return codecs.lookup(name).name if codepage else "cp1252"
    except LookupError:
        return "cp1252"


def read_msg(data: bytes) -> OfficeText:
    """The message of an .msg file; `ValueError` when the file is damaged, something else, or holds no message."""
    import olefile

    if not data.startswith(OLE_MAGIC):
        named = next((name for magic, name in _NOT_MSG if data.lstrip()[:8].startswith(magic)), "")
        raise ValueError(f"mislabelled: the file is {named}, not an Outlook message" if named else
                         "not an Outlook message (not an OLE compound file)")
    try:
        ole = olefile.OleFileIO(BytesIO(data))
    except (OSError, ValueError, struct.error, IndexError) as exc:
        raise ValueError(f"damaged or truncated Outlook message: {exc}") from None
    try:
        if not ole.exists(PROPERTIES):
            raise ValueError("an OLE compound file, but not an Outlook message (an old Word or Excel file?)")
        message = _Storage(ole, [], TOP_HEADER)
        message.codepage = _codec(message.integer(CODEPAGE))
        name = message.text(SENDER_NAME).strip()
        address = (message.text(SENDER_SMTP) or message.text(SENDER_EMAIL)).strip()
        sender = f"{name} <{address}>" if name and address and "@" in address else (name or address)
        sent = message.time(CLIENT_SUBMIT_TIME) or message.time(DELIVERY_TIME)
        date_line = sent.strftime("%a, %d %b %Y %H:%M:%S +0000") if sent else ""
        return mail_text(" ".join(message.text(SUBJECT).split()), sender, message.text(DISPLAY_TO).strip(),
                         message.text(DISPLAY_CC).strip(), date_line, sent, _body(message),
                         _attachments(ole, message.codepage))
    except (OSError, struct.error, IndexError, UnicodeDecodeError) as exc:
        raise ValueError(f"damaged or truncated Outlook message: {exc}") from None
    finally:
        ole.close()
