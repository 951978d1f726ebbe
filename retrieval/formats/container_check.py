"""What an Office file really is, found before a parser opens it: the reason a file is skipped, or nothing.

Word, PowerPoint and Excel files are ZIP packages. A password-protected one is an OLE compound file instead (the
package is encrypted inside it); a `.docx` that starts with `%PDF` is a PDF with the wrong name; a package that
holds a VBA project carries macros, which ingest does not take from a share; a package whose parts would unpack to
far more than the file is a ZIP bomb.
"""

from __future__ import annotations

import zipfile
from io import BytesIO

OLE_MAGIC = b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1"
ZIP_MAGIC = b"PK\x03\x04"
MAX_UNPACKED_RATIO = 100
"""A package may unpack to at most this many times its size (text-heavy XML compresses about 10 to 20 times)."""
MIN_UNPACKED_LIMIT = 50_000_000

_OTHER_KINDS = ((b"%PDF", "a PDF"), (b"{\\rtf", "an RTF document"), (b"<", "an HTML or XML text"))


def check_package(data: bytes, kind: str) -> zipfile.ZipFile:
    """The opened package of an Office file of `kind` ('Word', ...); a `ValueError` says why it is not one."""
    if data.startswith(OLE_MAGIC):
        raise ValueError(f"password-protected (encrypted) or an old binary {kind} file; not read")
    if not data.startswith(ZIP_MAGIC):
        head = data[:64].lstrip()
        named = next((name for magic, name in _OTHER_KINDS if head.startswith(magic)), "not an Office file")
        raise ValueError(f"mislabelled: the file is {named}, not a {kind} file")
    try:
        package = zipfile.ZipFile(BytesIO(data))
        names = package.namelist()
        unpacked = sum(info.file_size for info in package.infolist())
    except (zipfile.BadZipFile, zipfile.LargeZipFile, OSError, ValueError) as exc:
        raise ValueError(f"damaged or truncated {kind} file: {exc}") from None
    if "[Content_Types].xml" not in names:
        raise ValueError(f"damaged or mislabelled: a ZIP file, but not a {kind} package")
    if any(name.lower().endswith("vbaproject.bin") for name in names):
        raise ValueError(f"macro-enabled {kind} file (it holds a VBA project); not read")
    if unpacked > max(MIN_UNPACKED_LIMIT, MAX_UNPACKED_RATIO * len(data)):
        raise ValueError(f"the {kind} package unpacks to {unpacked:,} bytes (a ZIP bomb?); not read")
    bad = package.testzip()
    if bad is not None:
        raise ValueError(f"damaged or truncated {kind} file: part {bad} is corrupt")
    return package
