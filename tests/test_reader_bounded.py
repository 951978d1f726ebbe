"""The reader's work grows linearly with the units it reads: counted in function calls, never timed.

Every unit of a chunk reads in the same passage; read once per unit, the work of a 1,000-row table grew with the
square of its rows (`benchmarks/bench_reading.py` measures the time).
"""

from __future__ import annotations

import cProfile
import pstats
import random

import pytest

from boundloop.domain.models import Conflict, Evidence, SubQuery, Understanding
from boundloop.domain.text import stems, topic_words
from boundloop.reasoners.offline import assess
from boundloop.reasoners.offline.extractive import read_answer
from boundloop.reasoners.offline.units import passage_stems, units_of

LINEAR = 13
"""Ten times the units may cost at most this many times the calls: linear, with room for per-question work."""
CHUNKS = 4


def _name(rng: random.Random, syllables: int = 3) -> str:
    return "".join(rng.choice(("ka", "lo", "mir", "ven", "tas", "ru", "bel", "dor")) for _ in range(syllables)).title()


def _evidence(units: int) -> list[Evidence]:
    """A room table and a staff list, in `CHUNKS` chunks of `units` rows in all; the rows asked about are fixed."""
    rng = random.Random(units)
    chunks = []
    for i in range(CHUNKS):
        if i % 2 == 0:
            title = "Meeting rooms"
            rows = [f"{_name(rng)}; Seats: {rng.randint(4, 40)}; Floor: {rng.randint(0, 6)}; Host: {_name(rng)} Team"
                    for _ in range(units // CHUNKS - 1)] + ["Orchid; Seats: 14; Floor: 2; Host: Events Team"]
        else:
            title = "Team contacts"
            rows = [f"Team: {_name(rng)} Team; Contact: {_name(rng)} {_name(rng)}; Ext.: {rng.randint(5000, 9999)}"
                    for _ in range(units // CHUNKS - 1)] + ["Team: Events Team; Contact: Lena Hart; Ext.: 4321"]
        rng.shuffle(rows)
        chunks.append(Evidence(chunk_id=f"doc{i}#0", doc_id=f"doc{i}", title=title, text="\n".join(rows),
                               score=1.0 - i / 10, hop=1, found_by=["q0"]))
    return chunks


def _calls(question: str, evidence: list[Evidence]) -> tuple[int, str | None]:
    """The function calls evaluate and synthesise make (the answerability model aside), and the short answer."""
    lookup = Understanding(query_class="lookup")
    profile = cProfile.Profile()
    profile.enable()
    assess.evaluate(question, lookup, [SubQuery(id="q0", text=question, purpose="the question")], evidence)
    answer = read_answer(question, lookup, evidence).draft.short_answer
    profile.disable()
    return pstats.Stats(profile).total_calls, answer  # type: ignore[attr-defined]


@pytest.mark.parametrize("question, answer", [
    ("How many seats does the Orchid room have?", "14"),
    ("What is the extension of the contact for the team hosting the Orchid room?", "4321"),
])
def test_ten_times_the_units_cost_about_ten_times_the_work(question, answer):
    small, large = _evidence(100), _evidence(1000)
    _calls(question, small)  # patterns compiled, vocabularies read: once per process, not per unit
    assert sum(len(units_of(e)) for e in small) == 100 and sum(len(units_of(e)) for e in large) == 1000
    small_calls, small_answer = _calls(question, small)
    large_calls, large_answer = _calls(question, large)
    assert small_answer == large_answer == answer
    assert large_calls <= LINEAR * small_calls, f"{large_calls} calls for 1,000 units, {small_calls} for 100"


def test_a_chunk_is_read_once_for_all_its_units_and_a_row_not_in_its_sibling_rows():
    text = ("Bookings open at eight on weekdays.\nName: Orchid; Seats: 14; Floor: 2\n"
            "Name: Tulip; Seats: 6; Floor: 1\nName: Lotus; Seats: 30; Floor: 3")
    passage_stems.cache_clear()
    units = units_of(Evidence(chunk_id="rooms#0", doc_id="rooms", title="Rooms", text=text, score=1.0, hop=1))
    prose, orchid = units[0], units[1]
    assert "tulip" in prose.chunk_stems and "tulip" not in orchid.chunk_stems and "weekday" in orchid.chunk_stems
    for unit in units:
        assert unit.chunk_stems.isdisjoint(unit.stems)
    assert passage_stems.cache_info().misses == 2  # the chunk with its rows, and without: not once per unit


def _conflicts_pair_by_pair(question: str, evidence: list[Evidence]) -> list[Conflict]:
    """`assess.find_conflicts` as it was, comparing every pair of rows: what the index must find, in order."""
    keys = stems(question)
    rows = assess.conflict_rows(question, evidence)
    conflicts: list[Conflict] = []
    for i, (a, va, ca, said) in enumerate(rows):
        for b, vb, cb, _ in rows[i + 1:]:
            if a.doc_id != b.doc_id and not va & vb and va and vb and \
                    len(ca & cb) / max(1, len(ca | cb)) >= 0.5:
                conflicts.append(Conflict(topic=topic_words(said, ca & cb & keys), values=sorted(va | vb),
                                          chunk_ids=[a.chunk_id, b.chunk_id]))
                if len(conflicts) >= 3:
                    return conflicts
    return conflicts


def _fee_notes(rows: int, words: int, seed: int, least: int = 1) -> list[Evidence]:
    """Sentences about the parking fee, each with `least` to 8 of `words` invented words, over four documents."""
    rng = random.Random(seed)
    vocabulary = [_name(rng, 6).lower() for _ in range(words)]
    lines = [f"The parking fee for {' '.join(rng.sample(vocabulary, rng.randint(least, 8)))} is {rng.randint(2, 9)} "
             "euros." for _ in range(rows)]
    return [Evidence(chunk_id=f"fees{d}#0", doc_id=f"fees{d}", title="Parking", text="\n".join(lines[d::4]),
                     score=1.0, hop=1) for d in range(4)]


@pytest.mark.parametrize("seed", range(30))
def test_conflicts_found_by_the_index_are_those_of_every_pair_in_order(seed):
    notes = _fee_notes(60, [8, 40, 400, 4000][seed % 4], seed, least=1 + seed % 5)
    question = "What is the parking fee?"
    assert assess.find_conflicts(question, notes) == _conflicts_pair_by_pair(question, notes)


def test_conflicts_among_ten_times_the_rows_compare_about_ten_times_the_pairs(monkeypatch):
    compared: list[int] = []
    index = assess._similar_later

    def counted(sets):
        similar = index(sets)

        def later(i):
            found = similar(i)
            compared[-1] += len(found)
            return found
        return later

    monkeypatch.setattr(assess, "_similar_later", counted)
    for rows in (100, 1000):
        compared.append(0)
        notes = _fee_notes(rows, 200_000, rows, least=5)  # on the question's topic, never alike: every row read
        assert len(assess.find_conflicts("What is the parking fee?", notes)) < 3  # no early end
    assert compared[1] <= LINEAR * max(compared[0], 10), compared  # every pair: 4,950 and 499,500


def test_a_question_of_one_long_word_costs_no_more_than_a_short_one():
    # a 4,000-character question is valid; read as a possible typo, its one long 'word' cost 26 candidate stems per
    # letter, each of 4,000 letters, in every reading of the run (minutes, past the time limit)
    evidence = _evidence(10)
    short, _ = _calls("expense report", evidence)
    long, _ = _calls("expense " + "e" * 3992, evidence)
    assert long < 2 * short
