"""Folder ingest of Office, mail and PDF files against the same content as Markdown (issue 35).

Generates a mixed folder of `--files` files (docx, pptx, xlsx, eml, pdf, md in equal shares; realistic sizes, made
with the readers' own libraries, the PDFs with a tiny writer) and a second folder holding the same content as plain
Markdown, one `.md` per file. Each folder is ingested `--runs` times into a fresh index by `boundloop ingest` in a
child process; a wrapper process around it reports the ingest's peak RSS (`resource.getrusage(RUSAGE_CHILDREN)`: the
largest process of the ingest, its parse workers included) and the peak of their sum (sampled from /proc every
0.2 s). Files and chunks per second are wall clock, process start to exit (encoder load included); medians.

    python3 benchmarks/bench_formats.py [--files 2000] [--runs 3] [--keep DIR]
    python3 benchmarks/bench_formats.py --quick      # 120 files, one run each
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from email.message import EmailMessage
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from benchmarks.ingest_memory import document_text  # noqa: E402
from tests.pdfgen import write_pdf as pdf  # noqa: E402

KINDS = ("docx", "pptx", "xlsx", "eml", "pdf", "md")
OFFICES = ("Lisbon", "Tilburg", "Porto", "Toronto", "Singapore", "Austin", "Krakow", "Leeds")


def _sections(rng: random.Random, count: int, size: int) -> list[tuple[str, list[str]]]:
    """(heading, paragraphs) for `count` sections of about `size` characters each."""
    return [(f"{rng.choice(OFFICES)} {rng.choice(['policy', 'process', 'review', 'plan'])} {n + 1}",
             document_text(rng, size).split("\n\n")) for n in range(count)]


def _table(rng: random.Random, rows: int) -> list[list[str]]:
    header = ["Office", "Quarter", "Budget (EUR)", "Headcount", "Owner", "Status"]
    return [header] + [[rng.choice(OFFICES), f"Q{rng.randint(1, 4)} 2026", f"{rng.randint(5, 900) * 100:,}",
                        str(rng.randint(3, 400)), f"Person {rng.randint(1, 999)}",
                        rng.choice(["open", "approved", "closed"])] for _ in range(rows)]


def _md_table(rows: list[list[str]]) -> str:
    lines = ["| " + " | ".join(rows[0]) + " |", "|" + " --- |" * len(rows[0])]
    return "\n".join(lines + ["| " + " | ".join(row) + " |" for row in rows[1:]])


def write_docx(path: Path, title: str, sections: list[tuple[str, list[str]]], table: list[list[str]]) -> None:
    import docx

    document = docx.Document()
    document.add_heading(title, 0)
    for heading, paragraphs in sections:
        document.add_heading(heading, 1)
        for paragraph in paragraphs:
            document.add_paragraph(paragraph)
    grid = document.add_table(rows=len(table), cols=len(table[0]))
    for r, row in enumerate(table):
        for c, value in enumerate(row):
            grid.cell(r, c).text = value
    document.save(str(path))


def write_pptx(path: Path, title: str, sections: list[tuple[str, list[str]]]) -> None:
    import pptx

    deck = pptx.Presentation()
    deck.slides.add_slide(deck.slide_layouts[0]).shapes.title.text = title
    for heading, paragraphs in sections:
        slide = deck.slides.add_slide(deck.slide_layouts[1])
        slide.shapes.title.text = heading
        frame = slide.placeholders[1].text_frame
        frame.text = paragraphs[0][:200]
        for paragraph in paragraphs[1:3]:
            frame.add_paragraph().text = paragraph[:200]
        slide.notes_slide.notes_text_frame.text = " ".join(paragraphs[3:]) or paragraphs[0]
    deck.save(str(path))


def write_xlsx(path: Path, title: str, table: list[list[str]]) -> None:
    import openpyxl

    book = openpyxl.Workbook()
    sheet = book.active
    sheet.title = "Budgets"
    for row in table:
        sheet.append(row)
    book.properties.title = title
    book.save(str(path))


def write_eml(path: Path, title: str, paragraphs: list[str], number: int) -> None:
    message = EmailMessage()
    message["Subject"], message["From"], message["To"] = title, f"Person {number} <p{number}@hollin.example>", \
        "all@hollin.example"
    message["Date"] = "Tue, 03 Nov 2026 10:00:00 +0000"
    message.set_content("\n\n".join(paragraphs))
    path.write_bytes(bytes(message))


def write_pdf(path: Path, title: str, paragraphs: list[str]) -> None:
    """A real PDF of Helvetica text lines, 50 to a page (what pypdf reads back as the lines)."""
    lines = [title, ""] + [line for p in paragraphs for line in [*textwrap.wrap(p, 95), ""]]
    pdf(path, [lines[i:i + 50] for i in range(0, len(lines), 50)], title=title)


def generate(mixed: Path, markdown: Path, files: int) -> dict[str, int]:
    """Both folders; the bytes of each kind in the mixed one."""
    rng = random.Random(35)
    sizes: dict[str, int] = {}
    for n in range(files):
        kind = KINDS[n % len(KINDS)]
        title = f"{rng.choice(OFFICES)} {rng.choice(['handbook', 'briefing', 'budget', 'update'])} {n}"
        sections = _sections(rng, rng.randint(3, 5), rng.randint(600, 1200))
        paragraphs = [p for _, ps in sections for p in ps]
        table = _table(rng, rng.randint(8, 15) if kind == "docx" else rng.randint(100, 200))
        path = mixed / f"{n:05d}-{kind}.{kind}"
        body = "\n\n".join(f"## {h}\n\n" + "\n\n".join(ps) for h, ps in sections)
        if kind == "docx":
            write_docx(path, title, sections, table)
            body += "\n\n" + _md_table(table)
        elif kind == "pptx":
            write_pptx(path, title, sections)
        elif kind == "xlsx":
            write_xlsx(path, title, table)
            body = "## Budgets\n\n" + _md_table(table)
        elif kind == "eml":
            write_eml(path, title, paragraphs, n)
            body = "\n\n".join(paragraphs)
        elif kind == "pdf":
            write_pdf(path, title, paragraphs)
            body = "\n\n".join(paragraphs)
        else:
            path.write_text(f"# {title}\n\n{body}\n")
        (markdown / f"{n:05d}-{kind}.md").write_text(f"# {title}\n\n{body}\n")
        sizes[kind] = sizes.get(kind, 0) + path.stat().st_size
    for folder in (mixed, markdown):
        (folder / "acl.json").write_text(json.dumps({"*": ["all-staff"]}))
    return sizes


def _tree_rss_kb(root: int) -> int:
    """The summed VmRSS of `root` and its descendants, from /proc."""
    parents: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
                parents[int(entry)] = int(stat.rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
    tree, frontier = {root}, [root]
    while frontier:
        frontier = [pid for pid, parent in parents.items() if parent in frontier and pid not in tree]
        tree.update(frontier)
    total = 0
    for pid in tree:
        try:
            for line in Path(f"/proc/{pid}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total


def measured_child(folder: str, index: str) -> None:
    """(In the wrapper process) one ingest; prints its seconds, report and peak RSS as JSON."""
    command = [sys.executable, "-m", "boundloop", "ingest", folder, "--index", index, "--json"]
    start = time.perf_counter()
    child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    tree_peak = 0
    while child.poll() is None:
        tree_peak = max(tree_peak, _tree_rss_kb(child.pid))
        time.sleep(0.2)
    seconds = time.perf_counter() - start
    report = json.loads(child.stdout.read()) if child.stdout else {}
    print(json.dumps({"seconds": seconds, "chunks": report.get("chunks_written"), "seen": report.get("seen"),
                      "problems": len(report.get("problems", [])), "code": child.returncode,
                      "peak_rss_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024,
                      "tree_peak_rss_mb": tree_peak / 1024}))


def run(folder: Path, tmp: Path, runs: int) -> dict[str, float]:
    results = []
    for n in range(runs):
        index = tmp / f"index-{folder.name}-{n}"
        done = subprocess.run([sys.executable, __file__, "--child", str(folder), str(index)],
                              capture_output=True, text=True, check=True)
        results.append(json.loads(done.stdout))
        print(f"  {folder.name} run {n + 1}: {results[-1]}", file=sys.stderr)
    seconds = statistics.median(r["seconds"] for r in results)
    return {"runs": runs, "files": results[0]["seen"], "chunks": results[0]["chunks"],
            "problems": results[0]["problems"], "median_seconds": round(seconds, 1),
            "files_per_s": round(results[0]["seen"] / seconds, 1),
            "chunks_per_s": round(results[0]["chunks"] / seconds, 1),
            "peak_rss_mb": round(max(r["peak_rss_mb"] for r in results)),
            "tree_peak_rss_mb": round(max(r["tree_peak_rss_mb"] for r in results))}


def main() -> int:
    if sys.argv[1:2] == ["--child"]:
        measured_child(sys.argv[2], sys.argv[3])
        return 0
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--files", type=int, default=2000)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--keep", type=Path, help="generate into this folder and keep it")
    parser.add_argument("--quick", action="store_true", help="120 files, one run each")
    args = parser.parse_args()
    if args.quick:
        args.files, args.runs = 120, 1
    with tempfile.TemporaryDirectory(prefix="bench-formats-") as scratch:
        tmp = args.keep or Path(scratch)
        mixed, markdown = tmp / "mixed", tmp / "markdown"
        mixed.mkdir(parents=True, exist_ok=True)
        markdown.mkdir(parents=True, exist_ok=True)
        started = time.perf_counter()
        sizes = generate(mixed, markdown, args.files)
        print(f"generated {args.files} files in {time.perf_counter() - started:.0f} s", file=sys.stderr)
        load_before = os.getloadavg()[0]
        office, plain = run(mixed, tmp, args.runs), run(markdown, tmp, args.runs)
    print(json.dumps({
        "mixed": office, "markdown": plain,
        "files_per_s_ratio": round(office["files_per_s"] / plain["files_per_s"], 2),
        "mixed_mb_by_kind": {k: round(v / 1e6, 1) for k, v in sizes.items()},
        "cores": len(os.sched_getaffinity(0)), "load_average_1m": [round(load_before, 1),
                                                                   round(os.getloadavg()[0], 1)],
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
    }, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
