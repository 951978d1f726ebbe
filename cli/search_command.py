"""`boundloop search`: hybrid search trimmed to what a user may see."""

from __future__ import annotations

import argparse
import json

from boundloop.cli.inputs import add_location_args, require_text_and_user
from boundloop.cli.jsonl import run_batch
from boundloop.loop.workspace import Workspace
from boundloop.policies.errors import BoundloopError
from boundloop.retrieval.documents import SearchHit


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


def _hits_json(hits: list[SearchHit]) -> list[dict[str, object]]:
    return [hit.model_dump() for hit in hits]


def _print_hits(query: str, user: str, hits: list[SearchHit]) -> None:
    if not hits:
        print(f"No results for {query!r} that {user} may see.")
    for rank, hit in enumerate(hits, start=1):
        where = f" p.{hit.page}" if hit.page else (f" sheet {hit.sheet}" if hit.sheet else "")
        snippet = hit.text if len(hit.text) <= 220 else hit.text[:217] + "..."
        print(f"{rank:>2}. {hit.title} [{hit.chunk_id}{where}]  score {hit.score:.4f}")
        print(f"    {snippet}")


def run_search(args: argparse.Namespace) -> int:
    if args.k < 1 or args.k > 100:
        raise BoundloopError("--k must be between 1 and 100")
    if not args.batch:
        require_text_and_user("search", "QUERY", args.query, args.user)
    workspace = Workspace.open(args.index, args.directory)
    if args.batch:
        return run_batch(
            args.batch, args.out,
            lambda user, question: {"query": question, "results": _hits_json(
                workspace.searcher_for(user).search(question, k=args.k, mode=args.mode))},
            desc="searching",
        )
    searcher = workspace.searcher_for(args.user)
    hits = searcher.search(args.query, k=args.k, mode=args.mode)
    if args.json:
        print(json.dumps({"query": args.query, "user": args.user, "results": _hits_json(hits)}, indent=2))
    else:
        _print_hits(args.query, args.user, hits)
    return 0
