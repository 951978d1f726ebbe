"""Feedback on runs, kept with the run in the registry (so it goes when the run goes): the latest rating wins."""

from __future__ import annotations

from datetime import UTC, datetime

from boundloop.domain.feedback import Feedback, Rating
from boundloop.runstore.sql import SqlStore


class FeedbackRecords(SqlStore):
    """A run's owner's rating, in the run's own registry row."""

    def record_feedback(self, run_id: str, rating: Rating) -> Feedback:
        """Store the rating (replacing an earlier one) with the time now; the stored feedback."""
        stored = Feedback(score=rating.score, comment=rating.comment, time=datetime.now(UTC))
        self._execute("UPDATE boundloop_runs SET feedback_score=?, feedback_comment=?, feedback_at=? WHERE run_id=?",
                      (stored.score, stored.comment, stored.time.timestamp(), run_id))
        return stored

    def feedback(self, run_id: str) -> Feedback | None:
        rows = self._rows("SELECT feedback_score, feedback_comment, feedback_at FROM boundloop_runs "
                          "WHERE run_id=? AND feedback_score IS NOT NULL", (run_id,))
        if not rows:
            return None
        row = rows[0]
        return Feedback.model_validate({"score": int(row["feedback_score"]), "comment": row["feedback_comment"],
                                        "time": datetime.fromtimestamp(float(row["feedback_at"]), UTC)})
