"""Where runs are kept: every run's checkpoints (its trace) and the run registry (owner, question, result).

One interface, `RunStore`, with two implementations: SQLite (`runs.db` beside the index) and PostgreSQL
(`BOUNDLOOP_CHECKPOINT_URL`). Open one with `runstore.location.open_run_store`. The registry's tables are versioned:
`runstore.schema.migrations` lists them once for both databases, and a new table (conversations, say) is one more
migration at the end.
"""
