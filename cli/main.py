"""Entry point of the `boundloop` command: parses arguments and turns errors into clear messages."""

from __future__ import annotations

import argparse
import os
import sys

from policies.errors import BoundloopError


def build_parser() -> argparse.ArgumentParser:
    from cli import db_command, eval_command, loop_commands, retrieval_commands, serve_command

    parser = argparse.ArgumentParser(
        prog="boundloop",
        description="Enterprise generative search with a bounded agentic loop.",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    retrieval_commands.add_ingest(sub)
    retrieval_commands.add_search(sub)
    loop_commands.add_ask(sub)
    loop_commands.add_trace(sub)
    loop_commands.add_stats(sub)
    eval_command.add_eval(sub)
    serve_command.add_serve(sub)
    db_command.add_db(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one command; user errors exit 2 with a one-line message, never a traceback."""
    os.environ.setdefault("HF_HUB_OFFLINE", "1")
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "run", None):
        parser.print_help()
        return 2
    try:
        return int(args.run(args))
    except BoundloopError as exc:
        print(f"boundloop: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("boundloop: interrupted", file=sys.stderr)
        return 130
    except Exception as exc:  # the last line of defence: a message, not a traceback
        if os.environ.get("BOUNDLOOP_DEBUG"):
            raise
        # The message may quote data the user must not see (ids, text); only its type is shown.
        print(f"boundloop: internal error ({type(exc).__name__}); set BOUNDLOOP_DEBUG=1 for details",
              file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main())
