"""POST /ingest with documents as files: every format folder ingest reads, the upload's ACL, all or nothing."""

from __future__ import annotations

import pytest

from tests.office_files import write_docx, write_eml, write_msg, write_pptx, write_xlsx
from tests.pdfgen import write_pdf
from tests.service.keys import auth


@pytest.fixture
def office(tmp_path):
    """One real file of each type the route reads, made with the readers' own libraries."""
    folder = tmp_path / "upload"
    folder.mkdir()
    write_docx(folder / "leave.docx")
    write_pptx(folder / "results.pptx")
    write_xlsx(folder / "mileage.xlsx")
    write_eml(folder / "move.eml")
    write_msg(folder / "badges.msg", ("floor.md", b"# Floor plan\n\nThe quiet room is desk row 7.\n"))
    write_pdf(folder / "guide.pdf", ["Bicycle parking is on level minus one."], title="Parking guide")
    (folder / "rooms.csv").write_text("Room;Floor\n3.12;3\n")
    (folder / "notes.md").write_text("# Canteen\n\nThe canteen opens at 8 on weekdays.\n")
    (folder / "lockers.txt").write_text("Lockers are emptied every Friday evening.\n")
    (folder / "page.html").write_text("<html><head><title>Wifi</title></head><body><p>The guest wifi is "
                                      "HOLLIN-GUEST.</p></body></html>")
    return folder


def _files(*paths, name=None):
    return [("files", (name or path.name, path.read_bytes(), "application/octet-stream")) for path in paths]


def test_every_format_is_read_with_the_uploads_acl(client, office):
    upload = _files(*sorted(office.iterdir()))
    response = client.post("/ingest", files=upload, data={"acl": '["hr"]'}, headers=auth("grace"))
    assert response.status_code == 200, response.text
    report = response.json()
    assert report["added"] == 11 and report["problems"] == [] and report["no_acl_ids"] == []  # 10 files, 1 attached
    assert "notes" in _found(client, "alice", "When does the canteen open?")  # alice is in hr
    assert not _found(client, "bob", "When does the canteen open?") & {"notes", "leave", "badges", "mileage"}


def _found(client, user: str, question: str) -> set[str]:
    """The documents an answer cites or offers (the test index's hash encoder often falls back to a list)."""
    result = client.post("/ask", json={"question": question}, headers=auth(user)).json()
    return {c["doc_id"] for c in result["citations"]} | {r["doc_id"] for r in result["fallback_results"]}


def test_sources_name_the_admin_and_the_file_and_attachments_take_the_messages_acl(client, state, office):
    upload = _files(office / "badges.msg", office / "leave.docx")
    assert client.post("/ingest", files=upload, data={"acl": '["all-staff"]'},
                       headers=auth("grace")).status_code == 200
    stored = state.backend.stored_documents()
    assert stored["badges/floor.md"].source == "api:grace:badges.msg/floor.md"
    assert stored["leave"].source == "api:grace:leave.docx" and stored["leave"].origin == ""
    assert stored["badges/floor.md"].acl == ("all-staff",)


def test_one_bad_file_refuses_the_upload_by_name_and_nothing_is_written(client, state, office, tmp_path):
    before = state.backend.stats()
    good = (office / "leave.docx").read_bytes()
    (tmp_path / "cut.docx").write_bytes(good[: len(good) // 2])
    write_pdf(tmp_path / "disguised.xlsx", ["A PDF."])
    (tmp_path / "locked.msg").write_bytes(b"\xd0\xcf\x11\xe0\xa1\xb1\x1a\xe1" + b"\x00" * 600)
    (tmp_path / "tool.exe").write_bytes(b"MZ")
    upload = _files(office / "notes.md", tmp_path / "cut.docx", tmp_path / "disguised.xlsx", tmp_path / "locked.msg")
    response = client.post("/ingest", files=upload, data={"acl": '["hr"]'}, headers=auth("grace"))
    assert response.status_code == 422
    problems = {p["loc"][1]: p["msg"] for p in response.json()["detail"]}
    assert set(problems) == {"cut.docx", "disguised.xlsx", "locked.msg"}
    assert "damaged or truncated" in problems["cut.docx"] and "mislabelled: the file is a PDF" in problems[
        "disguised.xlsx"] and "damaged or truncated Outlook message" in problems["locked.msg"]
    unknown = client.post("/ingest", files=_files(office / "notes.md", tmp_path / "tool.exe"), headers=auth("grace"))
    assert unknown.status_code == 422 and "not a type ingest reads" in unknown.text
    twice = _files(office / "notes.md") + _files(office / "lockers.txt", name="../notes.md")
    assert "two files of the upload have this name" in client.post("/ingest", files=twice,
                                                                   headers=auth("grace")).text
    assert state.backend.stats() == before


@pytest.mark.parametrize("acl, message", [('"hr"', "must be a list of group names, not the string"),
                                          ("hr", "must be a JSON list"), ("[1]", "non-empty strings")])
def test_a_bad_acl_refuses_the_upload(client, state, office, acl, message):
    before = state.backend.stats()
    response = client.post("/ingest", files=_files(office / "notes.md"), data={"acl": acl}, headers=auth("grace"))
    assert response.status_code == 422 and message in response.text
    assert state.backend.stats() == before


def test_only_admins_upload_files_and_jsonl_and_files_do_not_mix(client, state, office):
    before = state.backend.stats()
    files = _files(office / "notes.md")
    assert client.post("/ingest", files=files, data={"acl": '["hr"]'}, headers=auth("alice")).status_code == 403
    mixed = files + [("file", ("docs.jsonl", b'{"id": "x", "text": "y"}\n', "application/octet-stream"))]
    assert client.post("/ingest", files=mixed, headers=auth("grace")).status_code == 422
    assert state.backend.stats() == before


def test_a_file_without_an_acl_is_named_as_visible_to_nobody_and_front_matter_keeps_its_own(client, tmp_path):
    (tmp_path / "own.md").write_text("---\nacl: [leadership]\n---\n# Board\n\nThe board meets monthly.\n")
    (tmp_path / "bare.md").write_text("# Desk\n\nDesks are shared.\n")
    report = client.post("/ingest", files=_files(tmp_path / "own.md", tmp_path / "bare.md"),
                         headers=auth("grace")).json()
    assert report["added"] == 2 and report["no_acl_ids"] == ["bare"]


def test_citations_and_passages_declare_the_sheet_beside_the_page(client):
    schemas = client.get("/openapi.json").json()["components"]["schemas"]
    for model in ("Citation", "Passage"):
        assert {"page", "sheet"} <= schemas[model]["properties"].keys(), model
