"""`boundloop db init`: set up a PostgreSQL database for an index and print the two URLs to use."""

from __future__ import annotations

import argparse
import json
import shlex
import sys

from boundloop.policies.errors import BoundloopError


def add_db(p: argparse.ArgumentParser) -> None:
    actions = p.add_subparsers(dest="db_command", metavar="ACTION")
    init = actions.add_parser(
        "init", help="create or tighten the writer and reader roles, create pgvector, migrate, print the URLs",
        description="Run once as an administrator. Prints `export` lines for BOUNDLOOP_INDEX (the writer) and "
                    "BOUNDLOOP_PG_READER_URL (searches) on stdout, so `eval \"$(boundloop db init ...)\"` works.",
    )
    init.add_argument("--admin-url", required=True, metavar="URL",
                      help="postgresql://... of a role that may create roles and the vector extension")
    init.add_argument("--database", help="the index database (default: the one --admin-url names); created if missing")
    init.add_argument("--writer-role", default="boundloop_writer", help="default: boundloop_writer")
    init.add_argument("--reader-role", default="boundloop_reader", help="default: boundloop_reader")
    init.add_argument("--new-passwords", action="store_true",
                      help="give existing roles new passwords too (new roles always get one)")
    init.add_argument("--json", action="store_true", help="print the result as JSON")
    init.set_defaults(run=run_init)
    p.set_defaults(run=lambda _args: _usage(p))


def _usage(parser: argparse.ArgumentParser) -> int:
    parser.print_help(sys.stderr)
    return 2


def run_init(args: argparse.Namespace) -> int:
    from boundloop.retrieval.postgres.provision import init_database
    from boundloop.retrieval.postgres.settings import is_postgres_url

    if not is_postgres_url(args.admin_url):
        raise BoundloopError("--admin-url must be a postgresql:// URL")
    result = init_database(args.admin_url, args.database, args.writer_role, args.reader_role, args.new_passwords)
    if args.json:
        print(json.dumps(result.as_dict(), indent=2))
        return 0
    print(f"boundloop db init: database {result.database!r}, pgvector {result.pgvector}, "
          f"schema version {result.schema_version} (applied now: {result.applied or 'none'})", file=sys.stderr)
    for role in (args.writer_role, args.reader_role):
        state = "created, new password" if role in result.created else (
            "tightened, new password" if role in result.new_passwords else "tightened, password unchanged")
        print(f"  role {role}: {state}", file=sys.stderr)
    if set(result.new_passwords) != {args.writer_role, args.reader_role}:
        print("  a URL without a password: add it, or use ~/.pgpass (or --new-passwords)", file=sys.stderr)
    print("Set these (ingest uses the writer, searches the reader):", file=sys.stderr)
    print(f"export BOUNDLOOP_INDEX={shlex.quote(result.writer_url)}")
    print(f"export BOUNDLOOP_PG_READER_URL={shlex.quote(result.reader_url)}")
    return 0
