import json

import pytest

from retrieval.documents import Document, LoadProblem
from retrieval.errors import IngestError
from retrieval.loaders import load_folder, load_jsonl, load_path
from tests.pdfgen import write_pdf


def docs(items):
    return {i.doc_id: i for i in items if isinstance(i, Document)}


def problems(items):
    return [i for i in items if isinstance(i, LoadProblem)]


@pytest.fixture
def folder(tmp_path):
    root = tmp_path / "intranet"
    (root / "hr").mkdir(parents=True)
    front = "---\nid: leave\ntitle: Leave Policy\nacl: [all-staff]\n---\n"
    (root / "policy.md").write_text(front + "# Leave\n\nTake 25 days.\n")
    (root / "hr" / "bands.md").write_text("# Salary bands\n\nL5 earns more.\n")
    (root / "it-vpn.txt").write_text("VPN how-to\n\nConnect with WireGuard.\n")
    (root / "map.html").write_text(
        "<html><head><title>Office map</title><script>alert('x')</script></head>"
        "<body><h2>Floors</h2><p>Room 3.12 is on floor 3.</p></body></html>"
    )
    write_pdf(root / "handbook.pdf", ["Welcome to the handbook.", "Benefits start on day one."], title="Handbook")
    (root / "broken.pdf").write_bytes(b"%PDF-1.4 this is not a pdf")
    (root / "acl.yaml").write_text('"hr/*": [hr]\n"*.txt": [all-staff]\n"*.html": [all-staff, contractors]\n')
    return root


def test_folder_formats_front_matter_and_manifest(folder):
    items = list(load_folder(folder))
    found = docs(items)
    assert set(found) == {"leave", "hr/bands", "it-vpn", "map", "handbook"}
    assert found["leave"].title == "Leave Policy" and found["leave"].acl == ("all-staff",)
    assert found["hr/bands"].acl == ("hr",) and found["hr/bands"].title == "Salary bands"
    assert found["it-vpn"].title == "VPN how-to" and found["it-vpn"].acl == ("all-staff",)
    assert found["map"].title == "Office map" and "alert" not in found["map"].text
    assert found["map"].acl == ("all-staff", "contractors")
    assert found["handbook"].pages == ("Welcome to the handbook.", "Benefits start on day one.")
    assert found["handbook"].acl == ()  # no rule matches: visible to nobody
    [bad] = problems(items)
    assert bad.location.endswith("broken.pdf") and "unreadable PDF" in bad.message


def test_front_matter_wins_over_manifest(folder):
    (folder / "secret.txt").write_text("---\nacl: [leadership]\n---\nSecret plan\n")
    assert docs(load_folder(folder))["secret"].acl == ("leadership",)


def test_json_manifest(tmp_path):
    (tmp_path / "a.txt").write_text("hello")
    (tmp_path / "acl.json").write_text(json.dumps({"*.txt": ["g"]}))
    assert docs(load_folder(tmp_path))["a"].acl == ("g",)


def test_bad_manifest_is_an_error(tmp_path):
    (tmp_path / "a.txt").write_text("hello")
    (tmp_path / "acl.json").write_text(json.dumps({"*.txt": "not-a-list-but-ok", "*.md": [1]}))
    with pytest.raises(IngestError, match="list of group names"):
        list(load_folder(tmp_path))


def test_broken_front_matter_is_reported(tmp_path):
    (tmp_path / "x.md").write_text("---\nacl: [unclosed\n---\nbody\n")
    [problem] = problems(load_folder(tmp_path))
    assert "front matter" in problem.message


def test_jsonl_reports_file_and_line(tmp_path):
    path = tmp_path / "d.jsonl"
    path.write_text(
        json.dumps({"id": "a", "text": "ok", "acl": ["g"]}) + "\n"
        + "{broken\n"
        + json.dumps({"id": "b"}) + "\n"
        + json.dumps({"id": "c", "text": "t", "acl": "g"}) + "\n"
        + json.dumps({"id": "d", "text": "t", "acl": [3]}) + "\n"
        + "[1, 2]\n"
    )
    items = list(load_jsonl(path))
    assert set(docs(items)) == {"a", "c"}
    assert [p.location for p in problems(items)] == [f"{path}:{n}" for n in (2, 3, 5, 6)]
    assert "broken JSON" in problems(items)[0].message


def test_load_path_rejects_other_files(tmp_path):
    (tmp_path / "x.csv").write_text("a,b")
    with pytest.raises(IngestError, match="expected a .jsonl"):
        load_path(tmp_path / "x.csv")
    with pytest.raises(IngestError, match="no such file"):
        load_path(tmp_path / "missing.jsonl")
