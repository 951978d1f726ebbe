"""A Word document (.docx) as Markdown-like text: headings, lists and tables kept, in reading order."""

from __future__ import annotations

import re
from io import BytesIO
from typing import Any

from boundloop.retrieval.formats.container_check import check_package
from boundloop.retrieval.formats.office_text import OfficeText, cell_text, markdown_table, property_metadata

_HEADING_STYLE = re.compile(r"^Heading (\d)$")
_LIST_STYLE = re.compile(r"^List (Bullet|Number|Paragraph)")


def _paragraph_line(paragraph: Any) -> tuple[str, bool]:
    """(the paragraph as a Markdown line, whether it is a heading); styles name what a paragraph is."""
    text = " ".join(paragraph.text.split())
    style = paragraph.style.name if paragraph.style is not None else ""
    if not text:
        return "", False
    if style == "Title":
        return f"# {text}", True
    heading = _HEADING_STYLE.match(style)
    if heading:
        return f"{'#' * min(int(heading.group(1)) + 1, 6)} {text}", True  # Heading 1 sits under the Title
    listed = _LIST_STYLE.match(style)
    if listed:
        return ("1. " if listed.group(1) == "Number" else "- ") + text, False
    return text, False


def _table_lines(table: Any) -> list[str]:
    rows: list[list[str]] = []
    for row in table.rows:
        cells: list[str] = []
        previous = None
        for cell in row.cells:  # a merged cell comes back once per grid column it spans: keep it once
            if cell._tc is not previous:
                cells.append(cell_text(cell.text))
            previous = cell._tc
        rows.append(cells)
    return markdown_table(rows)


def read_docx(data: bytes) -> OfficeText:
    """The document's text; its title is the Title property, else its first heading. `ValueError` says why not."""
    import docx
    from docx.opc.exceptions import PackageNotFoundError
    from docx.table import Table

    check_package(data, "Word")
    try:
        document = docx.Document(BytesIO(data))
        blocks: list[str] = []
        first_heading = ""
        for block in document.iter_inner_content():
            if isinstance(block, Table):
                blocks.append("\n".join(_table_lines(block)))
                continue
            line, heading = _paragraph_line(block)
            if line:
                blocks.append(line)
                if heading and not first_heading:
                    first_heading = line.lstrip("#").strip()
        props = document.core_properties
        title = (props.title or "").strip() or first_heading
        meta = property_metadata(props.author, props.created, props.modified)
    except (PackageNotFoundError, KeyError, ValueError, AttributeError, TypeError) as exc:
        raise ValueError(f"unreadable Word file: {exc or type(exc).__name__}") from None
    return OfficeText(title=title, text=_join(blocks), metadata=meta)


def _join(blocks: list[str]) -> str:
    """Blocks apart by a blank line: for the chunker a paragraph break ends a sentence, as in Word."""
    return "\n\n".join(block for block in blocks if block.strip())
