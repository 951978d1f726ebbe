"""Parse a folder's files on every core: a process pool for the parse step only, results in the folder's order.

Parsing (Word, PDF, XML in Python) is CPU-bound and holds the GIL, so threads would not help; the writing stays in
the calling process, in its one transaction. The pool is started with `spawn`: by the time files are parsed the
encoder's runtime has threads of its own, and forking a process with threads can hang the child. At most
`AHEAD_PER_WORKER` files per worker are parsed ahead of the consumer, so memory holds a few documents, not the
folder, whatever its size. A folder of a few files is parsed in the calling process (starting workers costs more).
"""

from __future__ import annotations

import multiprocessing
import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ProcessPoolExecutor
from typing import TypeVar

J = TypeVar("J")
R = TypeVar("R")

AHEAD_PER_WORKER = 8
MIN_FILES_FOR_POOL = 16
"""Fewer files than this are parsed in the calling process: two workers take about a second to start."""


def parse_workers() -> int:
    """The cores this process may use (its CPU affinity, as a container or `taskset` limits it)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def ordered_map(work: Callable[[J], R], jobs: Iterable[J], workers: int | None = None) -> Iterator[R]:
    """`work(job)` for every job, in the jobs' order, on `workers` processes (default: every usable core)."""
    workers = workers or parse_workers()
    pending = iter(jobs)
    head = [job for _, job in zip(range(MIN_FILES_FOR_POOL), pending, strict=False)]
    if workers < 2 or len(head) < MIN_FILES_FOR_POOL:
        yield from map(work, head)
        yield from map(work, pending)  # empty when the folder was small
        return
    pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"))
    try:
        queue: deque[Future[R]] = deque(pool.submit(work, job) for job in head)
        for job in pending:
            while len(queue) >= workers * AHEAD_PER_WORKER:
                yield queue.popleft().result()
            queue.append(pool.submit(work, job))
        while queue:
            yield queue.popleft().result()
    finally:  # also when the consumer stops early (an ingest that failed): the files not parsed yet are dropped
        pool.shutdown(wait=True, cancel_futures=True)
