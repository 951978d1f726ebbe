"""The PostgreSQL + pgvector index backend: full-text and HNSW candidates, ACLs enforced by filter and by RLS."""

from boundloop.retrieval.postgres.index import PostgresIndex

__all__ = ["PostgresIndex"]
