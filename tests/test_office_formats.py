"""Word, PowerPoint, Excel, CSV and e-mail files in a folder: text, structure, titles, provenance, ACLs, bad files."""

import json
import re
import shutil
import zipfile

import pytest

from boundloop.cli.main import main
from boundloop.retrieval.chunking import chunk_document
from boundloop.retrieval.documents import Document, LoadProblem
from boundloop.retrieval.loaders import load_folder
from tests.office_files import with_macros, write_docx, write_eml, write_pptx, write_xlsx
from tests.pdfgen import write_pdf


def read(folder):
    items = list(load_folder(folder))
    return ({i.doc_id: i for i in items if isinstance(i, Document)},
            {i.source: i.message for i in items if isinstance(i, LoadProblem)})


@pytest.fixture
def share(tmp_path):
    root = tmp_path / "share"
    (root / "hr").mkdir(parents=True)
    write_docx(root / "hr" / "leave.docx")
    write_pptx(root / "results.pptx")
    write_xlsx(root / "mileage.xlsx")
    (root / "rooms.csv").write_text("Room;Floor\n3.12;3\n1.04;1\n")
    write_eml(root / "move.eml")
    (root / "acl.json").write_text(json.dumps({"hr/*": ["hr"], "*": ["all-staff"]}))
    return root


def test_a_word_document_keeps_its_title_headings_table_properties_and_acl(share):
    leave = read(share)[0]["hr/leave"]
    assert leave.title == "Leave Policy 2026" and leave.acl == ("hr",) and leave.source == "hr/leave.docx"
    assert "## Annual leave" in leave.text and "- Book two weeks ahead" in leave.text
    assert "| Office | Working days |\n| --- | --- |\n| Lisbon | 25 |" in leave.text
    assert leave.metadata["author"] == "Priya Raman" and leave.metadata["date"] == "2026-03-02"
    rows = [c.text for c in chunk_document(leave) if "Lisbon" in c.text]
    assert rows and "## Annual leave" in rows[0] and "Office: Lisbon; Working days: 25" in rows[0]


def test_a_deck_is_cited_by_slide_with_titles_bullets_tables_and_notes(share):
    deck = read(share)[0]["results"]
    assert deck.title == "Q3 Results" and deck.pages is not None and len(deck.pages) == 3
    assert deck.pages[1].startswith("## Revenue") and "  - Lisbon led the growth" in deck.pages[1]
    assert "### Notes\n\nMention the currency effect." in deck.pages[1]
    chunks = {c.page: c.text for c in chunk_document(deck)}
    assert "Region: Europe; Sales: 4.1 M" in chunks[3] and "currency effect" in chunks[2]


def test_a_workbook_is_read_sheet_by_sheet_with_row_ranges_under_the_header(share):
    book = read(share)[0]["mileage"]
    assert book.title == "Mileage claims" and book.metadata["sheets"] == ["Mileage"]
    late = [c.text for c in chunk_document(book) if "Person 22" in c.text]
    assert late and late[0].startswith("## Mileage\n")
    assert "### Rows 2-21" not in late[0].split("Person 22")[0].split("### Rows 22-26")[-1]
    assert late[0].index("### Rows 22-26") < late[0].index("Person 22")
    assert "Employee: Person 22; Kilometres: 122" in late[0]


def test_every_format_gives_its_author_and_modified_day_as_metadata(tmp_path):
    import openpyxl
    import pptx

    from tests.office_files import MODIFIED

    write_pptx(tmp_path / "deck.pptx")
    deck = pptx.Presentation(str(tmp_path / "deck.pptx"))
    deck.core_properties.author, deck.core_properties.modified = "Jonas Berg", MODIFIED
    deck.save(str(tmp_path / "deck.pptx"))
    book = openpyxl.Workbook()
    book.active.append(["Room", "Seats"])
    book.active.append(["Atlas", 12])
    book.properties.creator = "Lena Vos"
    book.save(str(tmp_path / "saved.xlsx"))  # openpyxl stamps the time of saving as the modified time: set it after
    with zipfile.ZipFile(tmp_path / "saved.xlsx") as saved, zipfile.ZipFile(tmp_path / "book.xlsx", "w") as copy:
        for item in saved.infolist():
            part = saved.read(item.filename)
            if item.filename == "docProps/core.xml":
                part = re.sub(rb"(<dcterms:modified[^>]*>)[^<]*", rb"\g<1>2026-03-02T09:30:00Z", part)
            copy.writestr(item, part)
    (tmp_path / "saved.xlsx").unlink()
    write_pdf(tmp_path / "guide.pdf", ["Parking is on level minus one."], author="Ana Costa",
              modified="D:20260302093000Z")
    write_pdf(tmp_path / "bare.pdf", ["No properties at all."])
    no_info = tmp_path / "no-info.pdf"
    write_pdf(no_info, ["No information dictionary."])
    no_info.write_bytes(re.sub(rb" /Info \d+ 0 R", b"", no_info.read_bytes()))
    documents = read(tmp_path)[0]
    assert documents["no-info"].metadata == {}
    for doc_id, author in (("deck", "Jonas Berg"), ("book", "Lena Vos"), ("guide", "Ana Costa")):
        assert documents[doc_id].metadata["author"] == author, doc_id
        assert documents[doc_id].metadata["date"] == "2026-03-02", doc_id
        assert documents[doc_id].metadata["modified"].startswith("2026-03-02T09:30"), doc_id
    assert "date" not in documents["bare"].metadata and "author" not in documents["bare"].metadata


