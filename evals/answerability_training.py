"""Fit the offline reader's answerability model on public dev data: `python3 -m boundloop.evals.answerability_training`.

Writes `reasoners/offline/answerability.json` (weights, standardisation, threshold, and what it was fitted on).
Everything is read from `../shared/data` (or `--data`), never copied. Examples:

- answerable questions of HotpotQA `dev.jsonl` (first 300), MuSiQue `dev.jsonl` and 2WikiMultihopQA `dev.jsonl`,
  each asked against its own pooled passages;
- SQuAD 2.0 `squad2_dev_normans_rhine.json` questions 301 to 706, answerable or not, against their passages (the
  first 300 are the set the abstention figure is reported on, so they are left out);
- questions nothing in the index answers: SelfAware's unanswerable questions asked of the HotpotQA pool; questions
  of other companies' documents (Contoso's HR and benefits questions, the SEC 10-Q questions) and HotpotQA
  questions asked of the bundled demo corpus (a company intranet with HR, finance and IT pages, so they share its
  words but not its facts); MuSiQue questions asked of the 2WikiMultihopQA pool. Only the questions of Contoso and
  the 10-Qs are used, never their answers or documents.

Each question is asked through the loop as users ask it (the offline reasoner), and the features are read from the
best chain of its final evidence. Label 1: answerable and the chain holds a gold answer; 0: nothing answers it.
Answerable questions whose best chain misses the answer are left out: the model judges readings, not questions.
The fit is an L2 logistic regression on standardised features, the two classes weighted alike; among the negatives,
the questions asked of their own corpus (SQuAD's unanswerables: the documents are about their subject but do not
say the answer), the rarer and harder case, carry a third of the weight, more than their share. The threshold is
the one that does best on two things at once: balanced accuracy (weighted so) under
5-fold cross-validation grouped by source passage, and accuracy on the bundled demo's 40 questions (the tuning set
issue 11 names; a wrong reading counts as one that must not be answered). Takes a few minutes.
"""

from __future__ import annotations

import argparse
import json
import sys
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from boundloop.domain.models import Understanding
from boundloop.evals.answers import contains, normalise
from boundloop.evals.corpus import EvalCorpus, asking_user
from boundloop.evals.datasets import load_dataset
from boundloop.evals.datasets.model import EvalDataset, EvalQuestion
from boundloop.evals.demo_questions import load as load_demo
from boundloop.evals.index_cache import cached_index
from boundloop.evals.systems import SystemRunner
from boundloop.policies.budget import BudgetLimits
from boundloop.reasoners.offline import OfflineReasoner
from boundloop.reasoners.offline.answer_types import expected_answer
from boundloop.reasoners.offline.answerability import FEATURES, MODEL_FILE, features
from boundloop.reasoners.offline.chains import chains
from boundloop.reasoners.offline.drafting import evidence_units
from boundloop.reasoners.offline.reading import read, term_weights
from boundloop.reasoners.offline.render import render
from boundloop.reasoners.offline.similarity import EncoderSimilarity
from boundloop.retrieval.embeddings import build_embeddings

SQUAD_REPORTED = 300
SELFAWARE = 300
CROSS = 200
FOLDS = 5
L2 = 10.0
OWN_CORPUS_SHARE = 1 / 3
"""The share of the negatives' weight that questions asked of their own corpus carry (about a quarter of them)."""


@dataclass
class Example:
    row: list[float]
    label: int
    group: str
    source: str
    elsewhere: bool = False
    """A question asked of another corpus than its own (an easy negative): these weigh half of the negatives."""


def _asked(corpus_of: EvalDataset, questions: list[EvalQuestion], source: str, similarity: EncoderSimilarity,
           nothing_answers: bool = False, wrong_is_negative: bool = False) -> list[Example]:
    """Ask `questions` against `corpus_of`'s passages and read the features of each best chain.

    With `nothing_answers`, the questions come from elsewhere (or have no answer) and are all unanswerable here.
    """
    corpus = EvalCorpus.of(corpus_of)
    encoder = build_embeddings()
    backend = cached_index(corpus.documents, encoder, f"answerability-{corpus_of.name}-{Path(corpus_of.path).stem}",
                           None, False)
    # the loop as users run it, but deciding by coverage: the evidence must not depend on the model being fitted
    runner = SystemRunner("loop", corpus.resolver(), backend, encoder, BudgetLimits(),
                          reasoner=OfflineReasoner(answerability_model=False))
    user = next(iter(corpus_of.directory)) if nothing_answers else None
    found: list[Example] = []
    try:
        for i, q in enumerate(questions):
            asker = user or asking_user(q, "pooled")
            result = runner.runner.ask(q.question, asker)
            state = runner.runner.graph.get_state({"configurable": {"thread_id": result.run_id}}).values
            example = _example(q, state, nothing_answers or not q.answerable, similarity, wrong_is_negative)
            if example is not None:
                example.group, example.source = f"{source}:{q.supporting_doc_ids[:1] or q.qid}", source
                example.elsewhere = nothing_answers
                found.append(example)
            if i % 50 == 0:
                print(f"{source}: {i}/{len(questions)}", file=sys.stderr)
    finally:
        backend.close()
    return found


