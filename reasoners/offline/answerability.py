"""Whether the best reading answers the question: a small logistic model over reading features.

Answering from a passage that covers the question's words is not enough: a passage about the largest port does not
answer a question about the smallest, nor does the Lisbon leave table answer a question about sabbaticals. The
features say how much of the question the reading states and what it leaves out (missing words, an antonym in its
place, a negation, a number or name the question gives), and how close the passage is in meaning (MiniLM cosine).
The weights are fitted by `python3 -m boundloop.evals.answerability_training` on public dev data (see its docstring) and
stored in `answerability.json` beside this module, with the data they were fitted on.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from boundloop.domain.text import calendar_words, entities, stem, stems, values
from boundloop.reasoners.offline.answer_types import Expected, head_phrase, kind_of_phrase
from boundloop.reasoners.offline.chains import Chain
from boundloop.reasoners.offline.reading import GENERIC
from boundloop.reasoners.offline.referents import person_like
from boundloop.reasoners.offline.units import Unit
from boundloop.reasoners.offline.vocabulary import phrases

Similarity = Callable[[str, list[str]], list[float]]
"""Cosines between a question and each text (unit vectors of the same encoder)."""

MODEL_FILE = Path(__file__).with_name("answerability.json")
FEATURES = (
    "coverage", "missing_chunk", "missing_weight", "antonym", "negation", "number_absent", "entity_absent",
    "answer_found", "explanation", "cos_unit", "cos_titled", "margin", "entity_missing", "links",
    "answer_distance",
)
_NEGATION = re.compile(r"\b(not|never|no|none|neither|nor|without|cannot)\b|n't\b", re.IGNORECASE)


def _antonym_table() -> dict[str, set[str]]:
    table: dict[str, set[str]] = {}
    for pair in phrases("antonym_pairs"):
        a, b = (stem(w) for w in pair.split())
        table.setdefault(a, set()).add(b)
        table.setdefault(b, set()).add(a)
    return table


ANTONYMS = _antonym_table()


@dataclass(frozen=True)
class AnswerabilityModel:
    """Standardised features, a weight per feature, a bias and the decision threshold."""

    means: tuple[float, ...]
    scales: tuple[float, ...]
    weights: tuple[float, ...]
    bias: float
    threshold: float

    def probability(self, features: dict[str, float]) -> float:
        z = self.bias + sum(w * (features[name] - m) / s for name, m, s, w in
                            zip(FEATURES, self.means, self.scales, self.weights, strict=True))
        return 1.0 / (1.0 + math.exp(-max(-30.0, min(30.0, z))))


@lru_cache(maxsize=1)
def load_model(path: Path = MODEL_FILE) -> AnswerabilityModel:
    """The fitted model; its feature list must match `FEATURES`."""
    data = json.loads(path.read_text())
    if tuple(data["features"]) != FEATURES:
        raise ValueError(f"{path} was fitted on other features; "
                         "rerun python3 -m boundloop.evals.answerability_training")
    return AnswerabilityModel(tuple(data["means"]), tuple(data["scales"]), tuple(data["weights"]),
                              float(data["bias"]), float(data["threshold"]))


def asked_for(question: str) -> set[str]:
    """Stems of the words naming what is asked for ('room', 'web address'): the answer supplies them.

    The asked-for phrase counts whole when it is short; a long one ('team won the 2025 hackathon') ran past its
    noun, so only its words that name a kind of value count.
    """
    phrase = head_phrase(question)
    if len(phrase) <= 3:
        return stems(" ".join(phrase))
    return stems(" ".join(word for word in phrase if kind_of_phrase([word])))


_SPELLED_BESIDE = re.compile(r"\b([A-Z]{2,5})\s\(([a-z][a-z '’&-]+)\)")
"""An acronym with the spelling the reader put beside it ('CIO (chief information officer)')."""


def _said(name: str, said: frozenset[str], spellings: dict[str, str]) -> bool:
    """Whether the passage states a name: a word of it, every word of an acronym's spelling, or a word it clips.

    A code in capitals clipped from a name ('LIS' for 'Lisbon', as site and airport codes are written) is said by it.
    """
    words = {k for k in stems(name) if k.isalpha() and len(k) > 2}
    spelled = stems(spellings.get(name, ""))
    clipped = re.fullmatch(r"[A-Z]{3,4}", name) is not None and \
        any(len(w) >= 5 and w.startswith(name.lower()) for w in said)
    return not words or bool(words & said) or bool(spelled) and spelled <= said or clipped


def names_absent(question: str, best: Chain, others: list[Unit] | tuple[Unit, ...] = ()) -> bool:
    """Whether a name the question gives is wholly missing from the chain's passages and their titles.

    One of `others` vouches for a name it states when it also names the chain's answer: 'Which TV series, written by
    the creators of Robocalypse, is set in Bikini Bottom?' is answered from a passage on Bikini Bottom, and
    Robocalypse's passage names the series. A passage on the chain's topic alone does not vouch ('the Rhine at the
    French border' is not answered by a passage on the Rhine at the Dutch border).
    """
    units = [r.unit for r in best.readings]
    passage = frozenset().union(*(u.stems | u.context_stems | u.chunk_stems for u in units))
    # a chain that opens on someone else states the full name itself: another sentence of its first chunk ('Femke
    # Jansen joined the CPO') does not make 'Jeroen Smit is the new coordinator in Rotterdam' a chain about her
    own = frozenset().union(*(u.stems | u.context_stems for u in units)) \
        if len(units) > 1 and _someone_else(units[0].plain, question) else passage
    spellings = dict(_SPELLED_BESIDE.findall(question))
    missing = [e for e in entities(question) if not calendar_words(e)
               and not _said(e, own if person_like(e) else passage, spellings)]  # 'on a Sunday' is a condition
    if not missing or not best.answer or len(best.answer) <= 3:
        return bool(missing)
    answer = best.answer.casefold()
    vouching = [u.stems | u.context_stems for u in others
                if u not in units and answer in f"{u.evidence.title} {u.plain}".casefold()]
    return not all(any(_said(e, said, spellings) for said in vouching) for e in missing)


def _someone_else(text: str, question: str) -> bool:
    """Whether the text names in full someone or something the question does not ('Jeroen Smit is the new ...')."""
    asked = stems(question)
    return any(person_like(name) and not stems(name) <= asked for name in entities(text, names_only=True))


def entity_missing(question: str, best: Chain) -> float:
    """The share of the question's names that the chain's units and their titles and headings do not state.

    'When did the German army re-occupy Britain and France?' read from a sentence about the Rhineland.
    """
    spellings = dict(_SPELLED_BESIDE.findall(question))
    said = frozenset().union(*(r.unit.stems | r.unit.context_stems for r in best.readings))
    named = {k for e in entities(question) if not (e in spellings and _said(e, said, spellings))
             for k in stems(e) if k.isalpha() and len(k) > 2}
    total = {k for e in entities(question) for k in stems(e) if k.isalpha() and len(k) > 2}
    if not total:
        return 0.0
    return len(named - said) / len(total)


def features(question: str, expected: Expected, best: Chain, runner_up: Chain | None, weights: dict[str, float],
             similarity: Similarity) -> dict[str, float]:
    """What the model reads of the best chain."""
    units = [r.unit for r in best.readings]
    inside = frozenset().union(*(u.stems for u in units))
    around = inside | frozenset().union(*(u.context_stems for u in units))
    passage = around | frozenset().union(*(u.chunk_stems for u in units))
    asked = set(weights)
    head = asked_for(question)
    missing = [k for k in asked if k not in around and k not in GENERIC and k not in head]
    total = sum(weights.values()) or 1.0
    text = " ".join(" ".join((u.plain, *u.holds)) for u in units)
    titled = f"{units[-1].evidence.title}. {units[-1].plain}"
    cos_unit, cos_titled = similarity(question, [" ".join(u.plain for u in units), titled])  # a chain reads as one
    return {
        "coverage": best.coverage,
        "missing_chunk": float(sum(k not in passage for k in missing)),
        "missing_weight": sum(weights[k] for k in missing) / total,
        "antonym": float(any(k not in around and ANTONYMS.get(k, set()) & around for k in asked)),
        "negation": float(bool(_NEGATION.search(question)) != bool(_NEGATION.search(text))),
        "number_absent": float(bool(set(values(question)) - set(values(text + " " + units[-1].evidence.title)))),
        "entity_absent": float(names_absent(question, best)),
        "answer_found": float(best.answer is not None or not expected.wants_value),
        "explanation": float(not expected.wants_value or expected.kind in ("other", "list")),
        "cos_unit": cos_unit,
        "cos_titled": cos_titled,
        "margin": best.score - (runner_up.score if runner_up else 0.0),
        "entity_missing": entity_missing(question, best),
        "links": float(len(best.readings) - 1),
        "answer_distance": best.last.distance,
    }


def probability(question: str, expected: Expected, ranked: list[Chain], weights: dict[str, float],
                similarity: Similarity) -> float:
    """How likely the best chain answers the question."""
    runner_up = ranked[1] if len(ranked) > 1 else None
    return load_model().probability(features(question, expected, ranked[0], runner_up, weights, similarity))
