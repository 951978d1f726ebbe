"""Reading time against the evidence read: the offline reader over 10, 100 and 1,000 units (issue 32, Numbers).

Run: python3 benchmarks/bench_reading.py [--rounds 5] [--sizes 10,100,1000] [--out bench-results/reading.json]

The evidence is generated, seeded, from no shared data: a purchasing policy with its approval table, a staff
directory, site guides of `Label: value` fields, a table of travel allowances by destination and policy prose, each
padded with more rows, fields and sentences of its kind until the chunks hold the number of units asked (units as
`reasoners/offline/units.py` splits them). The reader reads at most `drafting.MAX_EVIDENCE` chunks, so past twelve
chunks they grow longer rather than more numerous (a long table, a whole directory). Four kinds of question: a
lookup, a person chain, a list for each site and a yes/no. Every round times each size and question side by side,
in the loop's order: evaluate (assess), then synthesise (the draft), on a fresh reasoner sharing one loaded encoder,
so the reader's vector cache starts empty as it does for a new question. Medians of the rounds, time per unit and
the ratios between sizes (linear: about x10 for ten times the units). Shared, noisy machines: read the ratios.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("HF_HUB_OFFLINE", "1")

from boundloop.domain.models import Evidence  # noqa: E402
from boundloop.policies.budget import CallBudget  # noqa: E402
from boundloop.reasoners.offline import OfflineReasoner  # noqa: E402
from boundloop.reasoners.offline.drafting import MAX_EVIDENCE  # noqa: E402
from boundloop.reasoners.offline.units import units_of  # noqa: E402
from boundloop.retrieval.embeddings import build_embeddings  # noqa: E402

FIRST = "Ada Ben Chloe Dev Elif Farah Gus Hana Ivo Jonas Kira Lars Mina Nadia Omar Pia Rui Sofia Tomas Uma".split()
LAST = "Brook Costa Dahl Evans Ferreira Gold Hale Ito Jansen Kowal Lund Moreau Novak Okafor Park Quinn Rossi Silva \
Tanaka Weber".split()
AREAS = "Payroll Facilities Travel Security Compliance Recruitment Treasury Logistics Training Quality".split()
TITLES = "Analyst Coordinator Officer Specialist Adviser Administrator Assistant Planner Partner Manager".split()
SITES = ("Northgate", "Ellerby", "Harbourside")
SYLLABLES = "bar bren dal fen gar hol kel lin mor nar pel ros sel tam ven wick yor zan".split()
PROSE = ("{area} requests are reviewed every {n} working days by the {area} team.",
         "Staff must complete the {area} training module within {n} weeks of joining.",
         "Receipts for {area} costs are kept for {n} years after the end of the financial year.",
         "The {area} desk answers tickets within {n} hours on working days.",
         "Managers confirm {area} changes in writing no later than {n} days before they apply.")

Lines = Callable[[random.Random, int], str]


def _person(rng: random.Random) -> str:
    return f"{rng.choice(FIRST)} {rng.choice(LAST)}"


def _place(rng: random.Random) -> str:
    return "".join(rng.choice(SYLLABLES) for _ in range(rng.randint(2, 3))).capitalize()


def _directory_row(rng: random.Random, i: int) -> str:
    return (f"Name: {_person(rng)}; Role: {rng.choice(AREAS)} {rng.choice(TITLES)}; Site: {rng.choice(SITES)}; "
            f"Room: {rng.randint(0, 6)}.{rng.randint(1, 40):02d}; Ext.: {rng.randint(5000, 9999)}")


def _allowance_row(rng: random.Random, i: int) -> str:
    return f"{_place(rng)}; Daily allowance: EUR {rng.randint(30, 90)}; Hotel cap: EUR {rng.randint(90, 260)}"


def _guide_field(rng: random.Random, i: int) -> str:
    return f"Meeting room {_place(rng)}: seats {rng.randint(4, 40)}, floor {rng.randint(0, 5)}"


def _prose(rng: random.Random, i: int) -> str:
    return rng.choice(PROSE).format(area=rng.choice(AREAS), n=rng.randint(2, 30))


def _guide(site: str, rng: random.Random) -> tuple[str, str, list[str], Lines]:
    return (f"guide-{site.lower()}", f"Site guide: {site}", [
        f"Address: {rng.randint(1, 99)} {_place(rng)} Road", f"Wifi (staff): {site[:3].upper()}-STAFF",
        f"First-aid contact: {_person(rng)} (ext. {rng.randint(2000, 2999)})"], _guide_field)


def documents(kind: str, rng: random.Random) -> list[tuple[str, str, list[str], Lines]]:
    """The documents that answer a question of `kind`: (doc id, title, their own lines, lines that pad them)."""
    if kind == "lookup":
        return [("allowances", "Travel allowances by destination",
                 ["Lisbon; Daily allowance: EUR 55; Hotel cap: EUR 140"], _allowance_row)]
    if kind == "chain":
        return [("purchasing", "Purchasing approval policy", [
            "Up to EUR 5,000; Approver: Budget holder", "EUR 5,000 to EUR 50,000; Approver: Finance Manager",
            "Above EUR 50,000; Approver: Head of Procurement"], _prose),
                ("directory", "Staff directory",
                 ["Name: Priya Raman; Role: Head of Procurement; Site: Northgate; Room: 3.12; Ext.: 4410"],
                 _directory_row)]
    if kind == "each_site":
        return [_guide(site, rng) for site in SITES]
    return [("leave", "Annual leave policy", [
        "Employees may carry over up to 5 days of unused annual leave into the next year."], _prose)]


QUESTIONS = {
    "lookup": "What is the daily allowance in Lisbon?",
    "chain": "What is the extension of the person who approves purchase orders above EUR 50,000?",
    "each_site": "Who is the first-aid contact at each of our sites?",
    "yes_no": "Can I carry over 8 days of annual leave?",
}
FILLERS: list[tuple[str, Lines]] = [("Staff directory (continued)", _directory_row),
                                    ("Travel allowances, other destinations", _allowance_row),
                                    ("Expenses and training policy", _prose)]


def evidence(kind: str, units: int, found_by: list[str], seed: int = 32) -> list[Evidence]:
    """Chunks holding about `units` units: the answering documents first, then others; at most MAX_EVIDENCE."""
    rng = random.Random(f"{seed}-{kind}-{units}")
    docs = documents(kind, rng)
    count = min(MAX_EVIDENCE, max(len(docs), math.ceil(units / 8)))
    docs += [(f"filler-{i}", *FILLERS[i % len(FILLERS)][:1], [], FILLERS[i % len(FILLERS)][1])
             for i in range(count - len(docs))]
    share = [units // count + (i < units % count) for i in range(count)]
    chunks = []
    for i, ((doc_id, title, own, pad), size) in enumerate(zip(docs, share, strict=True)):
        lines = own[:size] + [pad(rng, j) for j in range(size - len(own))]
        rng.shuffle(lines)
        chunks.append(Evidence(chunk_id=f"{doc_id}#0", doc_id=doc_id, title=title, text="\n".join(lines),
                               score=1.0 - i / 100, hop=1, found_by=found_by, rank=i + 1))
    return chunks


def unit_count(chunks: list[Evidence]) -> int:
    return sum(len(units_of(e)) for e in chunks)


def run(encoder: object, question: str, chunks_for: Callable[[list[str]], list[Evidence]]
        ) -> tuple[float, float, str | None, int]:
    """Evaluate, then synthesise, on a fresh reasoner: their milliseconds, the short answer, the units read."""
    budget = CallBudget(seconds=600.0, tokens=10**9)
    reasoner = OfflineReasoner(encoder)
    understanding = reasoner.understand(question, budget).value
    plan = reasoner.plan(question, understanding, budget).value
    chunks = chunks_for([q.id for q in plan.subqueries])
    started = time.perf_counter()
    assessment = reasoner.evaluate(question, understanding, plan.subqueries, chunks).value
    evaluated = time.perf_counter()
    draft = reasoner.synthesise(question, understanding, chunks, assessment, budget).value
    done = time.perf_counter()
    return (evaluated - started) * 1000, (done - evaluated) * 1000, draft.short_answer, unit_count(chunks)


def table(times: dict[tuple[str, str, int], list[float]], units: dict[tuple[str, int], int], step: str,
          sizes: list[int]) -> list[dict]:
    rows = []
    for kind in [*QUESTIONS, "all"]:
        previous = None
        for size in sizes:
            kinds = list(QUESTIONS) if kind == "all" else [kind]
            ms = sum(statistics.median(times[(step, k, size)]) for k in kinds)
            read = sum(units[(k, size)] for k in kinds)
            rows.append({"step": step, "question": kind, "units": read, "median_ms": round(ms, 2),
                         "ms_per_unit": round(ms / read, 4),
                         "ratio": round(ms / previous, 2) if previous else None})
            previous = ms
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--sizes", default="10,100,1000")
    parser.add_argument("--out", default="bench-results/reading.json")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    encoder = build_embeddings("minilm")
    times: dict[tuple[str, str, int], list[float]] = {}
    units: dict[tuple[str, int], int] = {}
    answers: dict[str, dict[int, str | None]] = {k: {} for k in QUESTIONS}
    for round_ in range(args.rounds + 1):  # the first round warms up: patterns compiled, vocabularies read
        for size in sizes:
            for kind, question in QUESTIONS.items():
                evaluate_ms, synthesise_ms, answer, read = run(
                    encoder, question, lambda found, k=kind, n=size: evidence(k, n, found))
                units[(kind, size)], answers[kind][size] = read, answer
                if round_:
                    times.setdefault(("evaluate", kind, size), []).append(evaluate_ms)
                    times.setdefault(("synthesise", kind, size), []).append(synthesise_ms)
    rows = table(times, units, "synthesise", sizes) + table(times, units, "evaluate", sizes)
    print(f"{'step':<11} {'question':<10} {'units':>6} {'median ms':>10} {'ms/unit':>8} {'ratio':>6}")
    for r in rows:
        ratio = f"x{r['ratio']}" if r["ratio"] else ""
        print(f"{r['step']:<11} {r['question']:<10} {r['units']:>6} {r['median_ms']:>10.2f} {r['ms_per_unit']:>8.4f} "
              f"{ratio:>6}")
    print("short answers by size:", json.dumps(answers))
    report = {"rounds": args.rounds, "sizes": sizes, "load_average": os.getloadavg(), "rows": rows,
              "answers": answers}
    Path(args.out).parent.mkdir(parents=True, exist_ok=True)
    Path(args.out).write_text(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
