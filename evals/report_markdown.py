"""The Markdown report."""

from __future__ import annotations

from boundloop.evals.report_model import EvalReport
from boundloop.evals.report_tables import Table, header_lines, metrics_table, outcome_table, problem_table, type_tables

DEFINITIONS = """\
- answer_em / answer_f1: HotpotQA normalisation, best over gold answer and aliases; the prediction is the answer
  without its [n] markers ('' when the run did not answer); answerable questions only.
- answer_recall: the normalised gold answer appears, as whole words, in the normalised answer.
- support_recall / support_precision: gold supporting documents (that the user may read) reached by the evidence,
  and the share of the evidence's documents that are gold.
- citation_precision: share of citations pointing to a gold supporting document (answered runs with citations).
- grounding_rate: drafted claims that survived verification, over all drafted claims.
- abstain_accuracy: answered when answerable; abstained or fell back when not (fallback counts as not answered).
- leak_rate: runs that cited, offered, retrieved or quoted a document outside the asker's entitlements.
- budget_violations: runs over any per-run limit (the time limit allows 0.5 s for the closing path).
- limit_hit_rate: runs closed by a limit; p50_ms / p95_ms: wall time per run with the eval's worker threads.
- one_hop_same_k: one hybrid search for the whole question at k = the loop's distinct evidence chunks.
"""


def table(t: Table) -> str:
    lines = [f"### {t.title}", ""]
    if t.rows:
        lines += ["| " + " | ".join(t.header) + " |", "|" + "|".join(" --- " for _ in t.header) + "|"]
        lines += ["| " + " | ".join(c.replace("|", "\\|") for c in row) + " |" for row in t.rows]
        lines.append("")
    if t.note:
        lines += [t.note, ""]
    return "\n".join(lines)


def render(report: EvalReport) -> str:
    parts = [f"# boundloop eval: {report.dataset} ({report.setting})", ""]
    parts += [f"- **{label}**: {value}" for label, value in header_lines(report)]
    parts += ["", table(metrics_table(report)), "## By question type", ""]
    parts += [table(t) for t in type_tables(report)]
    parts += ["## Runs", "", table(outcome_table(report)), table(problem_table(report))]
    parts += ["## Definitions", "", DEFINITIONS]
    return "\n".join(parts)
