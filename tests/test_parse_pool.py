"""Folder ingest parses on every core: a process pool for the parse step, results in the folder's order."""

import os

from boundloop.retrieval import parse_pool
from boundloop.retrieval.documents import Document
from boundloop.retrieval.loaders import load_folder
from boundloop.retrieval.parse_pool import MIN_FILES_FOR_POOL, ordered_map
from tests.office_files import write_docx


def _where(n: int) -> tuple[int, int]:
    return n, os.getpid()


def test_a_large_job_list_runs_in_worker_processes_in_order():
    results = list(ordered_map(_where, range(60), workers=2))
    assert [n for n, _ in results] == list(range(60))
    assert os.getpid() not in {pid for _, pid in results}


def test_a_few_files_are_parsed_in_the_calling_process():
    results = list(ordered_map(_where, range(MIN_FILES_FOR_POOL - 1), workers=2))
    assert {pid for _, pid in results} == {os.getpid()}


def test_a_consumer_that_stops_early_leaves_no_work_behind():
    found = ordered_map(_where, range(200), workers=2)
    assert next(found)[0] == 0
    found.close()  # the pool shuts down, its pending files dropped


def test_a_folder_parsed_in_parallel_gives_the_same_documents_in_the_same_order(tmp_path, monkeypatch):
    write_docx(tmp_path / "a-leave.docx")
    for n in range(30):
        (tmp_path / f"note-{n:02d}.md").write_text(f"# Note {n}\n\nRoom {n} is on floor {n % 5}.\n")
    monkeypatch.setattr(parse_pool, "parse_workers", lambda: 2)
    parallel = list(load_folder(tmp_path))
    monkeypatch.setattr(parse_pool, "parse_workers", lambda: 1)
    inline = list(load_folder(tmp_path))
    assert parallel == inline and all(isinstance(item, Document) for item in parallel)
    assert [d.doc_id for d in parallel] == ["a-leave", *[f"note-{n:02d}" for n in range(30)]]
