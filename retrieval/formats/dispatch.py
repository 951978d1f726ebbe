"""Which reader takes which file suffix, and the one call the folder loader makes."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from boundloop.retrieval.formats.docx_text import read_docx
from boundloop.retrieval.formats.eml_text import read_eml
from boundloop.retrieval.formats.office_text import OfficeText
from boundloop.retrieval.formats.pptx_text import read_pptx
from boundloop.retrieval.formats.xlsx_text import read_csv, read_xlsx

READERS: dict[str, Callable[[bytes], OfficeText]] = {
    ".docx": read_docx,
    ".pptx": read_pptx,
    ".xlsx": read_xlsx,
    ".csv": read_csv,
    ".eml": read_eml,
}
OFFICE_SUFFIXES = frozenset(READERS)


def read_office(path: Path) -> OfficeText:
    """The file as text; `ValueError` says why not. A missing format library is named, not a crash."""
    try:
        return READERS[path.suffix.lower()](path.read_bytes())
    except ImportError as exc:
        raise ValueError(f"the {path.suffix} reader's library {exc.name} is not installed "
                         "(boundloop setup installs it)") from None