def test_a_csv_file_is_one_table_under_its_header(share):
    rooms = read(share)[0]["rooms"]
    assert rooms.title == "rooms" and "Room: 3.12; Floor: 3" in chunk_document(rooms)[0].text


def test_an_email_is_titled_by_its_subject_with_sender_and_date(share):
    mail = read(share)[0]["move"]
    assert mail.title == "Lisbon office move" and mail.acl == ("all-staff",)
    assert mail.metadata["author"] == "Ana Costa <ana@hollin.example>" and mail.metadata["date"] == "2026-11-03"
    assert "From: Ana Costa" in mail.text and "moves on 1 December" in mail.text


def test_an_emails_attachments_are_documents_of_their_own_under_the_messages_acl(tmp_path):
    root = tmp_path / "mail"
    root.mkdir()
    plan = b"---\nacl: [everyone]\n---\n# Floor plan\n\nDesk 4 is by the window.\n"
    write_docx(tmp_path / "leave.docx")
    write_eml(root / "move.eml", ("../../plan.md", plan), ("leave.docx", (tmp_path / "leave.docx").read_bytes()),
              ("tool.exe", b"MZ"), ("broken.pptx", b"PK\x03\x04 cut"))
    (root / "acl.yaml").write_text("'*': [facilities]\n")
    documents, problems = read(root)
    assert set(documents) == {"move", "move/plan.md", "move/leave.docx"}
    assert all(d.acl == ("facilities",) for d in documents.values())
    assert documents["move/plan.md"].source == "move.eml/plan.md" and "Desk 4" in documents["move/plan.md"].text
    assert documents["move/leave.docx"].title == "Leave Policy 2026"
    assert "damaged or truncated" in problems["move.eml/broken.pptx"]


def test_bad_files_are_skipped_and_named_and_nothing_else_is_lost(share, tmp_path):
    write_pdf(share / "really-a-pdf.docx", ["A PDF in disguise."])
    good = (share / "hr" / "leave.docx").read_bytes()
    (share / "truncated.docx").write_bytes(good[: len(good) // 2])
    (share / "locked.xlsx").write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 600)
    with_macros(share / "hr" / "leave.docx", share / "macros.docx")
    (share / "binary.eml").write_bytes(b"\x00\x01binary")
    documents, problems = read(share)
    assert "mislabelled: the file is a PDF" in problems["really-a-pdf.docx"]
    assert "damaged or truncated" in problems["truncated.docx"]
    assert "password-protected" in problems["locked.xlsx"]
    assert "macro-enabled" in problems["macros.docx"]
    assert "mislabelled" in problems["binary.eml"]
    assert set(documents) == {"hr/leave", "results", "mileage", "rooms", "move"}


def test_the_cli_skips_bad_office_files_with_exit_0_and_exit_2_when_none_was_read(share, tmp_path, capsys,
                                                                                   real_encoder):
    (share / "broken.pptx").write_bytes(b"PK\x03\x04 not really")
    code = main(["ingest", str(share), "--index", str(tmp_path / "idx")])
    err = capsys.readouterr().err
    assert code == 0 and "broken.pptx" in err and "damaged or truncated" in err
    only_bad = tmp_path / "bad"
    only_bad.mkdir()
    shutil.copy(share / "broken.pptx", only_bad / "broken.pptx")
    assert main(["ingest", str(only_bad), "--index", str(tmp_path / "idx2")]) == 2
    assert "no document of" in capsys.readouterr().err
