"""A field asked of every sibling document, read by its meaning: labels, headings and sentences that name it.

The documents are invented: four branch guides of a bakery chain, each laid out its own way.
"""

from __future__ import annotations

import pytest

from boundloop.domain.models import Evidence, SubQuery, Understanding
from boundloop.domain.text import stem, stems
from boundloop.reasoners.offline.field_values import STRUCTURE, field_value
from boundloop.reasoners.offline.fields import field_asked
from boundloop.reasoners.offline.planning import refine
from boundloop.reasoners.offline.sibling_search import sibling_check
from boundloop.reasoners.offline.siblings import members
from boundloop.reasoners.offline.units import units_of
from tests.reader_fixtures import evidence, short_answer

LOOKUP = Understanding(query_class="lookup")

BRANCHES = [
    evidence("branch-guide-ashford", "Branch guide — Ashford bakery",
             "Address: 4 Mill Lane, Ashford TN23 1AB\nBranch manager: Olu Adeyemi\n"
             "Staff Wi-Fi: CRUMB-ASH (ask the shift lead)\nFirst aider: Nell Price, ext. 7101"),
    evidence("branch-guide-bexley", "Bexley bakery",
             "# Bexley bakery\n## At a glance\nItem: Wireless network; Details: CRUMB-BEX\n"
             "Item: Manager; Details: Tariq Shah\nItem: First aid; Details: Lena Ford (ext. 7202)\n"
             "Item: Where we are; Details: 9 Oven Street, Bexley DA5 1QE"),
    evidence("branch-guide-corby", "Corby branch — welcome",
             "**Who runs it.** Imke Vos is the branch manager.\n"
             "**First aid.** The first-aid contact for the branch is Ravi Bose (packing), ext. 7305. "
             "The first-aid room is next to the flour store.\n"
             "Staff should connect to the CRUMB-COR network with their usual login."),
    evidence("branch-guide-dover", "DOVER BRANCH GUIDE",
             "DOVER BRANCH GUIDE\n===\nWIFI\n  Staff: CRUMB-DOV\n  Guest: CRUMB-FREE (voucher from the till)\n"
             "FIRST AID\n  First-aider on duty: ext. 7402\nBRANCH MANAGER\n  Ada Lund, Branch Manager, ext. 7400"),
    evidence("staff-list", "Staff list", "Name: Adeyemi, Olu; Branch: Ashford; Ext.: 7100\n"
             "Name: Shah, Tariq; Branch: Bexley; Ext.: 7200"),
]


def _items(answer: str | None) -> set[str]:
    assert answer is not None
    return {item.strip() for item in answer.replace(" and ", ", ").split(",")}


def test_the_field_is_read_under_every_label_its_siblings_give_it():
    """'Staff Wi-Fi', 'Wireless network', a sentence and a 'WIFI' heading over 'Staff:' all give the wifi name."""
    answer = short_answer("What are the staff wifi names at each of our branches?", *BRANCHES)
    assert {"CRUMB-ASH", "CRUMB-BEX", "CRUMB-COR", "CRUMB-DOV"} <= _items(answer)
    assert "CRUMB-FREE" not in _items(answer)  # the guest network is no staff wifi


def test_a_persons_field_is_read_from_sentences_and_headings_not_from_remarks_nor_the_staff_list():
    answer = short_answer("Who is the manager of each of our branches?", *BRANCHES)
    assert {"Olu Adeyemi", "Tariq Shah", "Imke Vos", "Ada Lund"} <= _items(answer)
    first_aid = short_answer("can you list the first aid contact for every branch", *BRANCHES)
    assert "Ravi Bose" in _items(first_aid)
    assert not any("flour" in item for item in _items(first_aid))  # where the room is, not who to call


def test_a_value_with_a_form_is_that_form_wherever_the_field_is_named():
    """'first aid extension': the extension of the first-aid line, not the words around it."""
    answer = short_answer("first aid extension at each branch?", *BRANCHES)
    assert {"ext. 7101", "ext. 7202", "ext. 7305", "ext. 7402"} <= _items(answer)
    postcodes = short_answer("What are the postcodes of all our branches?", *BRANCHES)
    assert {"TN23 1AB", "DA5 1QE"} <= _items(postcodes)


def _field_value(line: str, words: str, kind: str, heading: str = "") -> str | None:
    field = field_asked(words.split(), {stem(w): 1.0 + i for i, w in enumerate(words.split())}, kind)
    assert field is not None
    unit = units_of(evidence("guide", "Guide", f"{heading}\n{line}" if heading else line))[-1]
    found = field_value(unit, field)
    return found.value if found else None


