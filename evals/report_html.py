"""The self-contained HTML report: the Markdown report's tables plus the figures, embedded as base64 PNGs."""

from __future__ import annotations

import base64
from html import escape

from boundloop.evals.plots import FIGURES
from boundloop.evals.report_markdown import DEFINITIONS
from boundloop.evals.report_model import EvalReport
from boundloop.evals.report_tables import Table, header_lines, metrics_table, outcome_table, problem_table, type_tables

_STYLE = """
body { font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 72rem; color: #222; }
table { border-collapse: collapse; margin: 0.5rem 0 1rem; font-size: 0.9rem; }
th, td { border: 1px solid #ccc; padding: 0.25rem 0.6rem; text-align: right; }
th:first-child, td:first-child { text-align: left; }
th { background: #f3f3f3; }
.figures { display: flex; flex-wrap: wrap; gap: 1rem; }
.figures figure { margin: 0; }
.note { color: #555; font-size: 0.85rem; }
"""


def table(t: Table) -> str:
    rows = "".join("<tr>" + "".join(f"<td>{escape(c)}</td>" for c in row) + "</tr>" for row in t.rows)
    head = "".join(f"<th>{escape(h)}</th>" for h in t.header)
    body = f"<table><thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>" if t.rows else ""
    note = f'<p class="note">{escape(t.note)}</p>' if t.note else ""
    return f"<h3>{escape(t.title)}</h3>{body}{note}"


def figure(title: str, png: bytes) -> str:
    data = base64.b64encode(png).decode("ascii")
    return f'<figure><img alt="{escape(title)}" src="data:image/png;base64,{data}"><figcaption>' \
           f"{escape(title)}</figcaption></figure>"


def render(report: EvalReport) -> str:
    facts = "".join(f"<li><b>{escape(label)}</b>: {escape(value)}</li>" for label, value in header_lines(report))
    figures = "".join(figure(title, draw(report)) for title, draw in FIGURES.items())
    definitions = "".join(f"<li>{escape(line.removeprefix('- ').strip())}</li>"
                          for line in DEFINITIONS.replace("\n  ", " ").splitlines() if line.strip())
    title = f"boundloop eval: {report.dataset} ({report.setting})"
    return (
        f'<!doctype html><html lang="en"><head><meta charset="utf-8"><title>{escape(title)}</title>'
        f"<style>{_STYLE}</style></head><body><h1>{escape(title)}</h1><ul>{facts}</ul>"
        f"{table(metrics_table(report))}<h2>Figures</h2><div class=\"figures\">{figures}</div>"
        f"<h2>By question type</h2>{''.join(table(t) for t in type_tables(report))}"
        f"<h2>Runs</h2>{table(outcome_table(report))}{table(problem_table(report))}"
        f"<h2>Definitions</h2><ul>{definitions}</ul></body></html>\n"
    )
