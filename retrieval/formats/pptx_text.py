"""A PowerPoint deck (.pptx) as one page per slide: the slide's title as a heading, its text, tables and notes."""

from __future__ import annotations

from io import BytesIO
from typing import Any

from boundloop.retrieval.formats.container_check import check_package
from boundloop.retrieval.formats.office_text import OfficeText, cell_text, markdown_table, property_metadata


def _shape_lines(shape: Any, title_id: int | None) -> list[str]:
    from pptx.shapes.group import GroupShape

    if shape.shape_id == title_id:
        return []
    if getattr(shape, "has_table", False) and shape.has_table:
        return ["", *markdown_table([[cell_text(c.text) for c in row.cells] for row in shape.table.rows]), ""]
    if isinstance(shape, GroupShape):  # a group: its shapes in order
        return [line for inner in shape.shapes for line in _shape_lines(inner, title_id)]
    if not getattr(shape, "has_text_frame", False) or not shape.has_text_frame:
        return []
    lines: list[str] = []
    for paragraph in shape.text_frame.paragraphs:
        text = " ".join("".join(run.text for run in paragraph.runs).split())
        if text:  # body placeholders hold bullets; a level below the first is indented under its parent
            lines.append("  " * paragraph.level + "- " + text if shape.is_placeholder else text)
    return lines


def _slide_text(slide: Any, number: int) -> tuple[str, str]:
    """(the slide's title, its text): a slide without a title is headed 'Slide N'."""
    title_shape = slide.shapes.title
    title = " ".join((title_shape.text_frame.text if title_shape is not None else "").split())
    lines = [f"## {title or f'Slide {number}'}", ""]
    for shape in slide.shapes:
        lines += _shape_lines(shape, title_shape.shape_id if title_shape is not None else None)
    if slide.has_notes_slide:
        notes = slide.notes_slide.notes_text_frame
        text = notes.text.strip() if notes is not None else ""
        if text:
            lines += ["", "### Notes", "", *[" ".join(line.split()) for line in text.splitlines() if line.strip()]]
    return title, "\n".join(lines).strip()


def read_pptx(data: bytes) -> OfficeText:
    """The deck's slides as pages; its title is the first slide's title. `ValueError` says why not."""
    import pptx
    from pptx.exc import PackageNotFoundError

    check_package(data, "PowerPoint")
    try:
        deck = pptx.Presentation(BytesIO(data))
        slides = [_slide_text(slide, n) for n, slide in enumerate(deck.slides, start=1)]
        props = deck.core_properties
        meta = property_metadata(props.author, props.created, props.modified)
    except (PackageNotFoundError, KeyError, ValueError, AttributeError, TypeError) as exc:
        raise ValueError(f"unreadable PowerPoint file: {exc or type(exc).__name__}") from None
    title = next((t for t, _ in slides if t), "") or (props.title or "").strip()
    meta["slides"] = len(slides)
    pages = tuple(text for _, text in slides)
    return OfficeText(title=title, text="\n\n".join(pages), metadata=meta, pages=pages)
