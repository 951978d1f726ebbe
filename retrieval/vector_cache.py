"""An in-memory copy of the index's vectors, with per-group row sets, for exact ACL-filtered dense search."""

from __future__ import annotations

import json
import sqlite3
from dataclasses import dataclass, field

import numpy as np

from boundloop.policies.entitlements import AccessFilter
from boundloop.retrieval.backend import Candidate
from boundloop.retrieval.errors import IndexStoreError

MAX_CACHED_FILTERS = 256


def similarities(matrix: np.ndarray, vector: np.ndarray) -> np.ndarray:
    """Dot product of every row with `vector`, on the calling thread only.

    `matrix @ vector` is a BLAS gemv that OpenBLAS spreads over its own thread pool, which then contends with the
    keyword query running beside it in a hybrid search. `np.vecdot` takes one row at a time on this thread:
    as fast as single-threaded gemv, without changing BLAS threading for the whole process (as threadpoolctl would).
    """
    return np.vecdot(matrix, vector.astype(np.float32, copy=False))


@dataclass
class VectorCache:
    """Vectors of one index generation. Rebuilt when an ingest bumps the generation."""

    generation: str
    chunk_ids: list[str]
    matrix: np.ndarray
    group_rows: dict[str, np.ndarray]
    permitted: dict[frozenset[str], np.ndarray] = field(default_factory=dict)
    """Row sets already computed for a set of groups (a user's filter is the same on every query)."""

    @classmethod
    def load(cls, conn: sqlite3.Connection, generation: str, dimension: int) -> VectorCache:
        """Every chunk's vector and ACL, read in one transaction (the row count and the rows share a snapshot).

        The matrix is allocated once and filled row by row: loading peaks at about one matrix, not two.
        """
        row_bytes = dimension * 4
        conn.execute("BEGIN")
        try:
            (count,) = conn.execute("SELECT count(*) FROM chunks").fetchone()
            matrix = np.empty((count, dimension), dtype=np.float32)
            chunk_ids: list[str] = []
            members: dict[str, list[int]] = {}
            for position, (chunk_id, acl, vector) in enumerate(
                conn.execute("SELECT chunk_id, acl, vector FROM chunks ORDER BY id")
            ):
                if len(vector) != row_bytes:
                    raise IndexStoreError(f"chunk {chunk_id!r} has a {len(vector)}-byte vector, not {row_bytes}")
                matrix[position] = np.frombuffer(vector, dtype=np.float32)
                chunk_ids.append(chunk_id)
                for group in json.loads(acl):
                    members.setdefault(group, []).append(position)
        finally:
            conn.execute("COMMIT")
        group_rows = {g: np.asarray(rows, dtype=np.int64) for g, rows in members.items()}
        return cls(generation, chunk_ids, matrix, group_rows)

    def permitted_rows(self, access: AccessFilter) -> np.ndarray:
        """Row positions the filter permits (the union of the user's groups), computed once per group set."""
        rows = self.permitted.get(access.groups)
        if rows is None:
            parts = [self.group_rows[g] for g in access.groups if g in self.group_rows]
            if not parts:
                rows = np.empty(0, dtype=np.int64)
            else:
                rows = parts[0] if len(parts) == 1 else np.unique(np.concatenate(parts))
            if len(self.permitted) >= MAX_CACHED_FILTERS:
                self.permitted.clear()
            self.permitted[access.groups] = rows
        return rows

    def search(self, vector: np.ndarray, access: AccessFilter, limit: int) -> list[Candidate]:
        """The `limit` most similar permitted chunks: ranking happens only among permitted rows."""
        rows = self.permitted_rows(access)
        if rows.size == 0 or limit <= 0:
            return []
        scores = similarities(self.matrix, vector)[rows]
        take = min(limit, rows.size)
        top = np.argpartition(-scores, take - 1)[:take]
        top = top[np.argsort(-scores[top], kind="stable")]
        return [Candidate(self.chunk_ids[rows[i]], float(scores[i])) for i in top]
