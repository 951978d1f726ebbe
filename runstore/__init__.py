"""Where runs are kept: every run's checkpoints (its trace) and the run registry (owner, question, result).

One interface, `RunStore`, with two implementations: SQLite (`runs.db` beside the index) and PostgreSQL
(`BOUNDLOOP_CHECKPOINT_URL`). Open one with `runstore.location.open_run_store`. The registry's tables are versioned:
each store lists its migrations (`MIGRATIONS`), and a new table (conversations, say) is one more at the end.
"""
