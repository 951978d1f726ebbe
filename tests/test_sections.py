"""A chunk that starts inside a section carries the section's headings; HTML headings are headings."""

from __future__ import annotations

from boundloop.retrieval.chunking import chunk_document
from boundloop.retrieval.documents import Document
from boundloop.retrieval.html_text import html_text

CALENDAR = "# Closures 2025\n\nIntro line.\n\n## Leeds (UK)\n\n| Date | Reason |\n|---|---|\n" + "".join(
    f"| 2025-01-{d:02d} | Leeds closure number {d} of the year |\n" for d in range(1, 12)) + \
    "\n## Tilburg (Netherlands)\n\n| Date | Reason |\n|---|---|\n" + "".join(
    f"| 2025-02-{d:02d} | Tilburg closure number {d} of the year |\n" for d in range(1, 12))


def test_a_chunk_that_starts_inside_a_section_begins_with_its_heading():
    chunks = chunk_document(Document("cal", "Closures 2025", CALENDAR, ("staff",), source="s"), max_words=40,
                            overlap_words=8)
    assert len(chunks) > 3
    for chunk in chunks:
        lines = chunk.text.split("\n")
        first_row = next((i for i, line in enumerate(lines) if line.startswith("Date:")), None)
        if first_row is None:
            continue
        section = "## Tilburg (Netherlands)" if "Tilburg closure" in lines[first_row] else "## Leeds (UK)"
        assert section in lines[:first_row], chunk.text
    # the title heading is not repeated: every chunk carries the title already
    assert sum(c.text.count("# Closures 2025") for c in chunks) == 1


def test_html_headings_become_headings_and_tables_stay_rows():
    title, text = html_text("<html><title>Contacts</title><body><h2>\n  Leeds   site\n</h2><table>"
                            "<tr><th>Name</th><th>Room</th></tr><tr><td>Ann</td><td>L1.02</td></tr></table>"
                            "<h3>Tilburg</h3><p>Ask reception.</p></body></html>")
    assert title == "Contacts"
    lines = [line for line in text.split("\n") if line.strip()]
    assert lines[0] == "## Leeds site" and "### Tilburg" in lines and "| Ann | L1.02 |" in lines



def test_a_chunk_that_starts_at_a_heading_carries_its_parents_not_its_sibling():
    text = "# Policy\n\n## 1. Why\n\n" + "Reason sentence number one here. " * 12 + "\n\n## 2. Limits\n\n" + \
        "Limit sentence number one here. " * 12
    chunks = chunk_document(Document("p", "Policy", text, ("staff",), source="s"), max_words=40, overlap_words=8)
    for chunk in chunks:
        lines = chunk.text.split("\n")
        assert not ("## 1. Why" in lines and "## 2. Limits" in lines and lines.index("## 2. Limits") == 1), chunk.text


def test_underlined_and_wholly_bold_lines_are_headings():
    from boundloop.domain.sentences import split_sentences

    text = ("LOCKOUTS\n--------\nAfter 5 failed attempts your account is locked.\n\n"
            "* Minimum length: 14 characters. A passphrase is easier\n  to remember.\n\n"
            "**When is payday?**  \nSalaries are paid on the 25th.\n\n**Owner:**\nFinance")
    assert split_sentences(text) == [
        "## LOCKOUTS", "After 5 failed attempts your account is locked.",
        "* Minimum length: 14 characters. A passphrase is easier to remember.",
        "#### When is payday?", "Salaries are paid on the 25th.", "**Owner:** Finance"]


def test_a_plain_text_guides_capital_headings_and_indented_fields():
    """'SITE MANAGER' over an indented value is a heading and its value; 'Staff:    X' is a field, not two cells."""
    from boundloop.domain.sentences import split_sentences

    text = ("SITE GUIDE\n==========\n\nSITE MANAGER\n  Beatriz Lopes (Training Centre Manager)\n\n"
            "WIFI\n  Staff:    AGS-ATC-Staff\n  Trainees: AGS-ATC-Guest\n\nThe NATO phonetic alphabet is used.\n")
    assert split_sentences(text) == [
        "## SITE GUIDE", "### SITE MANAGER", "Beatriz Lopes (Training Centre Manager)", "### WIFI",
        "Staff: AGS-ATC-Staff", "Trainees: AGS-ATC-Guest", "The NATO phonetic alphabet is used."]


def test_a_capital_line_without_an_indented_block_is_no_heading():
    from boundloop.domain.sentences import split_sentences

    assert split_sentences("PLEASE NOTE\nThe gate shuts at six.") == ["PLEASE NOTE The gate shuts at six."]