def _example(q: EvalQuestion, state: dict, unanswerable: bool, similarity: EncoderSimilarity,
             wrong_is_negative: bool = False) -> Example | None:
    understanding = state.get("understanding") or Understanding(query_class="lookup")
    expected = expected_answer(q.question, understanding.query_class)
    if expected.kind in ("choice", "yes_no", "list") or understanding.query_class in ("comparison", "out_of_scope"):
        return None
    units, rank_of = evidence_units(state.get("evidence", []))
    weights = term_weights(q.question, units)
    ranked = chains(read(q.question, expected, units, rank_of, weights), q.question, weights)
    if not ranked:
        return None
    if unanswerable:
        label = 0
    else:
        said = " ".join(render(r.unit, q.question) for r in ranked[0].readings) + " " + (ranked[0].answer or "")
        right = all(contains(said, gold) for gold in q.answers if normalise(gold)) if wrong_is_negative else \
            any(contains(said, gold) for gold in q.answers if normalise(gold))
        if not right and not wrong_is_negative:
            return None
        label = int(right)
    row = features(q.question, expected, ranked[0], ranked[1] if len(ranked) > 1 else None, weights, similarity)
    return Example([row[name] for name in FEATURES], label, "", "")


def _selfaware(path: Path, limit: int) -> list[EvalQuestion]:
    rows = json.loads(path.read_text())["example"]
    unanswerable = [r for r in rows if not r["answerable"]][:limit]
    return [EvalQuestion(qid=f"selfaware-{r['question_id']}", question=r["question"], answers=(), answerable=False,
                         qtype="unanswerable", supporting_doc_ids=(), own_doc_ids=()) for r in unanswerable]


def collect(data: Path, demo: Path) -> list[Example]:
    similarity = EncoderSimilarity(build_embeddings("minilm"))
    hotpot = load_dataset("hotpotqa", data / "hotpotqa/dev.jsonl", 300)
    musique = load_dataset("musique", data / "musique/dev.jsonl")
    wiki = load_dataset("2wikimultihopqa", data / "2wikimultihopqa/dev.jsonl", skip_rows_without_context=True)
    squad = load_dataset("squad2", data / "unanswerable/squad2_dev_normans_rhine.json")
    company = load_demo(demo, None)
    examples: list[Example] = []
    for dataset, name in ((hotpot, "hotpotqa"), (musique, "musique"), (wiki, "2wiki")):
        examples += _asked(dataset, dataset.questions, name, similarity)
    tuning = squad.questions[SQUAD_REPORTED:]
    keep = {d for q in tuning for d in q.supporting_doc_ids + q.own_doc_ids}
    pool = EvalDataset(squad.name, f"{squad.path}#tuning", tuning,
                       {k: v for k, v in squad.passages.items() if k in keep}, squad.directory)
    examples += _asked(pool, pool.questions, "squad2", similarity)
    selfaware = _selfaware(data / "unanswerable/selfaware.json", SELFAWARE)
    examples += _asked(hotpot, selfaware, "selfaware", similarity, nothing_answers=True)
    examples += _asked(company, hotpot.questions[:CROSS], "hotpot-on-company", similarity, nothing_answers=True)
    for name, folder in (("contoso", "enterprise/contoso"), ("sec10q", "enterprise/sec10q")):
        other = load_dataset(name, data / folder)
        examples += _asked(company, other.questions[:CROSS], f"{name}-on-company", similarity, nothing_answers=True)
    examples += _asked(wiki, musique.questions, "musique-on-2wiki", similarity, nothing_answers=True)
    return examples


def balance(y: np.ndarray, elsewhere: np.ndarray) -> np.ndarray:
    """Example weights: the classes weigh alike; negatives asked of their own corpus carry `OWN_CORPUS_SHARE`.

    Questions asked of another corpus (or of none) are easy, their words are missing; questions asked of their own
    corpus, which is about their subject but does not say the answer, are the case that matters and rarer.
    """
    n = len(y)
    weight = np.where(y == 1, n / (2 * max(y.sum(), 1)), 0.0)
    own, other = (y == 0) & ~elsewhere, (y == 0) & elsewhere
    share = OWN_CORPUS_SHARE if own.any() and other.any() else float(own.any())
    for part, mass in ((own, share), (other, 1 - share)):
        weight[part] = n * mass / (2 * max(part.sum(), 1))
    return weight


