"""What is in force: of two statements of one field with different values, the reader answers the one in force.

Not superseded and no draft or proposal first, then the later statement date, then the later document date; the
other value is set aside in `conflicts` and is never the short answer. Documents invented for these tests.
"""

from __future__ import annotations

from boundloop.domain.models import Evidence, Understanding
from boundloop.reasoners.offline.extractive import IN_FORCE, read_answer
from boundloop.reasoners.offline.in_force import provisional, same_value, statement_date
from boundloop.reasoners.offline.units import units_of

LOOKUP = Understanding(query_class="lookup")


def dated(doc_id: str, title: str, text: str, date: str | None, score: float = 0.03) -> Evidence:
    return Evidence(chunk_id=f"{doc_id}#0", doc_id=doc_id, title=title, text=text, score=score, hop=1,
                    found_by=["q0"], rank=1, document_date=date)


def _unit(text: str, date: str | None = "2025-03-12", title: str = "Notice"):
    return [u for u in units_of(dated("n", title, text, date)) if not u.is_heading][0]


def test_a_statement_dates_itself_and_a_date_without_its_year_takes_its_documents():
    assert statement_date(_unit("With effect from 1 April 2025 the rate is 49p per mile.")) == "2025-04-01"
    assert statement_date(_unit("The rate is 49p per mile from 1 May.")) == "2025-05-01"
    assert statement_date(_unit("The committee agreed on 3 June 2025 to raise it to £30.")) == "2025-06-03"
    assert statement_date(_unit("From Monday 15 July 2024 the cut-off is 12:30.")) == "2024-07-15"
    assert statement_date(_unit("The rate is 49p per mile from 1 May.", date=None)) is None
    assert statement_date(_unit("With effect from Q3 FY25 the rate is 49p per mile.")) is None  # no known form
    assert statement_date(_unit("The rate is 49p per mile.")) is None


def test_drafts_and_proposals_are_provisional():
    assert provisional(_unit("The rate is £45.", title="DRAFT - Standby allowance review"))
    assert provisional(_unit("Status: NOT APPROVED. The rate is £45.", title="Standby review"))
    assert provisional(_unit("We propose that the rate rises to £45.", title="Standby review"))
    assert not provisional(_unit("The rate is £38.50.", title="Overtime and Standby Policy"))


POLICY = dated("allowances", "Staff Allowances Policy",
               "The cycle to work allowance is £20 per month for every employee.", "2023-04-01", score=0.05)
MINUTES = dated("minutes-2025-03-14", "People Committee minutes",
                "The cycle to work allowance is £25 per month for every employee, with effect from 1 April 2025.",
                "2025-03-14")


def test_later_minutes_give_the_value_in_force_and_the_policys_is_set_aside():
    decision = read_answer("How much is the cycle to work allowance?", LOOKUP, [POLICY, MINUTES])
    draft = decision.draft
    assert draft.short_answer == "£25 per month"
    assert all("£20" not in claim.text for claim in draft.claims)  # the older value is no claim of its own
    assert draft.claims[-1].citations == ["minutes-2025-03-14#0"] and IN_FORCE in decision.rules
    conflict = draft.conflicts[0]
    assert conflict.values == ["£25 per month", "£20 per month"] and conflict.in_force == "£25 per month"
    assert conflict.in_force_chunk_id == "minutes-2025-03-14#0" and conflict.reason == "later"
    assert conflict.dates == ["2025-04-01", "2023-04-01"]
    assert "in force: '£25 per month'" in decision.note and "set aside '£20 per month' (later)" in decision.note


def test_the_policy_stays_in_force_when_it_is_the_later_one():
    older = MINUTES.model_copy(update={"document_date": "2022-01-10", "score": 0.05,
                                       "text": "The cycle to work allowance is £25 per month for every employee."})
    newer = POLICY.model_copy(update={"document_date": "2024-04-01", "score": 0.03})
    draft = read_answer("How much is the cycle to work allowance?", LOOKUP, [older, newer]).draft
    assert draft.short_answer == "£20 per month" and draft.conflicts[0].values == ["£20 per month", "£25 per month"]


