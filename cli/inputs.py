"""Checks of what a command was given, made before anything is opened; each failure says what is missing."""

from __future__ import annotations

import argparse

from boundloop.policies.errors import BoundloopError


def require_text_and_user(command: str, what: str, text: str | None, user: str | None) -> None:
    """`ask` and `search` need non-blank text and a user (unless they run a --batch file)."""
    if text is None:
        raise BoundloopError(f"{command} needs a {what} (or --batch FILE.jsonl)")
    if not text.strip():
        raise BoundloopError(f"the {what.lower()} is empty: {command} needs some words to look for")
    if not user:
        raise BoundloopError(f"{command} needs --user NAME: the user to {command} as (from the directory)")


def add_location_args(parser: argparse.ArgumentParser) -> None:
    """The `--index` / `--directory` flags every command that reads an index shares."""
    parser.add_argument("--index", help="index folder (default: $BOUNDLOOP_INDEX, else the demo corpus)")
    parser.add_argument("--directory", help="users-to-groups file (default: $BOUNDLOOP_DIRECTORY)")
