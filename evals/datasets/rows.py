"""Records read from JSON, JSONL and CSV files, each remembering the file and line it came from."""

from __future__ import annotations

import bisect
import csv
import json
import json.decoder
import json.scanner
import re
from collections.abc import Iterator, Mapping
from pathlib import Path
from typing import Any

from evals.datasets.errors import DatasetError


class Row:
    """One record and where it was read; the typed accessors raise a `DatasetError` that names the place."""

    def __init__(self, data: Mapping[str, Any], where: str) -> None:
        self.data = data
        self.where = where

    def error(self, message: str) -> DatasetError:
        """An error located at this row."""
        return DatasetError(f"{self.where}: {message}")

    def has(self, key: str) -> bool:
        """Whether the field is present and not null."""
        return self.data.get(key) is not None

    def text(self, key: str, *, allow_empty: bool = False) -> str:
        """A string field; missing, non-string or (unless allowed) blank values are errors."""
        value = self.data.get(key)
        if not isinstance(value, str) or (not allow_empty and not value.strip()):
            raise self.error(f"field {key!r} must be a non-empty string, got {_shown(value)}")
        return value

    def integer(self, key: str) -> int:
        """An integer field (booleans are not integers here)."""
        value = self.data.get(key)
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.error(f"field {key!r} must be an integer, got {_shown(value)}")
        return value

    def flag(self, key: str, default: bool) -> bool:
        """A boolean field, `default` when absent."""
        value = self.data.get(key, default)
        if not isinstance(value, bool):
            raise self.error(f"field {key!r} must be true or false, got {_shown(value)}")
        return value

    def items(self, key: str) -> list[Any]:
        """A list field."""
        value = self.data.get(key)
        if not isinstance(value, list):
            raise self.error(f"field {key!r} must be a list, got {_shown(value)}")
        return value

    def child(self, value: Any, what: str) -> Row:
        """A nested object as a row, located at its own line when the file tells it."""
        if not isinstance(value, dict):
            raise self.error(f"{what} must be an object, got {_shown(value)}")
        return Row(value, _where_of(value, self.where))

    def mapping(self, key: str) -> Row:
        """An object field as a row."""
        return self.child(self.data.get(key), f"field {key!r}")

    def rows(self, key: str) -> list[Row]:
        """A list-of-objects field as rows."""
        return [self.child(item, f"{key}[{i}]") for i, item in enumerate(self.items(key))]


def require_file(path: Path) -> Path:
    """The path itself, or a `DatasetError` when it is not a readable file."""
    if not path.is_file():
        raise DatasetError(f"{path}: no such file" if not path.exists() else f"{path}: not a file")
    return path


def read_json_rows(path: Path) -> Iterator[Row]:
    """The objects of a JSONL file or of a JSON array, in file order."""
    text = _read_text(path)
    if text.lstrip().startswith("["):
        document = read_json_document(path, text)
        if not isinstance(document.data, list):
            raise DatasetError(f"{path}: expected a JSON array of objects")
        for i, item in enumerate(document.data):
            if not isinstance(item, dict):
                raise DatasetError(f"{path}: element {i} of the top-level array is not an object")
            yield Row(item, _where_of(item, str(path)))
        return
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as exc:
            raise DatasetError(f"{path}:{number}: broken JSON: {exc.msg} (column {exc.colno})") from None
        if not isinstance(value, dict):
            raise DatasetError(f"{path}:{number}: expected a JSON object, got {_shown(value)}")
        yield Row(value, f"{path}:{number}")


class _JsonDocument:
    """A parsed JSON file whose objects know the line they start on."""

    def __init__(self, data: Any) -> None:
        self.data = data


def read_json_document(path: Path, text: str | None = None) -> _JsonDocument:
    """A whole JSON file; every object in it carries its line for later error messages."""
    text = _read_text(path) if text is None else text
    try:
        return _JsonDocument(_LocatingDecoder(text).decode(text))
    except json.JSONDecodeError as exc:
        raise DatasetError(f"{path}:{exc.lineno}: broken JSON: {exc.msg} (column {exc.colno})") from None


def read_csv_rows(path: Path) -> Iterator[Row]:
    """The records of a CSV file with a header line, keyed by column name (a UTF-8 BOM is dropped)."""
    text = _read_text(path, encoding="utf-8-sig")
    reader = csv.reader(text.splitlines(keepends=True))
    try:
        header = [name.strip() for name in next(reader)]
    except StopIteration:
        raise DatasetError(f"{path}: empty CSV file, expected a header line") from None
    except csv.Error as exc:
        raise DatasetError(f"{path}:1: broken CSV: {exc}") from None
    while True:
        start = reader.line_num + 1
        try:
            record = next(reader)
        except StopIteration:
            return
        except csv.Error as exc:
            raise DatasetError(f"{path}:{start}: broken CSV: {exc}") from None
        if not any(field.strip() for field in record):
            continue
        if len(record) != len(header):
            raise DatasetError(f"{path}:{start}: expected {len(header)} columns, found {len(record)}")
        yield Row(dict(zip(header, record, strict=True)), f"{path}:{start}")


class _LocatedDict(dict[str, Any]):
    """A JSON object that remembers the line it starts on."""

    line = 0


class _LocatingDecoder(json.JSONDecoder):
    """A JSON decoder whose objects are `_LocatedDict`s (uses the standard library's pure-Python scanner)."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self._newlines = [match.start() for match in re.finditer("\n", text)]
        self.parse_object = self._parse_object
        self.scan_once = json.scanner.py_make_scanner(self)  # type: ignore[attr-defined]

    def _parse_object(self, s_and_end: tuple[str, int], *args: Any) -> tuple[_LocatedDict, int]:
        value, end = json.decoder.JSONObject(s_and_end, *args)  # type: ignore[attr-defined]
        located = _LocatedDict(value)
        located.line = bisect.bisect_left(self._newlines, s_and_end[1]) + 1
        return located, end


def _where_of(value: Any, fallback: str) -> str:
    if isinstance(value, _LocatedDict):
        return f"{fallback.rsplit(':', 1)[0] if fallback.count(':') and fallback.rsplit(':', 1)[1].isdigit() else fallback}:{value.line}"
    return fallback


def _read_text(path: Path, encoding: str = "utf-8") -> str:
    require_file(path)
    try:
        return path.read_text(encoding=encoding)
    except (OSError, UnicodeDecodeError) as exc:
        raise DatasetError(f"{path}: cannot read: {exc}") from None


def _shown(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