def test_an_email_announcing_a_new_rate_from_a_day_of_its_year():
    policy = dated("expenses", "Expenses Policy", "Night shift meal allowance: £28 per shift", "2024-01-01", 0.05)
    email = dated("email-night-meals", "Night shift meal allowance",
                  "From: Payroll\nDate: Thu, 10 Apr 2025 09:00:00 +0000\n\n"
                  "The night shift meal allowance will be £32 per shift from 1 May.", "2025-04-10")
    decision = read_answer("How much is the night shift meal allowance?", LOOKUP, [policy, email])
    assert decision.draft.short_answer == "£32"
    assert decision.draft.conflicts[0].dates == ["2025-05-01", "2024-01-01"]


def test_a_newer_version_is_in_force_over_the_older_one():
    v1 = dated("parking-permits-v1", "Parking Permits v1", "An annual parking permit costs £120 for staff.",
               "2021-05-01", 0.05)
    v2 = dated("parking-permits-v2", "Parking Permits v2", "An annual parking permit costs £150 for staff.", None)
    draft = read_answer("How much does an annual parking permit cost?", LOOKUP, [v1, v2]).draft
    assert draft.short_answer == "£150" and draft.conflicts[0].reason == "approved"
    assert draft.conflicts[0].values == ["£150", "£120"]


def test_a_later_draft_never_overrides_the_approved_value():
    policy = dated("overtime-policy", "Overtime and Standby Policy",
                   "The standby allowance for a weekday night is £38.50 per night.", "2024-01-01")
    proposal = dated("standby-review", "DRAFT - Standby allowance review",
                     "The standby allowance for a weekday night is £45.00 per night.", "2025-02-17", 0.05)
    decision = read_answer("How much is the standby allowance for a weekday night?", LOOKUP, [policy, proposal])
    assert decision.draft.short_answer == "£38.50 per night"
    assert decision.draft.conflicts[0].values == ["£38.50 per night", "£45.00 per night"]
    assert decision.draft.conflicts[0].reason == "approved"


def test_a_proposal_to_change_a_value_is_no_change():
    policy = dated("overtime-policy", "Overtime and Standby Policy",
                   "The standby allowance for a weekday night is £38.50 per night.", "2024-01-01", 0.05)
    proposal = dated("standby-review", "Standby allowance review",
                     "We propose that the standby allowance for a weekday night goes up from £38.50 per night to "
                     "£45.00 per night.", "2025-02-17")
    draft = read_answer("How much is the standby allowance for a weekday night?", LOOKUP, [policy, proposal]).draft
    assert draft.short_answer == "£38.50 per night"


def test_a_current_version_saying_what_the_value_was_answers_for_the_superseded_one():
    v1 = dated("lone-working-v1", "Lone Working Procedure v1",
               "Lone workers must phone the control room to check in every 2 hours while working alone.",
               "2022-05-03", 0.05)
    v2 = dated("lone-working-v2", "Lone Working Procedure v2",
               "The check-in interval is shorter: every 90 minutes (was every 2 hours).", "2024-09-01")
    draft = read_answer("How often do lone workers have to phone the control room to check in?", LOOKUP, [v1, v2]).draft
    assert draft.short_answer == "90 minutes" and [c.citations for c in draft.claims] == [["lone-working-v2#0"]]
    assert (draft.conflicts[0].in_force, draft.conflicts[0].reason) == ("90 minutes", "changed")


def test_undated_statements_are_not_ordered_and_the_trace_says_so():
    one = dated("guide-a", "Visitor guide", "The visitor badge deposit is €10 per badge.", None, 0.05)
    other = dated("guide-b", "Reception notes", "The visitor badge deposit is €15 per badge.", None)
    decision = read_answer("How much is the visitor badge deposit?", LOOKUP, [one, other])
    assert decision.draft.short_answer == "€10" and decision.draft.conflicts == []
    assert "not ordered against guide-b (undated)" in decision.note


def test_other_fields_and_other_places_are_no_rivals():
    cambridge = dated("drills", "Fire drills", "The Cambridge fire drill is on 15 October 2024.", "2024-01-01", 0.05)
    singapore = dated("news", "Newsletter", "The Singapore fire drill is on 6 November 2024.", "2024-09-01")
    decision = read_answer("When is the Cambridge fire drill?", LOOKUP, [cambridge, singapore])
    assert decision.draft.short_answer == "15 October 2024" and not decision.note


def test_values_are_one_when_one_holds_the_other_word_for_word():
    assert same_value("£38.50", "£38.50 per night") and same_value("every 2 hours", "2 hours")
    assert not same_value("£5", "£50") and not same_value("2 hours", "12 hours")
