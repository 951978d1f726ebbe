"""Answer scoring with the official HotpotQA normalisation: exact match, token F1 and containment."""

from __future__ import annotations

import re
import string
from collections import Counter
from collections.abc import Callable

_ARTICLES = re.compile(r"\b(a|an|the)\b")
_MARKERS = re.compile(r"\s*\[\d+\]")
_PUNCTUATION = set(string.punctuation)
_SPECIAL = {"yes", "no", "noanswer"}


def normalise(text: str) -> str:
    """HotpotQA's `normalize_answer`: lower case, no punctuation, no articles, single spaces."""
    text = "".join(ch for ch in text.lower() if ch not in _PUNCTUATION)
    return " ".join(_ARTICLES.sub(" ", text).split())


def strip_markers(answer: str) -> str:
    """The answer without its `[n]` citation markers, claims joined by spaces."""
    return " ".join(_MARKERS.sub("", answer).split())


def exact_match(prediction: str, gold: str) -> float:
    return float(normalise(prediction) == normalise(gold))


def f1(prediction: str, gold: str) -> float:
    """Token F1 as HotpotQA computes it: yes/no/noanswer must match exactly."""
    pred, truth = normalise(prediction), normalise(gold)
    if (pred in _SPECIAL or truth in _SPECIAL) and pred != truth:
        return 0.0
    pred_tokens, truth_tokens = pred.split(), truth.split()
    common = Counter(pred_tokens) & Counter(truth_tokens)
    same = sum(common.values())
    if same == 0:
        return 0.0
    precision, recall = same / len(pred_tokens), same / len(truth_tokens)
    return 2 * precision * recall / (precision + recall)


def contains(prediction: str, gold: str) -> float:
    """1.0 when the normalised gold answer appears in the normalised prediction as whole words."""
    pred, truth = normalise(prediction), normalise(gold)
    if not truth:
        return 0.0
    return float(f" {truth} " in f" {pred} ")


def best_over(metric: Callable[[str, str], float], prediction: str, golds: tuple[str, ...]) -> float:
    """The best score of `prediction` against any gold answer or alias (0.0 when there is none)."""
    return max((metric(prediction, gold) for gold in golds), default=0.0)
