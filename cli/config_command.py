"""`boundloop config [--json] [COMMAND ARGS...]`: the effective settings, where each came from, secrets masked.

With a command line after it (`boundloop config serve --port 9000 --index DIR`) it describes the settings that
command would run with: the line is parsed by that command's own parser, a flag whose name is a setting's field
(`--index`, `--directory`, `--demo`, `--access-log`) shows as that setting's source `flag`, and the command's other
options (`--host`, `--port`, `--workers`) follow the settings with their value and whether they were given.
"""

from __future__ import annotations

import argparse
import json
import sys
from typing import Any

from boundloop.cli.config_report import Row, rows
from boundloop.policies.settings import Settings, settings

_NOT_OPTIONS = {"help", "run", "command"}


def add_config(p: argparse.ArgumentParser) -> None:
    p.add_argument("--json", action="store_true", help="print the settings as JSON")
    p.add_argument("command_line", nargs=argparse.REMAINDER, metavar="COMMAND ARGS",
                   help="describe the settings this command line would run with (its flags count as `flag`)")
    p.set_defaults(run=run_config)


def _parsed(command_line: list[str]) -> tuple[str | None, dict[str, tuple[str, Any]], list[dict[str, Any]]]:
    """The command, the settings its flags set (field -> (flag, value)) and its other options, from a command line."""
    if not command_line:
        return None, {}, []
    from boundloop.cli.main import build_parser, command_of

    command = command_of(command_line)
    if command == "config":
        raise SystemExit(_usage_error("config describes another command, not itself"))
    parser = build_parser(command)
    args = parser.parse_args(command_line)  # a bad command line: argparse's usage line and exit 2
    flags: dict[str, tuple[str, Any]] = {}
    options: list[dict[str, Any]] = []
    for action in _actions(parser, command_line):
        if action.dest in _NOT_OPTIONS or not action.option_strings:
            continue
        value = getattr(args, action.dest, None)
        given = value is not None and value is not False and value != action.default
        if action.dest in Settings.model_fields:
            if given:
                flags[action.dest] = (action.option_strings[-1], value)
        else:
            options.append({"flag": action.option_strings[-1], "value": value,
                            "source": "flag" if given else "default"})
    return command, flags, options


def _actions(parser: argparse.ArgumentParser, command_line: list[str], nested: bool = False) -> list[argparse.Action]:
    """The options of the (sub)commands the line names: `runs prune --index DIR` reaches `prune`'s `--index`."""
    found: list[argparse.Action] = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            chosen = next((word for word in command_line if word in action.choices), None)
            if chosen is not None:
                found += _actions(action.choices[chosen], command_line[command_line.index(chosen) + 1:], True)
        elif nested:  # the top level's own options (--version) belong to no command
            found.append(action)
    return found


def _usage_error(message: str) -> int:
    print(f"boundloop config: error: {message}", file=sys.stderr)
    return 2


def run_config(args: argparse.Namespace) -> int:
    command, flags, options = _parsed(list(args.command_line))
    table = rows(settings(), flags)
    if args.json:
        print(json.dumps({
            "command": command,
            "settings": {row.name: {"value": row.value, "source": row.source, "flag": row.flag} for row in table},
            "options": options,
        }, indent=2))
        return 0
    _print_table(table)
    if options:
        print(f"\n{command} options:")
        width = max(len(option["flag"]) for option in options)
        for option in options:
            print(f"  {option['flag']:<{width}}  {_text(option['value']):<24}  {option['source']}")
    return 0


def _print_table(table: list[Row]) -> None:
    width = max(len(row.name) for row in table)
    value_width = min(48, max(len(_text(row.value)) for row in table))
    for row in table:
        source = f"flag ({row.flag})" if row.source == "flag" else row.source
        print(f"{row.name:<{width}}  {_text(row.value):<{value_width}}  {source}")


def _text(value: Any) -> str:
    if value is None:
        return "(unset)"
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, list):
        return ",".join(map(str, value)) or "(none)"
    return str(value)
