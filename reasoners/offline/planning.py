"""Offline planning and refinement: which searches to run first, and the targeted search for a named gap."""

from __future__ import annotations

from boundloop.domain.models import Assessment, Plan, Refinement, SearchMode, SubQuery, Understanding
from boundloop.domain.names import join_names
from boundloop.domain.text import name_spans, stems
from boundloop.domain.words import content_terms
from boundloop.reasoners.offline.choices import comparison_stems
from boundloop.reasoners.offline.clauses import NOW, without_now
from boundloop.reasoners.offline.clock import ASKS_TIME
from boundloop.reasoners.offline.definitions import asked_acronym
from boundloop.reasoners.offline.siblings import field_terms

FIRST_HOP_K = 3
ENTITY_K = 2
GAP_K = 2
LINK_K = 2
LIST_K = 4
SEARCHES_PER_HOP = 2
GLOSSARY_K = 2
CHANGE_K = 3
CHANGE_WORDS = "postponed delayed moved brought forward cancelled decision"


def _attribute_terms(question: str, entity_terms: set[str]) -> str:
    """The question's content words that are not part of a named entity: what is asked about them."""
    return " ".join(t for t in content_terms(question) if t not in entity_terms)


CHANGE_PURPOSE = "a later change to what is asked"
FIELD_PURPOSE = "the field asked, in each sibling document"
SUPPLEMENTARY = frozenset({CHANGE_PURPOSE, FIELD_PURPOSE})
"""Searches that add to the whole question's, not parts of it: one finding little leaves no part uncovered."""

SIBLINGS_K = 20
"""Passages a question asked of every member of a family reads: one or two per sibling document."""


HOURS = "hours"
"""What documents call the times something opens or starts ('Office hours: 07:00–16:00', 'Hours on site')."""


def compared_attribute(question: str, attribute: str) -> str:
    """What a comparison asks of each compared thing, in the words its documents use.

    The comparison's own words ('earlier in the morning') are in no document; a time of day something opens or
    starts is stated as its hours.
    """
    compared = comparison_stems(question)
    said = " ".join(w for w in attribute.split() if not stems(w) & compared)
    return f"{said} {HOURS}".strip() if ASKS_TIME.search(question) and HOURS not in said.split() else said


def plan(question: str, understanding: Understanding) -> Plan:
    """The whole question first; comparisons add one search per compared entity, multi-hop one for its entities."""
    k = FIRST_HOP_K * 2 if understanding.query_class == "aggregation" else FIRST_HOP_K
    subqueries = [SubQuery(id="q0", text=question, mode="hybrid", purpose="the whole question", k=k)]
    entity_terms = {t for e in understanding.entities for t in content_terms(e)}
    attribute = _attribute_terms(question, entity_terms)
    if understanding.query_class == "comparison":
        attribute = compared_attribute(question, attribute)
        for n, entity in enumerate(understanding.entities[:3], start=1):
            subqueries.append(
                SubQuery(id=f"q{n}", text=f"{entity} {attribute}".strip(), mode="hybrid",
                         purpose=f"compared entity: {entity}", k=ENTITY_K)
            )
    if acronym := asked_acronym(question):  # 'What's MAST?': where documents spell out their acronyms
        subqueries.append(SubQuery(id=f"q{len(subqueries)}", text=f"{acronym[0]} glossary acronyms abbreviations",
                                   mode="keyword", purpose=f"what {acronym[0]} stands for", k=GLOSSARY_K))
    if NOW.search(question):  # 'when do the cameras actually switch on?': a later decision may move it
        asked = " ".join(content_terms(without_now(question)))
        subqueries.append(SubQuery(id=f"q{len(subqueries)}", text=f"{asked} {CHANGE_WORDS}", mode="keyword",
                                   purpose=CHANGE_PURPOSE, k=CHANGE_K))
    if field := field_terms(question):  # 'the wifi names at each of our sites': every site's document
        subqueries.append(SubQuery(id=f"q{len(subqueries)}", text=field, mode="keyword",
                                   purpose=FIELD_PURPOSE, k=SIBLINGS_K))
    names = name_spans(question)
    if not names and understanding.query_class == "comparison":  # 'bergen or rotterdam': their own documents
        names = understanding.entities[:3]
    if names:
        subqueries.append(
            SubQuery(id=f"q{len(subqueries)}", text=join_names(names), mode="title",
                     purpose="the documents about what the question names", k=LINK_K)
        )
    return Plan(subqueries=subqueries)


def _normalised(text: str) -> tuple[str, ...]:
    return tuple(sorted(content_terms(text)))


def refine(question: str, subqueries: list[SubQuery], assessment: Assessment, hop: int) -> Refinement:
    """A search aimed at the gap the evaluation named, unless it would repeat one already run."""
    gap = assessment.gap
    if gap is None:
        return Refinement(action="stop", reason="the evidence covers every sub-query and nothing conflicts")
    searches: list[tuple[str, SearchMode, str]] = []
    named: dict[str, str] = {}  # a bridge search's purpose -> the name its passages should state
    done = {(_normalised(q.text), q.mode) for q in subqueries}
    if gap.kind == "bridge":
        if gap.links:
            searches.append((join_names(gap.links), "title", "bridge: the documents the evidence names"))
        # by wording: the fallback of the title lookup when there is one (it runs only if that titles nothing)
        # two searches a hop: a title lookup and one wording search, or two wording searches without links
        for entity in gap.bridge_entities[:SEARCHES_PER_HOP - len(searches)]:
            worded = f"{entity} {' '.join(gap.terms[:3])}".strip()
            if (_normalised(worded), "hybrid") in done:  # asked that way already: the name alone, by its words
                searches.append((entity, "keyword", f"bridge entity by name: {entity}"))
            else:
                searches.append((worded, "hybrid", f"bridge entity: {entity}"))
            named[searches[-1][2]] = entity
        if gap.context and not gap.bridge_entities:
            searches.append((f"{question} {gap.context}", "hybrid",
                             "bridge: the question with its best evidence sentence"))
    elif gap.kind == "unfinished_list":
        for title in gap.bridge_entities[:2]:
            searches.append((f"{title} {' '.join(gap.terms)}".strip(), "hybrid", f"the rest of {title}"))
    elif gap.kind == "uncovered_subquery":
        searches.append((" ".join(gap.terms) or question, "keyword", f"uncovered {gap.subquery_id}"))
    elif gap.kind == "missing_terms":
        searches.append((" ".join(gap.terms + gap.bridge_entities[:1]), "hybrid", "missing terms"))
    elif gap.kind == "conflict":
        searches.append((f"{' '.join(gap.terms)} current", "hybrid", "conflicting values"))
    new: list[SubQuery] = []
    for text, mode, purpose in searches:
        if text.strip() and (_normalised(text), mode) not in done:
            done.add((_normalised(text), mode))
            new.append(SubQuery(id=f"r{hop}.{len(new) + 1}", text=text, mode=mode, purpose=purpose,
                                k=LINK_K if mode == "title" else LIST_K if purpose.startswith(
                                    ("the rest", "bridge entity by name"))
                                else GAP_K, mentions=named.get(purpose, "")))
    if not new:
        return Refinement(action="stop", reason=f"gap ({gap.description}) has no new search left to try")
    return Refinement(action="retrieve", subqueries=new, reason=gap.description)
