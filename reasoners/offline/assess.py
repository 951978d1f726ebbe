"""Offline evaluation: coverage per sub-query, conflicts between documents, and the gap named. No model."""

from __future__ import annotations

import math
from bisect import bisect_right
from collections import Counter
from collections.abc import Callable

from boundloop.domain.models import Assessment, Conflict, Coverage, Evidence, Gap, SubQuery, Understanding
from boundloop.domain.names import normalise_name, split_names, title_keys
from boundloop.domain.text import entities, name_spans, stem, stems, topic_words, values
from boundloop.domain.words import content_terms
from boundloop.policies.instructions import data_sentences
from boundloop.reasoners.offline.answerability import Similarity
from boundloop.reasoners.offline.bridges import missing_links
from boundloop.reasoners.offline.clauses import without_now
from boundloop.reasoners.offline.planning import SUPPLEMENTARY
from boundloop.reasoners.offline.sibling_search import sibling_check

COVERED = 0.67
TOP_PER_QUERY = 3
MAX_BRIDGE_HOPS = 2
LINK_SOURCES = 3  # the best evidence chunks whose mentions may title the next document


ENTITY_BOOST = 2.0
MISSING_BOOST = 2.0


def term_weights(question: str, evidence: list[Evidence]) -> dict[str, float]:
    """IDF-like weights of the question's stems over the evidence.

    The question's named entities weigh double (they say what it is about), and so does a stem no evidence has
    (it is what the evidence lacks).
    """
    keys = stems(question)
    named = set().union(*(stems(e) for e in entities(question))) if entities(question) else set()
    texts = [stems(e.title + " " + e.text) for e in evidence]
    n = max(len(texts), 1)
    weights = {}
    for k in sorted(keys):  # a fixed order: float sums over the weights must not depend on hash seeds
        df = sum(k in t for t in texts)
        weights[k] = math.log(1 + n / (1 + df)) * (ENTITY_BOOST if k in named else 1.0)
        weights[k] *= MISSING_BOOST if df == 0 else 1.0
    return weights


def weighted_coverage(weights: dict[str, float], present: set[str]) -> float:
    total = sum(weights.values())
    return sum(w for k, w in weights.items() if k in present) / total if total else 0.0


def _coverage(query: SubQuery, evidence: list[Evidence]) -> Coverage:
    own = sorted((e for e in evidence if query.id in e.found_by), key=lambda e: e.rank)[:TOP_PER_QUERY]
    keys = stems(query.text)
    present = set().union(*(stems(e.title + " " + e.text) for e in own)) if own else set()
    score = len(keys & present) / len(keys) if keys else 1.0
    missing = sorted(keys - present)
    return Coverage(subquery_id=query.id, covered=score >= COVERED, score=round(score, 3), missing_terms=missing)


def _similar_later(sets: list[set[str]]) -> Callable[[int], list[int]]:
    """For a set's index, the later sets that may share half of their union with it, in order; no other can.

    Prefix filtering: with words ordered rarest first, two sets sharing at least half of their union share a word
    among the first `len - ceil(len / 2) + 1` of each (the first word they share is there). Looking those words up
    finds the pairs worth comparing without comparing every pair: 1,000 rows on the question's topic were 500,000
    comparisons.
    """
    frequency = Counter(word for words in sets for word in words)
    prefixes = [sorted(words, key=lambda w: (frequency[w], w))[:len(words) - math.ceil(len(words) / 2) + 1]
                for words in sets]
    holding: dict[str, list[int]] = {}
    for j, prefix in enumerate(prefixes):
        for word in prefix:
            holding.setdefault(word, []).append(j)
    return lambda i: sorted({j for word in prefixes[i] for j in holding[word][bisect_right(holding[word], i):]})


ConflictRow = tuple[Evidence, set[str], set[str], str]
"""A sentence that may conflict: its evidence, its values, its other words, the sentence."""


