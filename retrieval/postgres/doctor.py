"""`boundloop doctor` for the PostgreSQL index: the schema version, and row-level security on the index tables."""

from __future__ import annotations

import psycopg

from boundloop.retrieval.postgres.migrations import LATEST, applied_version
from boundloop.retrieval.sqlite_check import Finding

RLS = """
SELECT c.relname, c.relrowsecurity AND c.relforcerowsecurity FROM pg_class c
JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'boundloop' AND c.relname IN ('chunks', 'documents')
"""


def check_postgres_index(url: str, where: str) -> list[Finding]:
    """The schema is the one this version writes, and both tables force row-level security."""
    try:
        with psycopg.connect(url, connect_timeout=10) as conn:
            version = applied_version(conn)
            forced: dict[str, bool] = dict(conn.execute(RLS).fetchall())
    except psycopg.Error as exc:
        return [Finding(False, f"index {where}", f"cannot connect ({type(exc).__name__})")]
    subject = f"index {where}"
    findings = [Finding(version == LATEST, subject, f"schema version {version}, this boundloop writes {LATEST}"
                        + ("" if version == LATEST else ": run `boundloop ingest` once to migrate it"))]
    missing = [name for name in ("chunks", "documents") if not forced.get(name)]
    findings.append(Finding(not missing, subject, "row-level security forced on chunks and documents" if not missing
                            else f"row-level security is not forced on {', '.join(missing)}: re-run the migration"))
    return findings
