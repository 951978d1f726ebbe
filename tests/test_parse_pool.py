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


def test_the_progress_bar_counts_files_read_beside_chunks(tmp_path, capsys):
    from boundloop.retrieval.ingest import ingest
    from boundloop.retrieval.sqlite_index import SqliteIndex
    from tests.conftest import HashEncoder

    sentence = "Room {n} on floor {k} holds {k} desks and a printer for the team. "
    for n in range(20):
        (tmp_path / f"room-{n:02d}.md").write_text(f"# Room {n}\n\n" + "\n\n".join(
            sentence.format(n=n, k=k) * 6 for k in range(30)))
    index = SqliteIndex(tmp_path / "idx", create=True)
    report = ingest(index, HashEncoder(), load_folder(tmp_path), show_progress=True)
    index.close()
    err = capsys.readouterr().err
    assert report.chunks_written > 256 and "embedding" in err and "20 files read" in err
