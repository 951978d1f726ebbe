"""Chains through a role: the policy names the role, the org chart its holder, the directory the holder's details."""

from __future__ import annotations

from boundloop.domain.models import Understanding
from boundloop.reasoners.offline.answer_types import expected_answer
from boundloop.reasoners.offline.bridges import names_in
from boundloop.reasoners.offline.candidates import candidates
from boundloop.reasoners.offline.drafting import best_chains
from boundloop.reasoners.offline.units import units_of
from boundloop.reasoners.offline.verbs import doer_lead, doer_verb
from tests.reader_fixtures import evidence, short_answer

FAQ = evidence("faq", "Pay FAQ", "### Can I borrow against my salary?\nOnce a year, up to half your net pay. Salary "
               "advances must be approved by the Head of Treasury. Apply through the self-service portal.")
ORG = evidence("org", "Organisation chart", "# Organisation chart\n- **Chief Executive** — Ruth Amadi\n"
               "  - **Head of Treasury** — Ola Berg\n  - **Head of Legal** — Ines Moro", hop=2)
# a directory of fifty people: more rows cover 'extension' than the reader starts chains from
PEOPLE = [f"Name: {first} {last}; Department: Operations; Extension: {4000 + n}"
          for n, (first, last) in enumerate((f, la) for f in ("Anna", "Bruno", "Carla", "Dev", "Eva")
                                            for la in ("Lund", "Moss", "Nair", "Ortiz", "Park", "Quinn", "Rossi",
                                                       "Sato", "Tran", "Ueda"))]
DIRECTORY = evidence("dir", "Staff directory", "\n".join(
    ["Name: Ines Moro; Department: Legal; Extension: 3310", *PEOPLE[:25],
     "Name: Ola Berg; Department: Finance; Extension: 3120", *PEOPLE[25:],
     "Name: Ruth Amadi; Department: Executive; Extension: 3001"]), hop=3)


def test_an_org_chart_entry_joins_the_role_a_policy_names_to_the_holders_directory_row():
    # the entry 'Head of Treasury — Ola Berg' shares no word with the question; it is the chain's middle all the same
    assert short_answer("Who approves salary advances, and what's their extension?", FAQ, ORG, DIRECTORY) == "3120"


def test_without_the_org_chart_no_directory_row_answers():
    assert short_answer("Who approves salary advances, and what's their extension?", FAQ, DIRECTORY) != "3120"


def test_the_name_the_verb_leads_into_is_the_link_not_another_role_in_the_sentence():
    policy = evidence("policy", "Apron Safety Policy", "If a deviation is unavoidable, the Station Manager must "
                      "request it in writing and the deviation must be approved in writing by the Regional Lead "
                      "before it is applied.")
    org = evidence("org", "Organisation chart", "- **Regional Lead** — Tomas Reis\n- **Station Manager** — Duarte "
                   "Paiva", hop=2)
    people = evidence("dir", "Staff directory", "Name: Duarte Paiva; Extension: 2210\nName: Tomas Reis; "
                      "Extension: 2140", hop=3)
    question = "Who has to approve a deviation from the apron safety policy, and what's their extension?"
    assert short_answer(question, policy, org, people) == "2140"
    _, found = best_chains(question, Understanding(query_class="lookup"), [policy])
    assert names_in(found[0].last, question)[0] == "Regional Lead"


def test_what_leads_into_the_doer_is_the_verbs_own_participle_and_by():
    lead = doer_lead(doer_verb("Who has to approve it?"))
    assert lead is not None
    assert lead.search("must be approved in writing by the Regional Lead")
    assert not lead.search("Approved deviations are recorded by Safety & Compliance")  # who records, not approves
    assert doer_lead("") is None


def test_a_roles_own_entry_leads_on_to_its_holder_first():
    _, found = best_chains("Who is the Head of Treasury, and what's their extension?",
                           Understanding(query_class="lookup"), [ORG])
    entry = next(c for c in found if "Treasury" in c.last.unit.plain)
    assert names_in(entry.last, "Who signs it, and what's their extension?")[0] == "Ola Berg"


def test_an_acronym_is_no_person_and_the_glossary_leads_to_the_roles_holder():
    raci = evidence("raci", "Oversight Policy", "Activity: Set or change DA limits; Manager: R; CUO: A; RCC: I")
    glossary = evidence("glossary", "Glossary", "Acronym: CUO; Meaning: Chief Underwriting Officer\n"
                        "Acronym: DA; Meaning: Delegated Authority")
    org = evidence("org", "Who's who", "- **Chief Underwriting Officer** — Dr Anjali Mehta\n"
                   "- **Chief Risk Officer** — Patrick Deveraux", hop=2)
    person = expected_answer("who's our CUO at the moment?")
    assert person.kind == "person"
    row = units_of(raci)[0]
    assert all(c.text != "DA" for c in candidates(row, person, "who's our CUO at the moment?"))  # no person
    assert short_answer("who's our CUO at the moment?", raci, glossary, org) == "Dr Anjali Mehta"


def test_going_over_a_limit_is_in_the_band_above_it():
    from boundloop.reasoners.offline.quantities import banded, quantities

    question = "who has to approve my overtime if I go over 60 hours in a month, and what's their extension?"
    # 'over 60 hours' is just past 60: the band above 60 holds it, the band up to 60 does not
    assert banded("Any overtime above 60 hours in a calendar month needs the Head of Treasury", quantities(
        question, bounds=True)) == (["60"], False)
    assert banded("Overtime up to 60 hours a month: the line manager", quantities(question, bounds=True))[0] == []
    # a limit check keeps the number: 'Can I carry over 7 days?' asks about 7 against 'up to 7 days'
    assert quantities("Can I carry over 7 unused days?") == [("7", 7.0, "day")]
    policy = evidence("overtime", "Overtime policy", "## Overtime\n1. The duty manager may approve overtime on the "
                      "shift, up to 2 hours per person.\n2. Any overtime that takes a person above **60 hours in a "
                      "calendar month** must be approved by the **Head of Treasury** before it is worked.")
    assert short_answer(question, policy, ORG, DIRECTORY, query_class="multi_hop") == "3120"
