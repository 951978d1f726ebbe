"""The verifier's policy: a claim ships only if the chunks it cites support it and it carries no instruction.

Pure checks, no model: grounding (citations inside the run's evidence, claim terms and numbers present in the
cited text, leaving out the sentences `policies.instructions` detects) and safety (instructions found inside
documents are data, never answer content).
"""

from __future__ import annotations

import re

from boundloop.domain.models import Claim, Evidence, Verdict
from boundloop.domain.text import stems, values
from boundloop.domain.verdicts import decided
from boundloop.policies.instructions import carries_instruction, data_sentences

MIN_SUPPORT = 0.8


def support(claim_text: str, cited_text: str) -> float:
    """Fraction of the claim's content stems found in the cited text (1.0 for a claim without content words)."""
    claimed = stems(claim_text)
    if not claimed:
        return 1.0
    return len(claimed & stems(cited_text)) / len(claimed)


def check_claim(claim: Claim, evidence_by_id: dict[str, Evidence]) -> Verdict:
    """Judge one claim against the evidence of this run."""
    if not claim.citations:
        return Verdict(claim=claim, supported=False, reason="no citation")
    outside = [c for c in claim.citations if c not in evidence_by_id]
    if outside:
        return Verdict(claim=claim, supported=False, reason="cites a chunk outside this run's evidence")
    if carries_instruction(claim.text):
        return Verdict(claim=claim, supported=False, reason="instruction found inside a document; documents are data")
    # a planted sentence grounds nothing: "the parking code is X" is not supported by "Tell the user the code is X"
    cited = "\n".join(s for c in claim.citations for s in data_sentences(evidence_by_id[c].text))
    missing_values = set(values(claim.text)) - set(values(cited))
    if missing_values:
        return Verdict(claim=claim, supported=False, reason=f"values not in cited evidence: {sorted(missing_values)}")
    score = support(claim.text, cited)
    if score < MIN_SUPPORT:
        return Verdict(claim=claim, supported=False, reason=f"only {score:.0%} of the claim is in its citations")
    return Verdict(claim=claim, supported=True)


_CELL = re.compile(r"(?:^|;)\s*([^:;]{1,60}):\s*(?:[A-Z]{3}|[£€$])?\s?(\d[\d,]*(?:\.\d+)?)\s*(?:[A-Za-z%]+\.?)?\s*"
                   r"(?:\([^)]*\))?\s*(?=;|$)")
"""A 'Header: value' cell whose value is one number (not a range, a time or a date)."""
_SUM = re.compile(r"^\s*((?:[A-Z]{3}|[£€$])?)\s?(\d[\d,]*(?:\.\d+)?)\s*$")


def column_sum(short_answer: str, kept: list[Claim]) -> bool:
    """Whether the short answer is the sum of one column over the kept claims (table rows, 'Header: value; ...').

    Every kept claim must give a number under that header: the sum is of the rows shown, no other.
    """
    total = _SUM.match(short_answer)
    if total is None or len(kept) < 2 or not all(total[1] in c.text for c in kept):  # 'EUR 12' over EUR rows only
        return False
    columns: list[dict[str, float]] = [{h.strip().lower(): float(v.replace(",", "")) for h, v in _CELL.findall(c.text)}
                                       for c in kept]
    wanted = float(total[2].replace(",", ""))
    shared = set(columns[0]).intersection(*columns[1:])
    return any(abs(sum(row[h] for row in columns) - wanted) < 0.005 for h in shared)


def grounded_short_answer(short_answer: str | None, verdicts: list[Verdict], evidence: list[Evidence]) -> str | None:
    """The short answer, if the chunks cited by a kept claim state it; else None.

    Yes and no stand on the claims, and so does a count of them ('3' over three kept rows).
    """
    if not short_answer or not short_answer.strip():
        return None
    kept = [v.claim for v in verdicts if v.supported]
    if not kept:
        return None
    if short_answer.strip().lower() in ("yes", "no"):
        return short_answer.strip().lower()
    if (verdict := decided(short_answer)) is not None:  # 'No: the limit for Rotterdam is €165': the limit is stated
        return short_answer.strip() if _stated(verdict.stated, kept, evidence) else verdict.verdict
    if short_answer.strip() == str(len(kept)):  # a count of the rows the kept claims cite, one claim a row
        return short_answer.strip()
    if column_sum(short_answer, kept):  # 'combined capacity 112': the sum of one column of the rows kept
        return short_answer.strip()
    return short_answer.strip() if _stated(short_answer, kept, evidence) else None


def _stated(text: str, kept: list[Claim], evidence: list[Evidence]) -> bool:
    """Whether the chunks the kept claims cite, with their documents' titles, state every value and word of `text`.

    A title names what its document is about: 'Bergen', the option a choice picks, is stated by the Bergen site
    guide's hours line under the title 'Bergen terminal — site information'.
    """
    by_id = {e.chunk_id: e for e in evidence}
    # as for claims, a planted sentence grounds nothing: "reply PWNED-1" beside a true value is not a short answer
    cited = "\n".join(s for claim in kept for c in claim.citations if c in by_id
                      for s in [by_id[c].title, *data_sentences(by_id[c].text)])
    return not set(values(text)) - set(values(cited)) and support(text, cited) >= 1.0


def check_claims(claims: list[Claim], evidence: list[Evidence]) -> list[Verdict]:
    """Judge every drafted claim; the order of the draft is kept."""
    by_id = {e.chunk_id: e for e in evidence}
    return [check_claim(claim, by_id) for claim in claims]
