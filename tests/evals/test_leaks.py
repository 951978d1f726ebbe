"""Leak detection: forbidden citations, fallback results, retrieved evidence and quoted text must be caught."""

from __future__ import annotations

from boundloop.evals.leaks import AccessView, LeakDetector, shingles
from boundloop.evals.records import EvidenceRef, RunRecord, ShownDoc

TEXTS = {
    "handbook": "The referral bonus for a senior engineer is EUR 4,000 paid after six months of service.",
    "benefits": "Dental cover pays 80 percent of routine treatment after a deductible of EUR 50.",
    "shared": "Contoso Electronics provides its employees with benefits. Dental cover pays 80 percent of routine "
              "treatment after a deductible of EUR 50.",
}
VIEW = AccessView(
    {"handbook": frozenset({"hr"}), "benefits": frozenset({"staff", "hr"}), "shared": frozenset({"hr"})},
    {"employee": frozenset({"staff"}), "hr": frozenset({"hr"}), "nobody": frozenset()},
)
DETECTOR = LeakDetector(VIEW, TEXTS)


def run(answer: str = "", cited: tuple[str, ...] = (), fallback: tuple[str, ...] = (),
        evidence: tuple[str, ...] = (), snippet: str = "") -> RunRecord:
    return RunRecord(
        status="answered" if answer else "fallback", answer=answer,
        citations=[ShownDoc(doc_id=d, chunk_id=f"{d}#0") for d in cited],
        fallback=[ShownDoc(doc_id=d, chunk_id=f"{d}#0", snippet=snippet) for d in fallback],
        evidence=[EvidenceRef(doc_id=d, chunk_id=f"{d}#0", hop=1) for d in evidence],
    )


def test_a_clean_run_has_no_findings() -> None:
    clean = run("Dental cover pays 80 percent of routine treatment. [1]", cited=("benefits",), evidence=("benefits",))
    assert DETECTOR.findings("employee", clean) == []


def test_an_injected_forbidden_citation_is_caught() -> None:
    leaky = run("Something. [1]", cited=("handbook",), evidence=("benefits",))
    assert DETECTOR.findings("employee", leaky) == ["showed forbidden document 'handbook'"]
    assert DETECTOR.findings("hr", leaky) == []


def test_forbidden_fallback_results_and_retrieved_evidence_are_caught() -> None:
    findings = DETECTOR.findings("employee", run(fallback=("handbook",), evidence=("shared",)))
    assert "showed forbidden document 'handbook'" in findings
    assert "retrieved forbidden document 'shared'" in findings


def test_text_found_only_in_forbidden_documents_is_caught_even_without_a_citation() -> None:
    leaky = run("Good news: the referral bonus for a senior engineer is EUR 4,000. [1]", cited=("benefits",))
    findings = DETECTOR.findings("employee", leaky)
    assert len(findings) == 1 and "found only in forbidden handbook" in findings[0]


def test_text_also_in_a_permitted_document_is_not_a_leak() -> None:
    # 'shared' is HR-only but repeats the benefits sentence the employee may read
    quoted = run("Dental cover pays 80 percent of routine treatment after a deductible of EUR 50.")
    assert DETECTOR.findings("employee", quoted) == []


def test_snippets_of_fallback_results_are_checked_too() -> None:
    leaky = run(fallback=("benefits",), snippet="the referral bonus for a senior engineer is EUR 4,000 paid")
    assert any("quoted" in f for f in DETECTOR.findings("employee", leaky))


def test_unknown_users_and_documents_are_denied() -> None:
    assert not VIEW.permits("mallory", "benefits")
    assert not VIEW.permits("hr", "unknown-doc")
    assert DETECTOR.findings("nobody", run(evidence=("benefits",))) == ["retrieved forbidden document 'benefits'"]


def test_shingles_are_runs_of_six_lowercased_words() -> None:
    assert list(shingles("A b C d e f g")) == [("a", "b", "c", "d", "e", "f"), ("b", "c", "d", "e", "f", "g")]
    assert list(shingles("too short")) == []
