"""A record read from a dataset file, with typed field access whose errors name the file and line."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from boundloop.evals.datasets.errors import DatasetError


class Row:
    """One record and where it was read; the typed accessors raise a `DatasetError` that names the place."""

    def __init__(self, data: Mapping[str, Any], path: Path | str, line: int | None = None) -> None:
        self.data = data
        self.path = str(path)
        self.line = line

    @property
    def where(self) -> str:
        """`file:line`, or just the file when the line is unknown."""
        return self.path if self.line is None else f"{self.path}:{self.line}"

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
            raise self.error(f"field {key!r} must be a non-empty string, got {shown(value)}")
        return value

    def integer(self, key: str) -> int:
        """An integer field (booleans are not integers here)."""
        value = self.data.get(key)
        if not isinstance(value, int) or isinstance(value, bool):
            raise self.error(f"field {key!r} must be an integer, got {shown(value)}")
        return value

    def flag(self, key: str, default: bool | None = None) -> bool:
        """A boolean field; `default` when absent, or an error when there is no default."""
        value = self.data.get(key, default)
        if not isinstance(value, bool):
            raise self.error(f"field {key!r} must be true or false, got {shown(value)}")
        return value

    def items(self, key: str) -> list[Any]:
        """A list field."""
        value = self.data.get(key)
        if not isinstance(value, list):
            raise self.error(f"field {key!r} must be a list, got {shown(value)}")
        return value

    def strings(self, key: str, default: list[str] | None = None) -> list[str]:
        """A list-of-strings field; `default` when absent, or an error when there is no default."""
        value = self.data.get(key, default)
        if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
            raise self.error(f"field {key!r} must be a list of strings, got {shown(value)}")
        return value

    def child(self, value: Any, what: str) -> Row:
        """A nested object as a row, located at its own line when the file tells it."""
        if not isinstance(value, dict):
            raise self.error(f"{what} must be an object, got {shown(value)}")
        return Row(value, self.path, value.line if isinstance(value, LocatedDict) else self.line)

    def mapping(self, key: str) -> Row:
        """An object field as a row."""
        return self.child(self.data.get(key), f"field {key!r}")

    def rows(self, key: str) -> list[Row]:
        """A list-of-objects field as rows."""
        return [self.child(item, f"{key}[{i}]") for i, item in enumerate(self.items(key))]


class LocatedDict(dict[str, Any]):
    """A JSON object that remembers the line it starts on."""

    line = 0


def shown(value: Any) -> str:
    """A short repr of a bad value for an error message."""
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
