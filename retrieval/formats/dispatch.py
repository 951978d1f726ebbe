"""Which reader takes which file suffix, and the one call the folder loader makes."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from boundloop.retrieval.formats.docx_text import read_docx
from boundloop.retrieval.formats.eml_text import read_eml
from boundloop.retrieval.formats.msg_text import read_msg
from boundloop.retrieval.formats.office_text import OfficeText
from boundloop.retrieval.formats.pptx_text import read_pptx
from boundloop.retrieval.formats.xlsx_text import read_csv, read_xlsx

READERS: dict[str, Callable[[bytes], OfficeText]] = {
    ".docx": read_docx,
    ".pptx": read_pptx,
    ".xlsx": read_xlsx,
    ".csv": read_csv,
    ".eml": read_eml,
    ".msg": read_msg,
}
OFFICE_SUFFIXES = frozenset(READERS)
MAIL_SUFFIXES = frozenset({".eml", ".msg"})
"""Messages: their attachments of a known type are documents of their own (see `attachments`)."""


def read_office(path: Path) -> OfficeText:
    """The file as text; `ValueError` says why not. A missing format library is named, not a crash."""
    return read_office_bytes(path.read_bytes(), path.suffix)


def read_office_bytes(data: bytes, suffix: str) -> OfficeText:
    """A file's bytes, read as a file with `suffix`; `ValueError` says why not."""
    try:
        return READERS[suffix.lower()](data)
    except ImportError as exc:
        raise ValueError(f"the {suffix} reader's library {exc.name} is not installed "
                         "(boundloop setup installs it)") from None
