"""The table of `boundloop` commands: each one's name, one-line help, and where its arguments are defined.

`boundloop --help` reads only this table; a command's module (and everything it imports) loads only when that
command runs or shows its own help, so the top-level help stays fast.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Command:
    """One subcommand: `define` is "module:function", a function that adds its arguments to a parser."""

    name: str
    help: str
    define: str


COMMANDS: tuple[Command, ...] = (
    Command("ask", "ask a question: cited claims, a fallback list, or an honest abstention",
            "boundloop.cli.loop_commands:add_ask"),
    Command("chat", "an interactive conversation: follow-up questions, sources under each answer",
            "boundloop.cli.chat_command:add_chat"),
    Command("feedback", "rate an answer: --score 1 or -1, with an optional --comment",
            "boundloop.cli.feedback_command:add_feedback"),
    Command("search", "hybrid search, trimmed to what the user may see",
            "boundloop.cli.search_command:add_search"),
    Command("ingest", "add, update, sync or delete documents (JSONL file or folder) in an index",
            "boundloop.cli.ingest_command:add_ingest"),
    Command("trace", "print every transition of a past run", "boundloop.cli.loop_commands:add_trace"),
    Command("stats", "hops per class and limit hits over past runs", "boundloop.cli.loop_commands:add_stats"),
    Command("runs", "manage the run store: `runs prune` applies the retention now",
            "boundloop.cli.runs_command:add_runs"),
    Command("doctor", "check the index, the run store and the encoder (read-only)",
            "boundloop.cli.doctor_command:add_doctor"),
    Command("setup", "prepare the offline encoder and the demo index (once, after install)",
            "boundloop.cli.setup_command:add_setup"),
    Command("eval", "score the loop against one-hop and untargeted baselines on a dataset",
            "boundloop.cli.eval_command:add_eval"),
    Command("serve", "serve the HTTP API (POST /ask, /ask/stream, /ingest; GET /runs, /metrics)",
            "boundloop.cli.serve_command:add_serve"),
    Command("config", "the effective settings and where each came from (default, environment, flag); secrets masked",
            "boundloop.cli.config_command:add_config"),
    Command("db", "set up a PostgreSQL index database: roles, pgvector, schema, and the URLs to use",
            "boundloop.cli.db_command:add_db"),
)