def conflict_rows(question: str, evidence: list[Evidence]) -> list[ConflictRow]:
    """The sentences giving a value with at least half of the question's words (two at least) beside it."""
    keys = stems(question)
    rows = []
    for e in evidence:
        for sentence in data_sentences(e.text):
            found = set(values(sentence))
            context = stems(sentence) - {stem(v.lower()) for v in found}
            if found and len(context & keys) >= max(2, len(keys) // 2):
                rows.append((e, found, context, sentence))
    return rows


def find_conflicts(question: str, evidence: list[Evidence]) -> list[Conflict]:
    """Sentences from different documents that say the same thing about the question with different values."""
    keys = stems(question)
    rows = conflict_rows(question, evidence)
    conflicts: list[Conflict] = []
    similar = _similar_later([context for _, _, context, _ in rows])
    for i, (a, va, ca, said) in enumerate(rows):
        for b, vb, cb, _ in (rows[j] for j in similar(i)):
            if a.doc_id == b.doc_id or va & vb or not (va and vb):
                continue
            if len(ca & cb) / max(1, len(ca | cb)) >= 0.5:
                topic = topic_words(said, ca & cb & keys)
                conflicts.append(Conflict(topic=topic, values=sorted(va | vb), chunk_ids=[a.chunk_id, b.chunk_id]))
                if len(conflicts) >= 3:
                    return conflicts
    return conflicts


def bridge_entities(question: str, understanding: Understanding, evidence: list[Evidence],
                    followed: set[str] | None = None) -> list[str]:
    """Entities named in the best evidence but not in the question: candidates that lead to the next document.

    Entities whose stems are all in `followed` (earlier bridge searches) lead nowhere new.
    """
    asked = {t for t in stems(question)} | (followed or set())
    # an entity that already titles a retrieved document leads nowhere new
    titled = [stems(e.title) for e in evidence]
    counts: dict[str, float] = {}
    for e in sorted(evidence, key=lambda e: -e.score)[:3]:
        for sentence in data_sentences(e.text):
            for entity in entities(sentence, names_only=True):
                entity_stems = stems(entity)
                if entity_stems and not entity_stems <= asked and len(entity) > 2 and \
                        not any(entity_stems <= t for t in titled):
                    # names and roles (several words) lead on more often than a lone place or product word
                    weight = (1 + len(stems(sentence) & asked)) * (1 + 0.5 * min(len(entity.split()) - 1, 2))
                    counts[entity] = counts.get(entity, 0.0) + weight
    return sorted(counts, key=lambda entity: -counts[entity])[:3]


def link_names(evidence: list[Evidence], tried: set[str] | None = None) -> list[str]:
    """Names mentioned by the best evidence (best chunk first) that title none of the documents already held.

    Names in `tried` (normalised) were looked up already and are left out too. Sentences that read as instructions
    are skipped: a document cannot steer the search by telling it what to open.
    """
    held = set().union(*(title_keys(e.title) for e in evidence), tried or set())
    found: dict[str, str] = {}
    for e in sorted(evidence, key=lambda e: -e.score)[:LINK_SOURCES]:
        text = " ".join(data_sentences(e.text))
        for span in name_spans(text):
            key = normalise_name(span)
            if key not in held:
                found.setdefault(key, span)
    return list(found.values())


def best_sentence(question: str, evidence: list[Evidence]) -> str:
    """The sentence of the top evidence sharing most with the question: what a bridging search builds on."""
    asked = stems(question)
    top = sorted(evidence, key=lambda e: -e.score)[:2]
    scored = [(len(stems(s) & asked), s) for e in top for s in data_sentences(e.text)]
    return max(scored, default=(0, ""), key=lambda pair: pair[0])[1]


def evaluate(question: str, understanding: Understanding, subqueries: list[SubQuery],
             evidence: list[Evidence], similarity: Similarity | None = None) -> Assessment:
    """Coverage and conflicts, then the one gap worth a hop: uncovered sub-query, bridge, missing terms, conflict."""
    # a title lookup finds documents by name, not by wording: its coverage says nothing
    ran = [q for q in subqueries if q.mode != "title" and any(q.id in e.found_by for e in evidence)] or subqueries[:1]
    coverage = [_coverage(q, evidence) for q in ran]
    weights = term_weights(question, evidence)
    present = set().union(*(stems(e.title + " " + e.text) for e in evidence)) if evidence else set()
    question_coverage = round(weighted_coverage(weights, present), 3)
    missing = [word for word in content_terms(without_now(question))  # 'these days' has no 'days' to find
               if stem(word) in weights and stem(word) not in present]
    conflicts = find_conflicts(question, evidence)
    bridges = [q for q in subqueries if q.purpose.startswith("bridge")]
    # a title lookup that found the next document completes the bridge; otherwise each hop that bridged by
    # wording counts once. One bridge hop: a second wording bridge (role -> person -> room) measured 0.5 points
    # worse on HotpotQA dev for no gain on the demo questions (the extractive synthesis cannot answer such chains)
    bridges_run = len({q.id.split(".")[0] for q in bridges})
    tried_names = {normalise_name(n) for q in bridges if q.mode == "title" for n in split_names(q.text)}
    followed_names = {normalise_name(q.purpose.split(": ", 1)[-1]) for q in bridges if q.mode != "title"}
    lack = missing_links(question, understanding, evidence, followed_names, similarity)
    refinements = sum(q.id.startswith("r") for q in subqueries)
    gap: Gap | None = None
    supplementary = {q.id for q in subqueries if q.purpose in SUPPLEMENTARY}
    uncovered = [c for c in coverage if not c.covered and c.subquery_id != "q0" and not c.subquery_id.startswith("r")
                 and c.subquery_id not in supplementary]
    siblings = sibling_check(question, understanding, subqueries, evidence)
    if siblings.across:  # a field of every sibling: only the siblings not read yet are worth a hop
        gap = siblings.gap
    elif lack.unfinished and not any(q.purpose.startswith("the rest of") for q in subqueries):
        gap = Gap(kind="unfinished_list", terms=lack.asked_of, bridge_entities=lack.unfinished,
                  description=f"the list goes on beyond the passages held: {', '.join(lack.unfinished)}")
    elif uncovered and refinements < 2:
        c = uncovered[0]
        query = next(q for q in subqueries if q.id == c.subquery_id)
        gap = Gap(kind="uncovered_subquery", subquery_id=c.subquery_id, terms=[query.text],
                  description=f"{c.subquery_id} not covered (missing {', '.join(c.missing_terms) or 'support'})")
    elif question_coverage > 0 and bridges_run < MAX_BRIDGE_HOPS and lack.on_topic and \
            (bridges_run == 0 or lack.progress) and (
            not lack.answered or (bridges_run == 0 and (missing or understanding.query_class == "multi_hop")
                                  and understanding.query_class != "aggregation")):
        followed = set().union(*(stems(q.text) for q in bridges if q.mode != "title")) if bridges else set()
        candidates = lack.links + [c for c in bridge_entities(question, understanding, evidence, followed)
                                   if c not in lack.links]
        links = link_names(evidence, tried_names)
        asked = " ".join(lack.asked_of) or ", ".join(missing) or "the answer"
        if candidates or links:
            gap = Gap(kind="bridge", terms=lack.asked_of or missing, bridge_entities=candidates, links=links,
                      context=best_sentence(question, evidence),
                      description=f"follow {(candidates or links)[0]!r} for {asked}")
        elif missing and refinements == 0:
            gap = Gap(kind="missing_terms", terms=missing, bridge_entities=understanding.entities[:1],
                      description=f"no evidence mentions {', '.join(missing)}")
    elif conflicts and refinements == 0:
        gap = Gap(kind="conflict", terms=conflicts[0].topic.split(),
                  description=f"conflicting values for {conflicts[0].topic}: {', '.join(conflicts[0].values)}")
    return Assessment(coverage=coverage, question_coverage=question_coverage, conflicts=conflicts, gap=gap)
