"""Real Office files for tests, made with the same libraries the readers use (and the standard library's email)."""

from __future__ import annotations

import zipfile
from datetime import datetime
from email.message import EmailMessage
from pathlib import Path

import docx
import openpyxl
import pptx
from pptx.util import Inches

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
