"""Where runs are kept: every run's checkpoints (its trace) and the run registry (owner, question, result).

One interface, `RunStore`, with two implementations: SQLite (`runs.db` beside the index, or in
`BOUNDLOOP_STATE_DIR`) and PostgreSQL (`BOUNDLOOP_CHECKPOINT_URL`). Open one with `runstore.location.open_run_store`.
"""
