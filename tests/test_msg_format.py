"""Outlook .msg files in a folder: a compound file written by the tests' own writer, read as an .eml is."""

import io
import json
import shutil

import olefile
import pytest

from boundloop.cli.main import main
from boundloop.retrieval.documents import Document, LoadProblem
from boundloop.retrieval.loaders import load_folder
from tests.cfb_writer import write_cfb
from tests.office_files import write_docx, write_msg
from tests.pdfgen import write_pdf


def read(folder):
    items = list(load_folder(folder))
    return ({i.doc_id: i for i in items if isinstance(i, Document)},
            {i.source: i.message for i in items if isinstance(i, LoadProblem)})


def test_olefile_reads_what_the_writer_writes_at_its_strictest():
    big = bytes(range(256)) * 40  # over the 4,096-byte cutoff: regular sectors, not the mini stream
    streams = {"small": b"abc", "big": big, "folder/inner": b"x" * 100, "folder/deeper/leaf": b"leaf"}
    ole = olefile.OleFileIO(io.BytesIO(write_cfb(streams)), raise_defects=olefile.DEFECT_INCORRECT)
    assert sorted("/".join(p) for p in ole.listdir()) == sorted(streams)
    assert all(ole.openstream(path).read() == data for path, data in streams.items())


@pytest.fixture
def mailbox(tmp_path):
    root = tmp_path / "mail"
    root.mkdir()
    leave = write_docx(tmp_path / "leave.docx")
    plan = b"---\nacl: [everyone]\n---\n# Floor plan\n\nDesk 4 is by the window.\n"
    write_msg(root / "move.msg", ("../plan.md", plan), ("leave.docx", leave.read_bytes()), ("tool.exe", b"MZ"),
              ("broken.xlsx", b"PK\x03\x04 cut"))
    (root / "acl.yaml").write_text("'*': [facilities]\n")
    return root


def test_a_message_is_titled_by_its_subject_with_sender_date_and_body(mailbox):
    mail = read(mailbox)[0]["move"]
    assert mail.title == "Lisbon office move" and mail.acl == ("facilities",) and mail.source == "move.msg"
    assert mail.metadata["author"] == "Ana Costa <ana@hollin.example>" and mail.metadata["date"] == "2026-11-03"
    assert mail.text.startswith("From: Ana Costa <ana@hollin.example>\nTo: All staff\nDate: Tue, 03 Nov 2026")
    assert "moves on 1 December.\n\nBring your badge." in mail.text


def test_a_messages_attachments_are_documents_of_their_own_under_its_acl(mailbox):
    documents, problems = read(mailbox)
    assert set(documents) == {"move", "move/plan.md", "move/leave.docx"}  # the .exe is not a type ingest reads
    assert all(d.acl == ("facilities",) for d in documents.values())  # the attachment's own front matter loses
    assert documents["move/plan.md"].source == "move.msg/plan.md" and "Desk 4" in documents["move/plan.md"].text
    assert documents["move/leave.docx"].title == "Leave Policy 2026"
    assert "damaged or truncated" in problems["move.msg/broken.xlsx"]


def test_a_body_stored_only_as_compressed_rtf_is_read(tmp_path):
    write_msg(tmp_path / "rich.msg", body="Caf\u00e9 opens at 8.\n\nSecond {paragraph}.", rtf_only=True, sent=None)
    mail = read(tmp_path)[0]["rich"]
    assert "Café opens at 8.\n\nSecond {paragraph}." in mail.text and "fonttbl" not in mail.text
    assert "date" not in mail.metadata  # no submit time: the message gives no date


def test_damaged_and_mislabelled_messages_are_skipped_and_named(mailbox):
    good = (mailbox / "move.msg").read_bytes()
    (mailbox / "cut.msg").write_bytes(good[:1000])
    write_pdf(mailbox / "really-a-pdf.msg", ["A PDF in disguise."])
    (mailbox / "spreadsheet.msg").write_bytes(write_cfb({"Workbook": b"\x09\x08" * 300}))
    (mailbox / "empty.msg").write_bytes(b"")
    documents, problems = read(mailbox)
    assert "damaged or truncated Outlook message" in problems["cut.msg"]
    assert "mislabelled: the file is a PDF" in problems["really-a-pdf.msg"]
    assert "not an Outlook message" in problems["spreadsheet.msg"]
    assert "not an Outlook message" in problems["empty.msg"]
    assert set(documents) == {"move", "move/plan.md", "move/leave.docx"}


def test_the_cli_ingests_messages_and_exits_2_when_none_could_be_read(mailbox, tmp_path, capsys, real_encoder):
    (mailbox / "cut.msg").write_bytes((mailbox / "move.msg").read_bytes()[:1000])
    assert main(["ingest", str(mailbox), "--index", str(tmp_path / "idx"), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["added"] == 3 and any("cut.msg" in p["location"] for p in report["problems"])
    only_bad = tmp_path / "bad"
    only_bad.mkdir()
    shutil.copy(mailbox / "cut.msg", only_bad / "cut.msg")
    assert main(["ingest", str(only_bad), "--index", str(tmp_path / "idx2")]) == 2
    err = capsys.readouterr().err
    assert "cut.msg" in err and "no document of" in err


def test_a_message_that_only_carries_files_is_read_with_them(tmp_path):
    write_msg(tmp_path / "fwd.msg", ("rooms.csv", b"Room;Floor\n3.12;3\n"), body="")
    write_msg(tmp_path / "empty.msg", body="")
    documents, problems = read(tmp_path)
    assert set(documents) == {"fwd", "fwd/rooms.csv"} and "Attachments: rooms.csv" in documents["fwd"].text
    assert problems["empty.msg"] == "no text"