@pytest.mark.parametrize("line, words, kind, heading, value", [
    ("SSID: CRUMB-HQ", "staff wifi", "name", "", "CRUMB-HQ"),  # another word for the field
    ("Staff network: CRUMB-HQ (login)", "staff wifi", "name", "## Wifi", "CRUMB-HQ"),  # under its heading
    ("Guest: CRUMB-FREE", "staff wifi", "name", "## Remarks", None),  # under another heading
    ("Nina Holt is the branch manager.", "branch manager", "person", "", "Nina Holt"),
    ("The branch manager is **Nina Holt**.", "branch manager", "person", "## Who runs it", "Nina Holt"),
    ("Call the first aid room on ext. 7000 between 06:00 and 14:00.", "first aid", "phone", "", "ext. 7000"),
    ("Reach the ops room on ext. 4200 between 04:00 and 00:30.", "branch manager", "person", "## Manager", None),
    ("Nina Holt — shift lead, bakehouse office, ext. 7010.", "first aid", "person", "## First aid",
     "Nina Holt"),  # under its heading, a line opening on a name
    ("In summer a seasonal lead helps.", "branch manager", "person", "## Manager", None),  # a sentence, no value
])
def test_a_unit_gives_the_field_by_its_structure_or_a_sentence_naming_it(line, words, kind, heading, value):
    assert _field_value(line, words, kind, heading) == value


def test_a_field_line_set_in_bold_is_read_though_it_heads_the_lines_after_it():
    guide = evidence("guide", "Guide", "**Wifi:** CRUMB-HQ\n**First aid:** Nina Holt, ext. 7001\nMore text here.")
    field = field_asked(["wifi"], {"wifi": 2.0}, "name")
    assert field is not None
    found = [f for u in units_of(guide) if (f := field_value(u, field))]
    assert found and all(f.value == "CRUMB-HQ" and f.how == STRUCTURE for f in found)


def test_the_family_is_the_documents_filed_like_its_named_members():
    """Two guides filed 'branch-guide-*' bring in the third, titled otherwise; the staff list is no member."""
    titles = {"branch-guide-ashford": "Branch guide — Ashford bakery", "branch-guide-bexley": "Bexley bakery",
              "branch-guide-corby": "Corby — welcome", "staff-list": "Staff list", "branch-policy": "Branch policy"}
    docs, filed = members(titles, set(stems("branches")))
    assert docs == {"branch-guide-ashford", "branch-guide-bexley", "branch-guide-corby"}
    assert filed == "branch guide"


def _search(*documents: Evidence, done: tuple[str, ...] = ()) -> list[str]:
    question = "Who is the first aid contact at each of our branches?"
    ran = [SubQuery(id="q0", text=question, mode="hybrid", purpose="the whole question", k=3),
           *(SubQuery(id=f"r{n}", text=t, mode="hybrid", purpose=f"the rest of {t}", k=4) for n, t in enumerate(done))]
    check = sibling_check(question, LOOKUP, ran, list(documents))
    assert check.across
    if check.gap is None:
        return []
    return [q.text for q in refine(question, ran, _assessment(check.gap), 1).subqueries]


def _assessment(gap):
    from boundloop.domain.models import Assessment

    return Assessment(coverage=[], question_coverage=1.0, conflicts=[], gap=gap)


def test_a_sibling_held_without_the_field_is_searched_for_by_its_title():
    """Corby's opening chunk is held, its first-aid line is not: search Corby's guide for the field."""
    corby = evidence("branch-guide-corby", "Corby branch — welcome", "Opening words about the Corby branch.")
    searches = _search(BRANCHES[0], BRANCHES[2].model_copy(update={"doc_id": "branch-guide-corbyx"}), corby)
    assert any("Corby branch — welcome" in s and "first aid" in s for s in searches)
    assert any(s.startswith("branch guide") for s in searches)  # the siblings not held, by their file names


def test_no_sibling_search_is_left_once_every_sibling_held_gives_the_field_and_the_family_was_searched():
    assert _search(*BRANCHES[:4], done=("branch guide",)) == []


def test_a_line_between_two_marked_headings_is_the_content_of_the_first():
    """'### MANAGER' / 'Ada Lund (Branch Manager)' / '### RECEPTION': Ada Lund is no heading of her own."""
    units = units_of(evidence("guide", "Guide", "### MANAGER\nAda Lund (Branch Manager)\n### RECEPTION\next. 5000"))
    ada = next(u for u in units if u.text.startswith("Ada"))
    assert not ada.is_heading and ada.heading == "MANAGER"
    contact = units_of(evidence("guide", "Guide", "FIRST AID\nDean Hart, Team Leader, ext. 5127\nMore words."))
    assert not next(u for u in contact if u.text.startswith("Dean")).is_heading  # a contact line heads nothing


def test_a_postcode_set_as_a_heading_is_read_for_the_postcodes_asked():
    field = field_asked(["postcodes"], {"postcod": 2.0}, "postcode")
    assert field is not None and field.by_form
    guide = evidence("guide", "Guide", "#### 9 Oven Street, Bexley DA5 1QE\nTen minutes from the station.")
    found = [f.value for u in units_of(guide) if not u.is_heading and (f := field_value(u, field))]
    assert found == ["DA5 1QE"]
