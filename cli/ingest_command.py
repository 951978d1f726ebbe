"""`boundloop ingest`: add, update, sync or delete documents, all or nothing."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from boundloop.policies.settings import settings
from boundloop.retrieval.config import open_backend
from boundloop.retrieval.documents import LoadProblem
from boundloop.retrieval.embeddings import build_embeddings
from boundloop.retrieval.errors import IngestError
from boundloop.retrieval.ingest import IngestReport, SyncScope, delete, ingest, refusing_problems
from boundloop.retrieval.loaders import load_path

BAD_LINES_SHOWN = 20  # a refused JSONL file lists this many bad lines, then how many more
PROBLEMS_SHOWN = 20  # skipped files listed before a count
NAMED_MAX = 10  # documents named in a summary line before a count


def add_ingest(p: argparse.ArgumentParser) -> None:
    p.add_argument("path", nargs="?", metavar="PATH", help="a .jsonl file or a folder of documents "
                   "(.md .txt .html .pdf .docx .pptx .xlsx .csv .eml .msg)")
    p.add_argument("--index", help="index folder (default: $BOUNDLOOP_INDEX)")
    p.add_argument("--default-acl", metavar="GROUP",
                   help="group for documents that name no ACL (an explicit empty ACL stays visible to nobody)")
    p.add_argument("--sync", action="store_true",
                   help="also remove the documents ingested from PATH before that it no longer holds")
    p.add_argument("--skip-bad", action="store_true",
                   help="JSONL: ingest the good lines when some are bad (without it, nothing is written)")
    p.add_argument("--follow-links", action="store_true",
                   help="folders: follow symbolic links that stay inside the folder (never those that leave it)")
    p.add_argument("--delete", metavar="DOC_ID", action="append", default=[], help="remove a document (repeatable)")
    p.add_argument("--json", action="store_true", help="print the report as JSON")
    p.set_defaults(run=run_ingest)


def _names(ids: list[str], limit: int = NAMED_MAX) -> str:
    """The first `limit` ids, then how many more."""
    shown = ", ".join(ids[:limit])
    return shown + (f" and {len(ids) - limit} more" if len(ids) > limit else "")


def _print_report(report: IngestReport, args: argparse.Namespace) -> None:
    if args.json:
        print(json.dumps(report.as_dict(), indent=2))
        return
    for problem in report.problems[:PROBLEMS_SHOWN]:
        print(f"skipped {problem.location}: {problem.message}", file=sys.stderr)
    if len(report.problems) > PROBLEMS_SHOWN:
        print(f"skipped {len(report.problems) - PROBLEMS_SHOWN} more (--json lists them all)", file=sys.stderr)
    print(
        f"{report.seen} documents seen: {report.added} added, {report.updated} updated, "
        f"{report.unchanged} unchanged, {report.deleted} deleted; {report.chunks_written} chunks written"
    )
    if report.no_acl_ids:
        print(f"{len(report.no_acl_ids)} documents have no ACL and are visible to nobody (use --default-acl GROUP): "
              f"{_names(report.no_acl_ids)}")
    if report.empty_acl_ids:
        print(f"{len(report.empty_acl_ids)} documents have an empty ACL and are visible to nobody: "
              f"{_names(report.empty_acl_ids)}")
    if report.default_acl_applied:
        print(f"{report.default_acl_applied} documents without an ACL got the default group")
    if report.comments_stripped:
        print(f"{report.comments_stripped} comments stripped (<!-- ... --> is not content)")
    if report.stale_ids:
        why = ("not removed: lines were skipped, so what they held is unknown" if args.sync
               else "--sync removes them")
        print(f"{len(report.stale_ids)} stale documents remain, no longer in {args.path} ({why}): "
              f"{_names(report.stale_ids)}")


def _refuse_bad_lines(path: Path, problems: list[LoadProblem]) -> None:
    """A JSONL file with any bad line is not ingested at all (unless --skip-bad): every bad line is listed."""
    lines = [f"  {p.location}: {p.message}" for p in problems[:BAD_LINES_SHOWN]]
    if len(problems) > BAD_LINES_SHOWN:
        lines.append(f"  ... and {len(problems) - BAD_LINES_SHOWN} more")
    raise IngestError(
        f"{len(problems)} bad line(s) in {path}; nothing was written (--skip-bad ingests the good lines):\n"
        + "\n".join(lines)
    )


def run_ingest(args: argparse.Namespace) -> int:
    index = args.index or settings().index
    if not index:
        raise IngestError("ingest needs an index: pass --index DIR or set BOUNDLOOP_INDEX")
    if not args.path and not args.delete:
        raise IngestError("nothing to do: give a PATH to ingest or --delete DOC_ID")
    if args.sync and not args.path:
        raise IngestError("--sync needs the PATH to sync with")
    path = Path(args.path) if args.path else None
    strict = path is not None and not path.is_dir() and not args.skip_bad  # a JSONL file: all lines or none
    items = load_path(path, args.follow_links) if path else iter([])  # a bad path or manifest stops here
    if path is not None and strict:  # read once before touching the index, keeping only the bad lines
        bad = [item for item in load_path(path) if isinstance(item, LoadProblem)]
        if bad:
            _refuse_bad_lines(path, bad)
        items = refusing_problems(items)
    # only an ingest creates an index: a delete on a mistyped --index is an error, not a new empty index
    backend = open_backend(index, create=path is not None)
    try:
        report = IngestReport()
        if args.delete:
            report = delete(backend, args.delete)
        if path is not None:
            scope = SyncScope(str(path.resolve()), remove=args.sync)
            added = ingest(backend, build_embeddings(), items, default_acl=args.default_acl, scope=scope)
            added.deleted += report.deleted
            added.problems = report.problems + added.problems
            report = added
    finally:
        backend.close()
    _print_report(report, args)
    if path is not None and report.problems and not report.seen:  # every file was bad: a failure, not a no-op
        print(f"no document of {path} could be read", file=sys.stderr)
        return 2
    return 0
