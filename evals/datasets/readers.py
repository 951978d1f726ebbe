"""Readers for JSON, JSONL and CSV dataset files that keep the line each record starts on."""

from __future__ import annotations

import bisect
import csv
import io
import json
import json.decoder
import json.scanner
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from boundloop.evals.datasets.errors import DatasetError
from boundloop.evals.datasets.row import LocatedDict, Row, shown


def require_file(path: Path) -> Path:
    """The path itself, or a `DatasetError` when it is not a readable file."""
    if not path.is_file():
        raise DatasetError(f"{path}: no such file" if not path.exists() else f"{path}: not a file")
    return path


def require_folder(path: Path, *names: str) -> Path:
    """The folder itself, or a `DatasetError` when it is not a folder holding the files `names`."""
    if not path.is_dir():
        raise DatasetError(f"{path}: expected a folder holding {', '.join(names)}")
    for name in names:
        require_file(path / name)
    return path


def read_json_rows(path: Path) -> Iterator[Row]:
    """The objects of a JSONL file or of a JSON array, in file order."""
    text = _read_text(path)
    if text.lstrip().startswith("["):
        array = read_json_value(path, text)
        for i, item in enumerate(array):
            if not isinstance(item, LocatedDict):
                raise DatasetError(f"{path}: element {i} of the top-level array is not an object")
            yield Row(item, path, item.line)
        return
    # Split on \n only: JSON strings may hold other line separators such as U+2028.
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        try:
            value = json.loads(line)
        except json.JSONDecodeError as exc:
            raise DatasetError(f"{path}:{number}: broken JSON: {exc.msg} (column {exc.colno})") from None
        if not isinstance(value, dict):
            raise DatasetError(f"{path}:{number}: expected a JSON object, got {shown(value)}")
        yield Row(value, path, number)


def read_json_object(path: Path) -> Row:
    """A JSON file holding one object; every object in it carries its line for later error messages."""
    value = read_json_value(path, _read_text(path))
    if not isinstance(value, LocatedDict):
        raise DatasetError(f"{path}: expected a JSON object at the top level, got {shown(value)}")
    return Row(value, path, value.line)


def read_json_value(path: Path, text: str) -> Any:
    """The parsed `text` of `path`, with `LocatedDict` objects."""
    try:
        return _LocatingDecoder(text).decode(text)
    except json.JSONDecodeError as exc:
        raise DatasetError(f"{path}:{exc.lineno}: broken JSON: {exc.msg} (column {exc.colno})") from None


def read_csv_rows(path: Path) -> Iterator[Row]:
    """The records of a CSV file with a header line, keyed by column name (a UTF-8 BOM is dropped)."""
    text = _read_text(path, encoding="utf-8-sig")
    reader = csv.reader(io.StringIO(text, newline=""))
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
        yield Row(dict(zip(header, record, strict=True)), path, start)


class _LocatingDecoder(json.JSONDecoder):
    """A JSON decoder whose objects are `LocatedDict`s (uses the standard library's pure-Python scanner)."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self._newlines = [match.start() for match in re.finditer("\n", text)]
        self.parse_object = self._parse_object
        self.scan_once = json.scanner.py_make_scanner(self)  # type: ignore[attr-defined]

    def _parse_object(self, s_and_end: tuple[str, int], *args: Any) -> tuple[LocatedDict, int]:
        value, end = json.decoder.JSONObject(s_and_end, *args)  # type: ignore[attr-defined]
        located = LocatedDict(value)
        located.line = bisect.bisect_left(self._newlines, s_and_end[1]) + 1
        return located, end


def _read_text(path: Path, encoding: str = "utf-8") -> str:
    require_file(path)
    try:
        return path.read_text(encoding=encoding)
    except (OSError, UnicodeDecodeError) as exc:
        raise DatasetError(f"{path}: cannot read: {exc}") from None
