"""One list of place kinds: the page a search ranks first and the place a question asks about read the same words."""

from __future__ import annotations

import pytest

from boundloop.domain.place_kinds import PLACE_KINDS
from boundloop.nodes.retrieve import stating_first
from boundloop.reasoners.offline.places import asks_a_place, same_place
from boundloop.retrieval.documents import SearchHit


def hit(chunk_id: str, title: str, text: str) -> SearchHit:
    return SearchHit(doc_id=chunk_id.split("#")[0], chunk_id=chunk_id, title=title, text=text, score=0.03)


@pytest.mark.parametrize("kind", ["hotel", "clinic", "warehouse", "office", "terminal"])
def test_a_place_kind_is_asked_ranked_and_matched_alike(kind):
    assert kind in PLACE_KINDS
    assert asks_a_place(f"what's the wifi password at the {kind} Dawid works at?")
    hits = [hit("rota#1", "Rota", f"Site: Northgate {kind.title()}; Name: Dawid Nowak"),
            hit("page#0", f"{kind.title()} Northgate — information", "Parking is behind the building.")]
    assert [h.chunk_id for h in stating_first(hits, "Northgate")][0] == "page#0"  # the place's own page first
    assert same_place("Northgate", f"{kind.title()} Northgate")


def test_a_word_that_is_no_place_kind_asks_no_place():
    assert not asks_a_place("what's the wifi password for guests?")
    assert not same_place("Northgate", "Policy Northgate")
