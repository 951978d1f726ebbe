"""Entry point of the `boundloop` command: parses arguments and turns errors into clear messages."""

from __future__ import annotations

import argparse
import importlib
import os
import sys

from boundloop import __version__
from boundloop.cli.commands import COMMANDS
from boundloop.policies.errors import BoundloopError

SIGPIPE_EXIT = 141  # what a shell reports for a program ended by a closed pipe (128 + SIGPIPE)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser; only `command`'s arguments are defined (its module imported), the others show their help line."""
    parser = argparse.ArgumentParser(
        prog="boundloop",
        description="Enterprise generative search with a bounded agentic loop.",
    )
    parser.add_argument("--version", action="version", version=f"boundloop {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for entry in COMMANDS:
        p = sub.add_parser(entry.name, help=entry.help, description=entry.help)
        if entry.name == command:
            module, function = entry.define.split(":")
            getattr(importlib.import_module(module), function)(p)
    return parser


def command_of(argv: list[str]) -> str | None:
    """The subcommand named on the command line: the first word that is not an option."""
    return next((arg for arg in argv if not arg.startswith("-")), None)


def _quiet_stdout() -> None:
    """The reader went away (`| head`): send what is left to /dev/null so the exit flush cannot fail again."""
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)


def _debug() -> bool:
    """`BOUNDLOOP_DEBUG`: show the traceback of an internal error (off when the settings themselves are bad)."""
    from boundloop.policies.settings import SettingError, settings  # pydantic-settings: not for `--help`

    try:
        return settings().debug
    except SettingError:
        return False


def main(argv: list[str] | None = None) -> int:
    """Run one command; user errors exit 2 with a one-line message, never a traceback."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    argv = sys.argv[1:] if argv is None else argv
    try:
        parser = build_parser(command_of(argv))
        args = parser.parse_args(argv)
        if not getattr(args, "run", None):
            parser.print_help()
            return 2
        code = int(args.run(args))
        sys.stdout.flush()  # inside the try: a closed pipe surfaces here, not at interpreter exit
        return code
    except BrokenPipeError:
        _quiet_stdout()
        return SIGPIPE_EXIT
    except SystemExit:  # --help, --version and argument errors print, then exit through here
        try:
            sys.stdout.flush()
        except BrokenPipeError:
            _quiet_stdout()
        raise
    except BoundloopError as exc:
        print(f"boundloop: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("boundloop: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # the last line of defence: a message, not a traceback
        if _debug():
            raise
        # The message may quote data the user must not see (ids, text); only its type is shown.
        print(f"boundloop: internal error ({type(exc).__name__}); set BOUNDLOOP_DEBUG=1 for details",
              file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
