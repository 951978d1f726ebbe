"""`boundloop ingest` and `boundloop search`."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from cli.jsonl import run_batch
from cli.workspace import Workspace, add_location_args
from policies.errors import BoundloopError
from retrieval.config import open_backend
from retrieval.documents import SearchHit
from retrieval.embeddings import build_embeddings
from retrieval.errors import IngestError
from retrieval.ingest import IngestReport, delete, ingest
from retrieval.loaders import load_path


def add_ingest(p: argparse.ArgumentParser) -> None:
    p.add_argument("path", nargs="?", help="a .jsonl file or a folder of .md/.txt/.html/.pdf files")
    p.add_argument("--index", help="index folder (default: $BOUNDLOOP_INDEX)")
    p.add_argument("--default-acl", metavar="GROUP", help="group for documents that carry no ACL")
    p.add_argument("--delete", metavar="DOC_ID", action="append", default=[], help="remove a document (repeatable)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(run=run_ingest)


def add_search(p: argparse.ArgumentParser) -> None:
    p.add_argument("query", nargs="?", help="the search text")
    p.add_argument("--user", help="the user to search as (from the directory)")
    p.add_argument("--k", type=int, default=10, help="number of results (default 10)")
    p.add_argument("--mode", choices=["hybrid", "keyword", "vector", "title"], default="hybrid",
                   help="title: the query lists names ('a | b'); finds the documents they title")
    p.add_argument("--json", action="store_true", help="print JSON")
    p.add_argument("--batch", metavar="FILE.jsonl", help='many searches: lines {"id", "user", "question"}')
    p.add_argument("--out", metavar="FILE", help="with --batch: write results here instead of stdout")
    add_location_args(p)
    p.set_defaults(run=run_search)


def _print_report(report: IngestReport, as_json: bool) -> None:
    if as_json:
        print(json.dumps(report.as_dict(), indent=2))
        return
    for problem in report.problems:
        print(f"skipped {problem.location}: {problem.message}", file=sys.stderr)
    print(
        f"{report.seen} documents seen: {report.added} added, {report.updated} updated, "
        f"{report.unchanged} unchanged, {report.deleted} deleted; {report.chunks_written} chunks written"
    )
    if report.no_acl:
        print(f"{report.no_acl} documents have no ACL and are visible to nobody (use --default-acl GROUP)")
    if report.default_acl_applied:
        print(f"{report.default_acl_applied} documents without an ACL got the default group")


def run_ingest(args: argparse.Namespace) -> int:
    index = args.index or os.environ.get("BOUNDLOOP_INDEX")
    if not index:
        raise IngestError("ingest needs an index: pass --index DIR or set BOUNDLOOP_INDEX")
    if not args.path and not args.delete:
        raise IngestError("nothing to do: give a PATH to ingest or --delete DOC_ID")
    items = list(load_path(Path(args.path))) if args.path else []  # read everything before touching the index
    backend = open_backend(index, create=True)
    try:
        report = IngestReport()
        if args.delete:
            report = delete(backend, args.delete)
        if args.path:
            added = ingest(backend, build_embeddings(), items, default_acl=args.default_acl)
            added.deleted, added.problems = report.deleted, report.problems + added.problems
            report = added
    finally:
        backend.close()
    _print_report(report, args.json)
    return 0


def _hits_json(hits: list[SearchHit]) -> list[dict[str, object]]:
    return [hit.model_dump() for hit in hits]


def _print_hits(query: str, user: str, hits: list[SearchHit]) -> None:
    if not hits:
        print(f"No results for {query!r} that {user} may see.")
    for rank, hit in enumerate(hits, start=1):
        where = f" p.{hit.page}" if hit.page else ""
        snippet = hit.text if len(hit.text) <= 220 else hit.text[:217] + "..."
        print(f"{rank:>2}. {hit.title} [{hit.chunk_id}{where}]  score {hit.score:.4f}")
        print(f"    {snippet}")


def run_search(args: argparse.Namespace) -> int:
    if args.k < 1 or args.k > 100:
        raise BoundloopError("--k must be between 1 and 100")
    workspace = Workspace.open(args.index, args.directory)
    if args.batch:
        return run_batch(
            args.batch, args.out,
            lambda user, question: {"query": question, "results": _hits_json(
                workspace.searcher_for(user).search(question, k=args.k, mode=args.mode))},
            desc="searching",
        )
    if not args.query or not args.query.strip() or not args.user:
        raise BoundloopError('search needs a QUERY and --user NAME (or --batch FILE.jsonl)')
    searcher = workspace.searcher_for(args.user)
    hits = searcher.search(args.query, k=args.k, mode=args.mode)
    if args.json:
        print(json.dumps({"query": args.query, "user": args.user, "results": _hits_json(hits)}, indent=2))
    else:
        _print_hits(args.query, args.user, hits)
    return 0
