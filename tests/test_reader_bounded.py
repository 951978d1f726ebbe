"""The reader's work grows linearly with the units it reads: counted in function calls, never timed.

Every unit of a chunk reads in the same passage; read once per unit, the work of a 1,000-row table grew with the
square of its rows (`benchmarks/bench_reading.py` measures the time).
"""

from __future__ import annotations

import cProfile
import pstats
import random

import pytest

from boundloop.domain.models import Evidence, SubQuery, Understanding
from boundloop.reasoners.offline import assess
from boundloop.reasoners.offline.extractive import read_answer
from boundloop.reasoners.offline.units import passage_stems, units_of

LINEAR = 13
"""Ten times the units may cost at most this many times the calls: linear, with room for per-question work."""
CHUNKS = 4


def _name(rng: random.Random) -> str:
    return "".join(rng.choice(("ka", "lo", "mir", "ven", "tas", "ru", "bel", "dor")) for _ in range(3)).capitalize()


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
