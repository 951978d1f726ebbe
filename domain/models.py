"""Typed records of the loop: understanding, plans, evidence, assessments, claims and verdicts.

The same models are the structured-output schemas of the LLM reasoner.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, Field

from boundloop.domain.names import join_names, split_names

QueryClass = Literal["lookup", "multi_hop", "comparison", "aggregation", "out_of_scope"]
Status = Literal["answered", "abstained", "fallback"]
SearchMode = Literal["keyword", "vector", "hybrid", "title"]
"""Which retrieval a sub-query uses: exact terms, meaning, both fused, or the documents the names title."""


class Understanding(BaseModel):
    """What kind of question this is and what it is about."""

    query_class: QueryClass = Field(description="lookup, multi_hop, comparison, aggregation or out_of_scope.")
    entities: list[str] = Field(default_factory=list, description="Named things the question mentions.")
    answer_type: str = Field(default="other", description="person, place, date, number, yes_no or other.")


class SubQuery(BaseModel):
    """One search the plan or a refinement asks for."""

    id: str = Field(description="Stable id, e.g. 'q0', 'q1', 'r1'.")
    text: str = Field(description="The search text; for mode 'title', names separated by ' | '.")
    mode: SearchMode = Field(
        default="hybrid",
        description="Which retrieval to use: keyword, vector, hybrid, or title (the documents the names title).",
    )
    purpose: str = Field(default="", description="Why this search: the whole question, an entity, a gap.")
    k: int = Field(default=5, ge=1, le=20, description="How many passages to fetch.")
    mentions: str = Field(default="", description="A name the passages should state: those that do come first "
                          "(a bridge search for the 'Learning & Development Lead' wants that role's row).")

    def shown(self, names: int = 8) -> str:
        """The search as traces show it: a title lookup's first names only (it may list hundreds)."""
        if self.mode != "title":
            return self.text
        listed = split_names(self.text)
        more = f" (+{len(listed) - names} more names)" if len(listed) > names else ""
        return join_names(listed[:names]) + more


class Plan(BaseModel):
    """The typed sub-queries of the first hop."""

    subqueries: list[SubQuery] = Field(description="Searches to run in the first hop.")


class Evidence(BaseModel):
    """A permitted chunk the trimmed backend returned, and which searches found it."""

    chunk_id: str = Field(description="The chunk's id.")
    doc_id: str = Field(description="Its document.")
    title: str = Field(description="The document's title.")
    text: str = Field(description="The chunk's text.")
    score: float = Field(description="Best fused score over the searches that found it.")
    hop: int = Field(description="The hop (1-based) that first found it.")
    found_by: list[str] = Field(default_factory=list, description="Ids of the sub-queries that returned it.")
    rank: int = Field(default=1, description="Best rank in any search that returned it.")
    page: int | None = Field(default=None, description="Page, for paginated sources.")
    sheet: str | None = Field(default=None, description="The workbook sheet the chunk is on, if any.")
    document_date: str | None = Field(default=None, description="The document's own date, ISO ('2025-03-14', "
                                      "'2025-03', '2025'); None when it gives none or was indexed before dates.")
    heading_path: list[str] = Field(default_factory=list, description="The headings the chunk starts under, from "
                                    "its document's top (stored at ingest); empty for an index from before units.")
    lead: str = Field(default="", description="The lead-in ('The following roles may approve:') its first lines "
                      "read under when an earlier chunk holds it; '' when none or not stored.")


class Coverage(BaseModel):
    """How well one sub-query is answered by the evidence so far."""

    subquery_id: str = Field(description="The sub-query.")
    covered: bool = Field(description="Whether the evidence covers it.")
    score: float = Field(description="Fraction of its key terms found in its evidence, 0 to 1.")
    missing_terms: list[str] = Field(default_factory=list, description="Key terms no evidence contains.")


