"""Real Office files for tests, made with the same libraries the readers use (and the standard library's email)."""

from __future__ import annotations

import struct
import zipfile
from datetime import UTC, datetime
from email.message import EmailMessage
from pathlib import Path

import compressed_rtf
import docx
import openpyxl
import pptx
from pptx.util import Inches

from tests.cfb_writer import write_cfb

MODIFIED = datetime(2026, 3, 2, 9, 30)


def write_docx(path: Path) -> Path:
    document = docx.Document()
    document.core_properties.author = "Priya Raman"
    document.core_properties.modified = MODIFIED
    document.add_heading("Leave Policy 2026", 0)
    document.add_heading("Annual leave", 1)
    document.add_paragraph("Staff agree their leave with their manager.")
    document.add_paragraph("Book two weeks ahead", style="List Bullet")
    table = document.add_table(rows=3, cols=2)
    for r, row in enumerate([("Office", "Working days"), ("Lisbon", "25"), ("Tilburg", "27")]):
        for c, value in enumerate(row):
            table.cell(r, c).text = value
    document.save(str(path))
    return path


def write_pptx(path: Path) -> Path:
    deck = pptx.Presentation()
    first = deck.slides.add_slide(deck.slide_layouts[0])
    first.shapes.title.text = "Q3 Results"
    first.placeholders[1].text = "Hollin Group"
    second = deck.slides.add_slide(deck.slide_layouts[1])
    second.shapes.title.text = "Revenue"
    frame = second.placeholders[1].text_frame
    frame.text = "Revenue rose 12 percent"
    sub = frame.add_paragraph()
    sub.text, sub.level = "Lisbon led the growth", 1
    second.notes_slide.notes_text_frame.text = "Mention the currency effect."
    third = deck.slides.add_slide(deck.slide_layouts[5])
    third.shapes.title.text = "Regions"
    grid = third.shapes.add_table(2, 2, Inches(1), Inches(2), Inches(4), Inches(1)).table
    for (r, c), value in {(0, 0): "Region", (0, 1): "Sales", (1, 0): "Europe", (1, 1): "4.1 M"}.items():
        grid.cell(r, c).text = value
    deck.save(str(path))
    return path


def write_xlsx(path: Path, rows: int = 25) -> Path:
    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Mileage"
    sheet.append(["Employee", "Kilometres"])
    for n in range(rows):
        sheet.append([f"Person {n}", 100 + n])
    book.create_sheet("Empty")
    book.properties.title = "Mileage claims"
    book.save(str(path))
    return path


def write_eml(path: Path, *attachments: tuple[str, bytes]) -> Path:
    message = EmailMessage()
    message["Subject"] = "Lisbon office move"
    message["From"] = "Ana Costa <ana@hollin.example>"
    message["To"] = "all@hollin.example"
    message["Date"] = "Tue, 03 Nov 2026 10:00:00 +0000"
    message.set_content("The Lisbon office moves on 1 December.\n\nBring your badge.")
    for name, data in attachments:
        message.add_attachment(data, maintype="application", subtype="octet-stream", filename=name)
    path.write_bytes(bytes(message))
    return path


def with_macros(source: Path, path: Path) -> Path:
    """A copy of an Office package with a VBA project added, as a macro-enabled file holds."""
    with zipfile.ZipFile(source) as original, zipfile.ZipFile(path, "w") as copy:
        for item in original.infolist():
            copy.writestr(item, original.read(item.filename))
        copy.writestr("word/vbaProject.bin", b"\x00" * 64)
    return path


def _filetime(when: datetime) -> int:
    """A FILETIME: 100-nanosecond steps since 1601-01-01 UTC."""
    return int((when.replace(tzinfo=UTC) - datetime(1601, 1, 1, tzinfo=UTC)).total_seconds()
               * 10_000_000)


def _unicode(tag: int, value: str) -> tuple[str, bytes]:
    return f"__substg1.0_{tag:04X}001F", value.encode("utf-16-le")


MSG_BODY = "The Lisbon office moves on 1 December.\n\nBring your badge."


def write_msg(path: Path, *attachments: tuple[str, bytes], body: str = MSG_BODY, rtf_only: bool = False,
              sent: datetime | None = datetime(2026, 11, 3, 10, 0)) -> Path:
    """An Outlook .msg ([MS-OXMSG]): subject, sender, recipients, body, submit time and attachments by value.

    `rtf_only` stores the body as compressed RTF alone, as Outlook does for rich-text messages.
    """
    streams: dict[str, bytes] = dict([_unicode(0x0037, "Lisbon office move"), _unicode(0x0C1A, "Ana Costa"),
                                      _unicode(0x0C1F, "ana@hollin.example"), _unicode(0x0E04, "All staff")])
    if rtf_only:
        escaped = body.replace("\\", "\\\\").replace("{", "\\{").replace("}", "\\}").replace("\n", "\\par\n")
        rtf = "{\\rtf1\\ansi\\ansicpg1252\\deff0{\\fonttbl{\\f0 Calibri;}}\\f0 " + escaped + "}"
        streams["__substg1.0_10090102"] = compressed_rtf.compress(rtf.encode("cp1252"))
    else:
        streams.update([_unicode(0x1000, body)])
    entries = []  # fixed-size properties: tag (type, id), flags, 8-byte value
    if sent is not None:
        entries.append(struct.pack("<IIQ", 0x00390040, 6, _filetime(sent)))  # PR_CLIENT_SUBMIT_TIME
    for number, (name, data) in enumerate(attachments):
        storage = f"__attach_version1.0_#{number:08X}"
        streams[f"{storage}/__substg1.0_3707001F"] = name.encode("utf-16-le")  # PR_ATTACH_LONG_FILENAME
        streams[f"{storage}/__substg1.0_37010102"] = data  # PR_ATTACH_DATA_BIN
        streams[f"{storage}/__properties_version1.0"] = b"\x00" * 8 + struct.pack("<IIQ", 0x37050003, 6, 1)
    streams["__properties_version1.0"] = (b"\x00" * 8 + struct.pack("<IIII", 0, len(attachments), 0, len(attachments))
                                          + b"\x00" * 8 + b"".join(entries))
    path.write_bytes(write_cfb(streams))
    return path
