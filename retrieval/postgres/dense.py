"""Dense candidates: pgvector cosine search that returns `limit` *permitted* chunks.

pgvector 0.6 (what `pgserver` bundles) filters HNSW results after the index scan: the scan yields at most
`hnsw.ef_search` (<= 1000) nearest rows and the ACL filter then drops the forbidden ones, so a user who may see
a small share of the corpus would get fewer than `limit` results (iterative scans only arrived in 0.8). So:

- the share of permitted rows is estimated from per-group chunk counts (`acl_groups`, kept by the writer);
- small permitted sets (<= `exact_below` rows, or cheaper to scan than the HNSW candidate list they would need),
  and shares too small for the widest HNSW candidate list, use an exact scan: the ACL's GIN index finds the
  permitted rows and they are sorted by distance (recall 1);
- otherwise HNSW runs with `ef_search` widened by 1/share times `overfetch`, and by the index's size in units of
  `ef_growth_rows` (a graph of 10x the rows needs a longer candidate list for the same recall), and if it still
  returns fewer than `limit` permitted rows the query is re-run exactly.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Literal

import numpy as np
import psycopg

from boundloop.retrieval.backend import Candidate
from boundloop.retrieval.postgres.session import set_local

HNSW_EF_MAX = 1000  # pgvector's upper bound for hnsw.ef_search


@dataclass(frozen=True)
class DenseTuning:
    """How the dense side trades recall for speed."""

    exact_below: int = 3_000  # always exact up to here: a few milliseconds, and recall 1
    exact_rows_per_ef: float = 12.0  # also exact when permitted <= this * ef_search (measured: docs/postgres.md)
    overfetch: float = 4.0  # 2.0 gave recall@10 of 0.94 for a 73% user at 200k chunks (docs/postgres.md)
    # the candidate list also grows linearly with the index beyond this many chunks: at a fixed ef_search of 274,
    # recall@10 fell from 0.99 at 100k chunks to 0.90 at 1M; 1000 kept 0.97 there (benchmarks/hnsw_recall.py)
    ef_growth_rows: int = 100_000
    ef_min: int = 40


@dataclass(frozen=True)
class DensePlan:
    """`exact`: GIN-filtered rows sorted by distance; `hnsw`: the HNSW index with `ef_search`."""

    method: Literal["exact", "hnsw"]
    ef_search: int = 0


def choose_plan(permitted: int, total: int, limit: int, tuning: DenseTuning) -> DensePlan:
    """Exact for small or selective permitted sets, else HNSW with a candidate list wide enough for the filter.

    Cost model (measured on 384-d vectors): an exact scan costs ~2.5 us per permitted row, HNSW ~30 us per unit of
    ef_search, so exact also wins whenever permitted <= 12 * ef_search.
    """
    if permitted <= tuning.exact_below or total <= 0:
        return DensePlan("exact")
    share = min(1.0, permitted / total)
    if limit / share > HNSW_EF_MAX:
        return DensePlan("exact")
    growth = max(1.0, total / tuning.ef_growth_rows)
    ef = max(tuning.ef_min, limit, min(math.ceil(limit / share * tuning.overfetch * growth), HNSW_EF_MAX))
    if permitted <= tuning.exact_rows_per_ef * ef:
        return DensePlan("exact")
    return DensePlan("hnsw", ef)


PERMITTED_SQL = """
SELECT (SELECT coalesce(sum(chunks), 0) FROM boundloop.acl_groups WHERE name = ANY(%(groups)s::text[])),
       (SELECT value::bigint FROM boundloop.meta WHERE key = 'chunks')
"""

_DENSE_SQL = """
SELECT chunk_id, 1 - (embedding <=> %(vector)s) AS score
FROM boundloop.chunks
WHERE acl && %(groups)s::text[]
ORDER BY embedding <=> %(vector)s  -- no tie-breaker: it would rule out the HNSW index
LIMIT %(limit)s
"""


def plan_settings(plan: DensePlan) -> dict[str, str]:
    """Transaction-local planner settings that make PostgreSQL run `plan` and nothing else."""
    if plan.method == "exact":  # no HNSW: the GIN bitmap on acl (or a scan), then a sort by distance
        return {"enable_indexscan": "off", "enable_seqscan": "on", "enable_bitmapscan": "on"}
    return {"hnsw.ef_search": str(plan.ef_search), "enable_indexscan": "on", "enable_seqscan": "off",
            "enable_bitmapscan": "off"}


def estimate_permitted(conn: psycopg.Connection, groups: list[str]) -> tuple[int, int]:
    """An upper bound of the permitted chunks (a chunk in two of the groups counts twice), and all chunks."""
    row = conn.execute(PERMITTED_SQL, {"groups": groups}).fetchone()
    permitted, total = (int(row[0] or 0), int(row[1] or 0)) if row else (0, 0)
    return min(permitted, total), total


def run_plan(conn: psycopg.Connection, vector: np.ndarray, groups: list[str], limit: int) -> list[Candidate]:
    """The query itself, under whatever plan settings the transaction carries."""
    rows = conn.execute(
        _DENSE_SQL, {"vector": np.asarray(vector, dtype=np.float32), "groups": groups, "limit": limit}
    ).fetchall()
    return [Candidate(chunk_id, float(score)) for chunk_id, score in rows]


def dense_search(
    conn: psycopg.Connection, vector: np.ndarray, groups: list[str], limit: int, tuning: DenseTuning
) -> tuple[list[Candidate], str]:
    """The `limit` nearest permitted chunks inside an entitled transaction, and which plan found them."""
    permitted, total = estimate_permitted(conn, groups)
    if permitted == 0:
        return [], "none"
    plan = choose_plan(permitted, total, limit, tuning)
    set_local(conn, plan_settings(plan))
    found = run_plan(conn, vector, groups, limit)
    if plan.method == "hnsw" and len(found) < min(limit, permitted):
        set_local(conn, plan_settings(DensePlan("exact")))
        return run_plan(conn, vector, groups, limit), "hnsw+exact"
    return found, plan.method
