"""Offline synthesis: extract the sentences that best answer the question, each a claim citing its chunk."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace

from domain.models import Assessment, Claim, Draft, Evidence, Understanding
from domain.text import entities, name_spans, stems, values
from policies.instructions import data_sentences
from reasoners.offline.assess import term_weights
from retrieval.titles import normalise_name, title_keys

MIN_SCORE = 0.4
MAX_EVIDENCE = 12
_SUPERSEDED = re.compile(r"\b(superseded|no longer (in effect|valid|applies)|replaced by|obsolete|archived)\b", re.I)
_YEAR = re.compile(r"\b(1[5-9]|20)\d\d\b|\b(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)[a-z]*\b", re.I)


@dataclass(frozen=True)
class Candidate:
    """A sentence of the evidence with its score and what it says beyond the question."""

    sentence: str
    evidence: Evidence
    score: float
    novel: frozenset[str]
    stems: frozenset[str] = frozenset()
    """The sentence's stems; for a chained sentence, those of its whole chain."""
    bonus: float = 0.0
    """The part of the score that is not coverage: answer type, rank, superseded."""
    link: Candidate | None = None
    """For a later hop's sentence: the earlier sentence that names what its document is about (the bridge)."""


def _answer_bonus(sentence: str, answer_type: str, question: str) -> float:
    asked = stems(question)
    if answer_type in ("person", "place"):
        return 0.15 if any(not stems(e) <= asked for e in entities(sentence)) else 0.0
    if answer_type == "number":
        return 0.15 if set(values(sentence)) - set(values(question)) else 0.0
    if answer_type == "date":
        return 0.15 if _YEAR.search(sentence) else 0.0
    return 0.0


def candidates(question: str, understanding: Understanding, evidence: list[Evidence]) -> list[Candidate]:
    """Every usable sentence of the best evidence, scored: weighted coverage of the question, answer type, rank."""
    ranked = sorted(evidence, key=lambda e: -e.score)[:MAX_EVIDENCE]
    weights = term_weights(question, ranked)
    total = sum(weights.values()) or 1.0
    asked = set(weights)
    found: list[Candidate] = []
    for position, e in enumerate(ranked):
        superseded = bool(_SUPERSEDED.search(e.title) or _SUPERSEDED.search(e.text[:400]))
        lead = ""  # the heading or 'introduces a list:' sentence the next items belong to
        for sentence in data_sentences(e.text):
            if sentence.startswith("#") or sentence.endswith(":"):
                lead = sentence
            if len(sentence.split()) < 3:
                continue
            sentence_stems = stems(sentence)
            context = stems(e.title) | (stems(lead) if lead != sentence else set())
            # the title and lead-in count half: a list item or 'it' often refers to them
            covered = sum(w for k, w in weights.items() if k in sentence_stems)
            covered += 0.5 * sum(w for k, w in weights.items() if k in context and k not in sentence_stems)
            novel = frozenset(sentence_stems - asked)
            if not novel:
                continue
            bonus = _answer_bonus(sentence, understanding.answer_type, question)
            bonus += 0.05 / (1 + position) - (0.25 if superseded else 0.0)
            text = f"{lead} {sentence}" if lead and lead.endswith(":") and lead != sentence else sentence
            found.append(Candidate(text, e, covered / total + bonus, novel, frozenset(sentence_stems), bonus))
    if understanding.query_class == "multi_hop":
        found = _chained(found, weights, total)
    return sorted(found, key=lambda c: -c.score)


def _chained(found: list[Candidate], weights: dict[str, float], total: float) -> list[Candidate]:
    """Score a later hop's sentence together with the earlier sentences that bridge to its document.

    The answer to 'where does the person who approves X sit' is in a sentence about that person ('Priya Raman
    sits in 3.12') that says little of X; the sentence naming the person ('the Head of Finance is Priya Raman')
    and the one naming the role ('X needs approval from the Head of Finance') say the rest. A chain links a
    sentence to an earlier hop's sentence that names something the later document names; the chain's stems
    cover the question. Each sentence stays a claim citing its own chunk.
    """
    names: dict[str, set[str]] = {}
    for c in found:
        e = c.evidence
        if e.chunk_id not in names:
            # what the document is about: its title, and the names of two words or more it mentions (a lone
            # 'Toronto' links everything in the Toronto office's documents)
            names[e.chunk_id] = title_keys(e.title) | {
                key for key in (normalise_name(n) for n in name_spans(" ".join(data_sentences(e.text)))) if " " in key}
    mentions = {c.sentence: {normalise_name(n) for n in name_spans(c.sentence)} for c in found}
    done: list[Candidate] = []
    for c in sorted(found, key=lambda c: c.evidence.hop):  # earlier hops' chains are complete first
        best, link = c.score, None
        for earlier in done:
            if earlier.evidence.hop >= c.evidence.hop or earlier.evidence.doc_id == c.evidence.doc_id:
                continue
            if not mentions[earlier.sentence] & names[c.evidence.chunk_id]:
                continue
            both = earlier.stems | c.stems
            score = sum(w for k, w in weights.items() if k in both) / total + c.bonus
            if score > best:
                best, link = score, earlier
        done.append(replace(c, score=best, link=link, stems=c.stems | link.stems) if link else c)
    return done


def chain_of(c: Candidate) -> list[Candidate]:
    """The sentences of a chain, earliest hop first."""
    chain = [c]
    while chain[0].link is not None:
        chain.insert(0, chain[0].link)
    return chain


def _pick(cands: list[Candidate], understanding: Understanding) -> list[Candidate]:
    if not cands or cands[0].score < MIN_SCORE:
        return []
    best = cands[0]
    chosen = [best]
    if understanding.query_class == "comparison":
        for entity in understanding.entities[:3]:
            es = stems(entity)
            if any(es <= stems(c.sentence) | stems(c.evidence.title) for c in chosen):
                continue
            match = next((c for c in cands if es <= stems(c.sentence) | stems(c.evidence.title)), None)
            if match and match.score >= MIN_SCORE:
                chosen.append(match)
    elif understanding.query_class == "multi_hop" and best.link is not None:
        chosen = chain_of(best)
    elif understanding.query_class == "multi_hop":
        other = next((c for c in cands[1:] if c.evidence.hop != best.evidence.hop
                      and c.score >= 0.6 * best.score), None)
        if other:
            chosen.insert(0, other) if other.evidence.hop < best.evidence.hop else chosen.append(other)
    elif understanding.query_class == "aggregation":
        chosen += [c for c in cands[1:8] if c.score >= 0.6 * best.score]
    elif len(cands) > 1 and cands[1].score >= 0.9 * best.score and cands[1].evidence.doc_id != best.evidence.doc_id:
        chosen.append(cands[1])
    unique: dict[str, Candidate] = {}
    for c in chosen:
        unique.setdefault(c.sentence, c)
    return list(unique.values())


def synthesise(question: str, understanding: Understanding, evidence: list[Evidence],
               assessment: Assessment | None) -> Draft:
    """Claims are verbatim sentences, so each is grounded in the chunk it cites by construction."""
    picked = _pick(candidates(question, understanding, evidence), understanding)
    return Draft(claims=[Claim(text=c.sentence, citations=[c.evidence.chunk_id]) for c in picked])
