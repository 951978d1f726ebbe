"""A workbook (.xlsx) or a CSV file as tables: each sheet a part cited by its name, its rows under the header row.

A block of rows is headed by its range ('Rows 2-21'), so a passage cut from a long sheet still says which sheet and
which rows it came from; every block repeats the header row, so each row is read under its column names.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Iterator
from io import BytesIO

from boundloop.retrieval.formats.container_check import check_package
from boundloop.retrieval.formats.office_text import OfficeText, cell_text, markdown_table, property_metadata

ROWS_PER_BLOCK = 20
CSV_SNIFF_CHARS = 8192


def _rows(values: Iterable[Iterable[object]]) -> Iterator[tuple[int, list[str]]]:
    """(1-based row number, cells) of the rows that hold anything, trailing empty cells dropped."""
    for number, row in enumerate(values, start=1):
        cells = [cell_text(value) for value in row]
        while cells and not cells[-1]:
            cells.pop()
        if cells:
            yield number, cells


def table_sections(values: Iterable[Iterable[object]], level: int) -> list[str]:
    """The table's header row and its data rows, in blocks headed `Rows a-b` at heading `level`."""
    rows = _rows(values)
    first = next(rows, None)
    if first is None:
        return []
    _, header = first
    blocks: list[str] = []
    block: list[tuple[int, list[str]]] = []
    for row in rows:
        block.append(row)
        if len(block) == ROWS_PER_BLOCK:
            blocks.append(_block(header, block, level))
            block = []
    if block or not blocks:
        blocks.append(_block(header, block, level))
    return blocks


def _block(header: list[str], block: list[tuple[int, list[str]]], level: int) -> str:
    span = f"Rows {block[0][0]}-{block[-1][0]}" if block else "Header row"
    return f"{'#' * level} {span}\n\n" + "\n".join(markdown_table([header, *(cells for _, cells in block)]))


def read_xlsx(data: bytes) -> OfficeText:
    """Every sheet's values (not formulas), sheet by sheet; the title is the workbook's Title property, if any."""
    import openpyxl
    from openpyxl.utils.exceptions import InvalidFileException

    check_package(data, "Excel")
    try:
        book = openpyxl.load_workbook(BytesIO(data), read_only=True, data_only=True)
        sections: list[str] = []
        sheets: list[str] = []
        for sheet in book.worksheets:
            blocks = table_sections(sheet.iter_rows(values_only=True), 3)
            if blocks:
                sheets.append(sheet.title)
                sections.append("\n\n".join([f"## {sheet.title}", *blocks]))
        props = book.properties
        meta = property_metadata(props.creator, props.created, props.modified)
        book.close()
    except (InvalidFileException, KeyError, ValueError, AttributeError, TypeError, IndexError) as exc:
        raise ValueError(f"unreadable Excel file: {exc or type(exc).__name__}") from None
    meta["sheets"] = sheets
    return OfficeText(title=(props.title or "").strip(), text="\n\n".join(sections), metadata=meta,
                      pages=tuple(sections), sheets=tuple(sheets))


def read_csv(data: bytes) -> OfficeText:
    """A CSV file (UTF-8; comma, semicolon or tab) as one table; its first row is the header."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise ValueError("not UTF-8 text") from None
    try:
        dialect: type[csv.Dialect] | csv.Dialect = csv.Sniffer().sniff(text[:CSV_SNIFF_CHARS], delimiters=",;\t")
    except csv.Error:
        dialect = csv.excel
    try:
        blocks = table_sections(csv.reader(io.StringIO(text), dialect), 2)
    except csv.Error as exc:
        raise ValueError(f"unreadable CSV file: {exc}") from None
    return OfficeText(title="", text="\n\n".join(blocks))
