"""A rating, sent to LangSmith as feedback on the rated run's trace when LangSmith tracing is configured.

The runner gives each run's LangSmith trace the run's own id (`loop.runner`), so the rating lands on the trace of
the answer it rates, under the key `user_score`: 1 for helpful and 0 for not (LangSmith's thumbs), with the comment.
Rating again updates the same feedback. Nothing is sent unless tracing is on (`LANGSMITH_TRACING=true`) and a key is
set (`LANGSMITH_API_KEY`). A failure is logged, never raised: the rating is stored with the run either way.
"""

from __future__ import annotations

import logging
import os
import uuid
from collections.abc import Callable
from typing import Any

from boundloop.domain.feedback import Feedback

log = logging.getLogger(__name__)
FEEDBACK_KEY = "user_score"
_NAMESPACE = uuid.UUID("5a0e7c0e-6f0b-4f7e-9a51-b0d1f00dfeed")


def tracing_configured() -> bool:
    """LangSmith's switches as the process has them now: tracing set to true, and an API key."""
    # LangSmith's own variables, read as the library reads them (not deployment settings of ours)
    switch = (os.environ.get("LANGSMITH_TRACING") or os.environ.get("LANGSMITH_TRACING_V2")
              or os.environ.get("LANGCHAIN_TRACING_V2") or "")
    return switch.strip().lower() == "true" and bool(os.environ.get("LANGSMITH_API_KEY")
                                                     or os.environ.get("LANGCHAIN_API_KEY"))


def _client() -> Any:
    from langsmith import Client

    return Client()


class LangSmithFeedback:
    """Sends ratings to LangSmith; `client_factory` makes the client (a fake in tests: nothing leaves the machine)."""

    def __init__(self, client_factory: Callable[[], Any] = _client,
                 configured: Callable[[], bool] = tracing_configured) -> None:
        self.client_factory = client_factory
        self.configured = configured

    def send(self, run_id: str, feedback: Feedback) -> bool:
        """Whether the rating reached LangSmith (False when tracing is off or the call failed)."""
        if not self.configured():
            return False
        score = 1 if feedback.score > 0 else 0
        feedback_id = uuid.uuid5(_NAMESPACE, run_id)
        try:
            from langsmith.utils import LangSmithConflictError

            client = self.client_factory()
            try:
                client.create_feedback(run_id=uuid.UUID(run_id), key=FEEDBACK_KEY, score=score,
                                       comment=feedback.comment, feedback_id=feedback_id)
            except LangSmithConflictError:  # rated before: the same feedback, updated
                client.update_feedback(feedback_id, score=score, comment=feedback.comment)
        except Exception as exc:  # the rating is stored; LangSmith is a copy
            log.warning("feedback for run %s not sent to LangSmith: %s", run_id, type(exc).__name__)
            return False
        return True
