"""Answer scoring: the HotpotQA normalisation, EM, F1, containment, and citation markers."""

from __future__ import annotations

import pytest

from boundloop.evals.answers import best_over, contains, exact_match, f1, normalise, strip_markers


@pytest.mark.parametrize(("text", "expected"), [
    ("The Eiffel Tower!", "eiffel tower"),
    ("  an   apple, a pear ", "apple pear"),
    ("EUR 1,200", "eur 1200"),
    ("Theatre", "theatre"),
    ("", ""),
])
def test_normalise(text: str, expected: str) -> None:
    assert normalise(text) == expected


@pytest.mark.parametrize(("prediction", "gold", "em", "f1_score"), [
    ("the Eiffel Tower", "Eiffel Tower", 1.0, 1.0),
    ("Eiffel", "Eiffel Tower", 0.0, pytest.approx(2 / 3)),
    ("Paris France", "Lyon", 0.0, 0.0),
    ("yes", "no", 0.0, 0.0),
    ("no it is not", "no", 0.0, 0.0),  # yes/no answers must match exactly
    ("", "Paris", 0.0, 0.0),
])
def test_exact_match_and_f1(prediction: str, gold: str, em: float, f1_score: float) -> None:
    assert exact_match(prediction, gold) == em
    assert f1(prediction, gold) == f1_score


@pytest.mark.parametrize(("prediction", "gold", "expected"), [
    ("He was born in Lisbon, Portugal.", "Lisbon", 1.0),
    ("He was born in Lisbonne.", "Lisbon", 0.0),  # whole words only
    ("The allowance is EUR 1,200 a year.", "EUR 1,200", 1.0),
    ("anything", "", 0.0),
])
def test_contains(prediction: str, gold: str, expected: float) -> None:
    assert contains(prediction, gold) == expected


def test_markers_are_stripped_and_the_best_alias_counts() -> None:
    answer = "Bob Carter directed it. [1]\nHe was born in Lisbon. [2][3]"
    assert strip_markers(answer) == "Bob Carter directed it. He was born in Lisbon."
    assert best_over(contains, strip_markers(answer), ("Porto", "Lisbon")) == 1.0
    assert best_over(exact_match, "x", ()) == 0.0
