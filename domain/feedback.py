"""A user's rating of one of their answers: thumbs up or down, and an optional comment."""

from __future__ import annotations

from datetime import datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

MAX_COMMENT_CHARS = 2000


class Rating(BaseModel):
    """Thumbs up or down on an answer, with an optional comment: what its owner sends."""

    model_config = ConfigDict(extra="forbid")

    score: Literal[1, -1] = Field(description="1 (helpful) or -1 (not helpful).")
    comment: str | None = Field(default=None, max_length=MAX_COMMENT_CHARS,
                                description=f"Optional, at most {MAX_COMMENT_CHARS:,} characters.")

    @field_validator("score", mode="before")
    @classmethod
    def _a_whole_number(cls, score: Any) -> Any:
        """1 or -1 exactly: true, 1.0 or "1" are refused rather than read as a score."""
        if isinstance(score, bool) or not isinstance(score, int):
            raise ValueError("score must be 1 or -1")
        return score

    @field_validator("comment", mode="before")
    @classmethod
    def _blank_is_none(cls, comment: Any) -> Any:
        if isinstance(comment, str):
            return comment.strip() or None
        return comment


class Feedback(Rating):
    """The latest rating of a run by its owner, as stored with the run; a new rating replaces it."""

    time: datetime = Field(description="When it was given (UTC).")
