"""Small synthetic datasets in the real formats, for end-to-end eval tests that run in seconds."""

from __future__ import annotations

import json
from pathlib import Path

PARAGRAPHS = {
    "Red Harbour": ["Red Harbour is a 1994 drama film directed by Ana Lima.", " It was shot in the Azores."],
    "Ana Lima": ["Ana Lima is a Portuguese film director.", " She was born in Porto in 1951."],
    "Blue Valley": ["Blue Valley is a 2001 western directed by Rui Costa.", " It won no awards."],
    "Rui Costa": ["Rui Costa is a film director born in Braga.", " He studied in Lisbon."],
    "Braga": ["Braga is a city in northern Portugal.", " The Este river flows through Braga."],
    "Green Tower": ["Green Tower is a lighthouse built in 1820 on the coast of Maine."],
    "Silver Bridge": ["Silver Bridge is a suspension bridge opened in 1928 in Ohio."],
    "Porto": ["Porto is a coastal city in Portugal known for port wine."],
}

QUESTIONS = [
    ("h1", "bridge", "In which city was the director of the film Red Harbour born?", "Porto",
     ["Red Harbour", "Ana Lima"], ["Red Harbour", "Ana Lima", "Blue Valley"]),
    ("h2", "bridge", "Which river flows through the birthplace of the director of Blue Valley?", "Este",
     ["Rui Costa", "Braga"], ["Blue Valley", "Rui Costa", "Braga", "Porto"]),
    ("h3", "comparison", "Which was built first, Green Tower or Silver Bridge?", "Green Tower",
     ["Green Tower", "Silver Bridge"], ["Green Tower", "Silver Bridge", "Red Harbour"]),
    ("h4", "bridge", "Where did the director of Blue Valley study?", "Lisbon",
     ["Blue Valley", "Rui Costa"], ["Blue Valley", "Rui Costa", "Green Tower"]),
]


def hotpotqa_file(folder: Path) -> Path:
    """A HotpotQA file (Hugging Face layout) whose questions share some paragraphs."""
    rows = []
    for qid, qtype, question, answer, support, context in QUESTIONS:
        rows.append({
            "id": qid, "type": qtype, "question": question, "answer": answer,
            "supporting_facts": {"title": support, "sent_id": [0] * len(support)},
            "context": {"title": context, "sentences": [PARAGRAPHS[t] for t in context]},
        })
    path = folder / "hotpot.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    return path


DEMO_DOCS = {
    "expense-policy": ("all-staff", "Expense policy", "Expense claims above EUR 5,000 need approval from the Head "
                       "of Finance. Claims are filed in Concur within 30 days."),
    "org-chart": ("all-staff", "Org chart", "The Head of Finance is Priya Raman. The Head of People is Tomas Berg."),
    "salary-bands": ("hr", "Salary bands", "Level L5 engineers in Lisbon earn between EUR 80,000 and EUR 95,000 "
                     "per year. The bands are reviewed every December by the People team."),
}

DEMO_QUESTIONS = [
    {"id": "d1", "user": "bob", "class": "lookup", "expect": "answered", "answer_contains": ["Priya Raman"],
     "question": "Who is the Head of Finance?", "gold_doc_ids": ["org-chart"]},
    {"id": "d2", "user": "bob", "class": "lookup", "expect": "abstained", "answer_contains": [],
     "question": "What do Level L5 engineers in Lisbon earn per year?", "gold_doc_ids": ["salary-bands"],
     "forbidden_doc_ids": ["salary-bands"]},
    {"id": "d3", "user": "alice", "class": "lookup", "expect": "answered", "answer_contains": ["EUR 80,000"],
     "question": "What do Level L5 engineers in Lisbon earn per year?", "gold_doc_ids": ["salary-bands"]},
]


def demo_folder(folder: Path) -> Path:
    """A folder in the bundled demo's layout: corpus/ with ACLs in front matter, directory.yaml, questions."""
    corpus = folder / "corpus"
    corpus.mkdir(parents=True)
    for doc_id, (group, title, text) in DEMO_DOCS.items():
        (corpus / f"{doc_id}.md").write_text(f"---\nid: {doc_id}\ntitle: {title}\nacl: [{group}]\n---\n{text}\n")
    (folder / "directory.yaml").write_text(
        "users:\n  alice: {groups: [all-staff, hr]}\n  bob: {groups: [all-staff]}\n")
    (folder / "questions.jsonl").write_text("".join(json.dumps(q) + "\n" for q in DEMO_QUESTIONS))
    return folder
