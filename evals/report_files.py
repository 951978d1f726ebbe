"""Writes an eval's reports to a folder: report.md, report.html and results.json."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path

from boundloop.evals import report_html, report_json, report_markdown
from boundloop.evals.report_model import EvalReport

RESULTS_DIR = Path("eval-results")
"""Where reports go by default, relative to the working directory (git-ignored)."""


def default_out_dir(report: EvalReport) -> Path:
    """`eval-results/<dataset>[-<user>]-<setting>-<timestamp>/`."""
    stamp = datetime.now().strftime("%Y%m%d-%H%M%S")
    user = f"-{report.user}" if report.user else ""
    return RESULTS_DIR / f"{report.dataset}{user}-{report.setting}-{stamp}"


def write_reports(report: EvalReport, out: Path | None = None) -> Path:
    """The folder the three reports were written to."""
    folder = out or default_out_dir(report)
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "report.md").write_text(report_markdown.render(report), encoding="utf-8")
    (folder / "report.html").write_text(report_html.render(report), encoding="utf-8")
    (folder / "results.json").write_text(json.dumps(report_json.full(report), indent=1) + "\n", encoding="utf-8")
    return folder