def fit(x: np.ndarray, y: np.ndarray, weight: np.ndarray, l2: float = L2) -> tuple[np.ndarray, float]:
    """L2 logistic regression by Newton's method on standardised features, examples weighted."""
    n, d = x.shape
    w, b = np.zeros(d), 0.0
    for _ in range(50):
        p = 1 / (1 + np.exp(-(x @ w + b)))
        g = weight * (p - y)
        h = weight * p * (1 - p)
        xb = np.hstack([x, np.ones((n, 1))])
        hessian = xb.T @ (xb * h[:, None]) + np.diag([l2] * d + [0.0])
        step = np.linalg.solve(hessian, xb.T @ g + np.append(l2 * w, 0.0))
        w, b = w - step[:d], b - float(step[d])
        if np.abs(step).max() < 1e-8:
            break
    return w, b


def cross_validated(x: np.ndarray, y: np.ndarray, weight: np.ndarray, groups: list[str]) -> np.ndarray:
    """Out-of-fold probabilities, folds grouped by source passage."""
    names = sorted(set(groups))
    fold_of = {g: i % FOLDS for i, g in enumerate(np.random.default_rng(7).permutation(names))}
    folds = np.array([fold_of[g] for g in groups])
    p = np.zeros(len(y))
    for k in range(FOLDS):
        train, test = folds != k, folds == k
        w, b = fit(x[train], y[train], weight[train])
        p[test] = 1 / (1 + np.exp(-(x[test] @ w + b)))
    return p


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    root = Path(__file__).resolve().parent.parent
    parser.add_argument("--data", type=Path, default=root.parent / "shared" / "data")
    parser.add_argument("--out", type=Path, default=MODEL_FILE)
    parser.add_argument("--examples", type=Path, help="keep the collected features in this JSON file and reuse "
                        "them when it exists (only while the reader and its features are unchanged)")
    args = parser.parse_args(argv)
    if args.examples and args.examples.exists():
        kept = json.loads(args.examples.read_text())
        examples, demo = ([Example(**e) for e in kept[part]] for part in ("examples", "demo"))
    else:
        examples = collect(args.data, root / "demo")
        company = load_demo(root / "demo", None)
        demo = _asked(company, company.questions, "demo", EncoderSimilarity(build_embeddings("minilm")),
                      wrong_is_negative=True)
        if args.examples:
            args.examples.write_text(json.dumps({"features": list(FEATURES), "examples": [vars(e) for e in examples],
                                                 "demo": [vars(e) for e in demo]}))
    raw = np.array([e.row for e in examples])
    y = np.array([e.label for e in examples], dtype=float)
    means, scales = raw.mean(axis=0), raw.std(axis=0) + 1e-9
    x = (raw - means) / scales
    weight = balance(y, np.array([e.elsewhere for e in examples], dtype=bool))
    p = cross_validated(x, y, weight, [e.group for e in examples])
    w, b = fit(x, y, weight)
    demo_y = np.array([e.label for e in demo])
    demo_p = 1 / (1 + np.exp(-(((np.array([e.row for e in demo]) - means) / scales) @ w + b)))
    thresholds = np.arange(0.2, 0.81, 0.01)
    negative = weight * (y == 0)
    accuracy = [float(((p[y == 1] >= t).mean() + negative @ (p < t) / negative.sum()) / 2) for t in thresholds]
    on_demo = [float(((demo_p >= t) == (demo_y == 1)).mean()) for t in thresholds]
    best = int(np.argmax([a + d for a, d in zip(accuracy, on_demo, strict=True)]))
    threshold = float(thresholds[best])
    for t in thresholds[::3]:
        own = (y == 0) & (negative > 0) & ~np.array([e.elsewhere for e in examples], dtype=bool)
        print(f"threshold {t:.2f}: answers {(p[y == 1] >= t).mean():.3f} of the answerable, declines "
              f"{(p[y == 0] < t).mean():.3f} of the rest ({(p[own] < t).mean():.3f} of those asked of their own "
              f"corpus); demo accuracy {((demo_p >= t) == (demo_y == 1)).mean():.3f}", file=sys.stderr)
    by_source = {s: {"n": sum(e.source == s for e in examples), "answerable": int(sum(e.label for e in examples
                                                                                       if e.source == s))}
                 for s in dict.fromkeys(e.source for e in examples)}
    args.out.write_text(json.dumps({
        "features": list(FEATURES), "means": means.round(6).tolist(), "scales": scales.round(6).tolist(),
        "weights": w.round(6).tolist(), "bias": round(float(b), 6), "threshold": round(threshold, 2),
        "cross_validated_balanced_accuracy": round(accuracy[best], 4), "demo_accuracy": round(on_demo[best], 4),
        "demo_questions_read": len(demo), "examples": by_source,
        "fitted_by": "python3 -m boundloop.evals.answerability_training",
    }, indent=1) + "\n")
    print(f"wrote {args.out}: {len(examples)} examples, threshold {threshold:.2f}, cross-validated balanced "
          f"accuracy {accuracy[best]:.3f}, demo accuracy {on_demo[best]:.3f} over {len(demo)} questions read")
    return 0


if __name__ == "__main__":
    sys.exit(main())
