"""Structured-output schemas of the LLM reasoner, valid under OpenAI's and Azure OpenAI's strict structured outputs.

Understanding, planning and synthesis use mirrors of the loop's models: strict mode makes every field required and
rejects `default` (Azure refuses the schema), and the loop's `Understanding`, `SubQuery` and `Draft` carry defaults;
a sub-query's id is the loop's to assign, not the model's. The mirrors convert to the loop's models at once. The
judgement has its own shape: one check per claim, by index.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from boundloop.domain.models import Claim, Draft, QueryClass, SearchMode, Understanding

AnswerType = Literal["person", "place", "date", "number", "yes_no", "other"]


class StandaloneQuestion(BaseModel):
    """The latest question, rewritten to stand alone."""

    standalone_question: str = Field(description="The latest question with every reference to the earlier turns "
                                                 "replaced by what it refers to; unchanged if it stands alone.")
    follow_up: bool = Field(description="True if the earlier turns were needed to understand it.")


class QuestionUnderstanding(BaseModel):
    """What kind of question this is and what it is about."""

    query_class: QueryClass = Field(description="lookup, multi_hop, comparison, aggregation or out_of_scope.")
    entities: list[str] = Field(description="Named things the question mentions, as written.")
    answer_type: AnswerType = Field(description="The kind of answer wanted.")

    def to_understanding(self) -> Understanding:
        return Understanding(query_class=self.query_class, entities=[e.strip() for e in self.entities if e.strip()],
                             answer_type=self.answer_type)


class Search(BaseModel):
    """One search over the company's documents."""

    text: str = Field(description="The search text: keywords or a short query, not a sentence to the user.")
    mode: SearchMode = Field(description="keyword for exact names, codes, numbers; vector for paraphrase; "
                                            "title for the documents about named things (text: 'name | name'); "
                                            "hybrid otherwise.")
    purpose: str = Field(description="Why this search: the whole question, a compared entity, a named entity.")
    k: int = Field(description="How many passages to fetch, 3 to 10.")


class SearchPlan(BaseModel):
    """The searches of the first round."""

    searches: list[Search] = Field(description="The searches, the whole question first.")


class Answer(BaseModel):
    """The answer: claims citing the documents, and the value the question asks for."""

    claims: list[Claim] = Field(description="Short claims, each citing the ids of the documents that state it.")
    short_answer: str | None = Field(
        description="The value asked for, copied from the documents: an amount with its currency or unit, a date, "
                    "a name, a code, or yes or no. Null when the question asks for an explanation or the documents "
                    "do not answer it."
    )

    def to_draft(self) -> Draft:
        short = " ".join((self.short_answer or "").split()) or None
        return Draft(claims=self.claims, short_answer=short)


class ClaimCheck(BaseModel):
    """The model's judgement of one claim against the documents it cites."""

    claim: int = Field(description="The claim's index, as given in its <claim index=...> tag.")
    supported: bool = Field(description="True only if the cited documents state everything the claim says.")
    reason: str = Field(description="If not supported, what the cited documents do not say; otherwise empty.")


class Judgement(BaseModel):
    """Grounding judgements, one per claim."""

    checks: list[ClaimCheck] = Field(description="One check per claim given.")