class Conflict(BaseModel):
    """Evidence that disagrees about one value; when the reader settled it, which value is in force and why."""

    topic: str = Field(description="What the values are about.")
    values: list[str] = Field(description="The differing values (the one in force first, when settled).")
    chunk_ids: list[str] = Field(description="Chunks stating them, in the order of `values`.")
    in_force: str | None = Field(default=None, description="The value in force, which the answer uses; null when "
                                 "the conflict was not settled.")
    in_force_chunk_id: str | None = Field(default=None, description="The chunk stating the value in force.")
    dates: list[str | None] = Field(default_factory=list, description="When each value took effect (ISO: its "
                                    "statement's own date, else its document's; null when undated), in the order "
                                    "of `values`; empty when not settled.")
    reason: str | None = Field(default=None, description="Why the other value was set aside: 'changed' (the "
                               "statement in force says it changed it), 'approved' (it is superseded, a draft or a "
                               "proposal), 'later' (a later date), 'later document' (a later document date).")


class Gap(BaseModel):
    """What the evidence still lacks, named precisely enough to search for."""

    kind: Literal["uncovered_subquery", "missing_terms", "bridge", "conflict", "unfinished_list"] = Field(
        description="Kind of gap.")
    description: str = Field(description="The gap in words.")
    subquery_id: str | None = Field(default=None, description="The sub-query not covered, if any.")
    terms: list[str] = Field(default_factory=list, description="Terms still missing from the evidence.")
    bridge_entities: list[str] = Field(default_factory=list, description="Entities found so far that may lead on.")
    context: str = Field(default="", description="The evidence sentence the next search should build on.")
    links: list[str] = Field(
        default_factory=list, description="Names in the evidence that may title a document not yet retrieved."
    )


class Assessment(BaseModel):
    """The evaluate step's verdict on the evidence so far."""

    coverage: list[Coverage] = Field(default_factory=list, description="Coverage per sub-query.")
    question_coverage: float = Field(default=0.0, description="Fraction of the question's key terms in evidence.")
    conflicts: list[Conflict] = Field(default_factory=list, description="Disagreements between evidence.")
    gap: Gap | None = Field(default=None, description="The most important gap, or none.")


class Refinement(BaseModel):
    """The refine-or-stop decision."""

    action: Literal["retrieve", "stop"] = Field(description="Search again for the gap, or stop.")
    subqueries: list[SubQuery] = Field(default_factory=list, description="Targeted searches for the gap.")
    reason: str = Field(description="Why.")


class Claim(BaseModel):
    """One statement of the answer, with the chunks it stands on."""

    text: str = Field(description="The statement.")
    citations: list[str] = Field(description="Chunk ids that support it.")


class Draft(BaseModel):
    """The synthesiser's claims, before verification."""

    claims: list[Claim] = Field(default_factory=list, description="Claims with citation markers.")
    short_answer: str | None = Field(
        default=None,
        description="The value the question asks for (an amount with its unit, a date, a name, a code, yes or no), "
        "taken from the claims; null when the question asks for an explanation or nothing answers it.",
    )
    conflicts: list[Conflict] = Field(
        default_factory=list, description="Other values for the answer, e.g. in a superseded document, not used."
    )


class Verdict(BaseModel):
    """The verifier's judgement of one claim."""

    claim: Claim = Field(description="The claim judged.")
    supported: bool = Field(description="Whether it ships.")
    reason: str = Field(default="", description="Why it was dropped, if it was.")


class ClaimReading(BaseModel):
    """Which of the reader's named rules read a claim: how the answer was read, for diagnosing a wrong one."""

    claim: int = Field(description="The claim's index in `claims`, from 0.")
    rule: str = Field(description="The named rule that read it (e.g. 'best_chain', 'each_document_field'; a model's "
                      "draft: the reasoner's name).")


class Citation(BaseModel):
    """A numbered source of the answer."""

    marker: int = Field(description="The [n] marker used in the answer.")
    doc_id: str
    chunk_id: str
    title: str
    page: int | None = None
    sheet: str | None = None
    """The workbook sheet the cited passage is on; None when it is not on one."""


class FallbackResult(BaseModel):
    """A permitted search result offered when no grounded answer exists."""

    doc_id: str
    chunk_id: str
    title: str
    snippet: str
    score: float
