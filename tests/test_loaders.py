import json
import re

import pytest

from boundloop.retrieval.acl_manifest import AclManifest
from boundloop.retrieval.config import DEMO_ROOT
from boundloop.retrieval.documents import Document, LoadProblem
from boundloop.retrieval.errors import IngestError
from boundloop.retrieval.loaders import load_folder, load_jsonl, load_path
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


def test_overlapping_manifest_globs_the_first_in_the_file_wins(tmp_path):
    """The manifest's order is its rule (specific globs first, as demo/corpus/acl.yaml writes them)."""
    (tmp_path / "hr").mkdir()
    (tmp_path / "hr" / "bands.md").write_text("L5 earns EUR 90,000.")
    (tmp_path / "leave.md").write_text("Leave policy.")
    (tmp_path / "acl.yaml").write_text('"hr/*": [hr]\n"*.md": [all-staff]\n')
    found = docs(load_folder(tmp_path))
    assert found["hr/bands"].acl == ("hr",) and found["leave"].acl == ("all-staff",)


@pytest.mark.parametrize(("manifest", "named"), [
    ('"*": [all-staff]\n"hr/*": [hr]\n', "'hr/*'"),  # keys sorted by a tool: the HR folder would be everyone's
    ('"*.md": [all-staff]\n"hr/*.md": [hr]\n', "'hr/*.md'"),
    ('"it-*.txt": [all-staff]\n"it-admin-*.txt": [it]\n', "'it-admin-*.txt'"),
])
def test_a_glob_an_earlier_one_always_matches_first_stops_the_ingest(tmp_path, manifest, named):
    (tmp_path / "hr").mkdir()
    (tmp_path / "hr" / "bands.md").write_text("L5 earns EUR 90,000.")
    (tmp_path / "acl.yaml").write_text(manifest)
    with pytest.raises(IngestError, match=f"{re.escape(named)}.*never apply"):
        list(load_folder(tmp_path))


def test_a_later_glob_with_the_same_groups_or_a_narrower_earlier_one_passes(tmp_path):
    (tmp_path / "a.md").write_text("hello")
    (tmp_path / "acl.yaml").write_text('"*.md": [staff]\n"a*.md": [staff]\n"hr/*": [hr]\n"*": [all-staff]\n')
    assert docs(load_folder(tmp_path))["a"].acl == ("staff",)
    assert AclManifest.find(DEMO_ROOT / "corpus").rules  # the demo's manifest, specific globs first, loads


def test_a_glob_named_twice_in_a_manifest_is_an_error(tmp_path):
    (tmp_path / "a.txt").write_text("hello")
    (tmp_path / "acl.json").write_text('{"*.txt": ["hr"], "*.txt": ["all-staff"]}')
    with pytest.raises(IngestError, match="twice"):
        list(load_folder(tmp_path))
    (tmp_path / "acl.json").unlink()
    (tmp_path / "acl.yaml").write_text('"*.txt": [hr]\n"*.txt": [all-staff]\n')
    with pytest.raises(IngestError, match="twice"):
        list(load_folder(tmp_path))


def test_front_matter_naming_acl_twice_is_refused(tmp_path):
    (tmp_path / "a.md").write_text("---\nacl: [hr]\ntitle: Bands\nacl: [all-staff]\n---\nL5 earns EUR 90,000.\n")
    [problem] = problems(load_folder(tmp_path))
    assert "twice" in problem.message and not docs(load_folder(tmp_path))


def test_bad_manifest_is_an_error(tmp_path):
    (tmp_path / "a.txt").write_text("hello")
    (tmp_path / "acl.json").write_text(json.dumps({"*.txt": "not-a-list", "*.md": [1]}))
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
    assert set(docs(items)) == {"a"}  # "acl": "g" is a bad line, not a one-group ACL
    assert [p.location for p in problems(items)] == [f"{path}:{n}" for n in (2, 3, 4, 5, 6)]
    assert "broken JSON" in problems(items)[0].message
    assert problems(items)[2].message == "'acl' must be a list of group names, not the string 'g' (write ['g'])"


def test_load_path_rejects_other_files(tmp_path):
    (tmp_path / "x.csv").write_text("a,b")
    with pytest.raises(IngestError, match="expected a .jsonl"):
        load_path(tmp_path / "x.csv")
    with pytest.raises(IngestError, match="no such file"):
        load_path(tmp_path / "missing.jsonl")


def test_jsonl_sources_and_origin_are_the_real_path(tmp_path, monkeypatch):
    path = tmp_path / "d.jsonl"
    path.write_text(json.dumps({"id": "a", "text": "ok"}) + "\n" + json.dumps({"id": "b", "text": "t", "source": "s"}))
    monkeypatch.chdir(tmp_path)
    found = docs(load_jsonl(path.relative_to(tmp_path)))
    assert found["a"].source == found["a"].origin == found["b"].origin == str(path.resolve())
    assert found["b"].source == "s"


def test_a_repeated_id_in_jsonl_is_a_bad_line(tmp_path):
    path = tmp_path / "d.jsonl"
    path.write_text("".join(json.dumps({"id": i, "text": "t"}) + "\n" for i in ["a", "b", "a"]))
    [problem] = problems(load_jsonl(path))
    assert problem.location == f"{path}:3" and "duplicate document id 'a' (first on line 1)" in problem.message


# --- symbolic links (issue 12: `folder/notes.md -> ../directory.yaml` published the directory) ---------------------


@pytest.fixture
def linked(tmp_path):
    (tmp_path / "directory.yaml").write_text("users:\n  alice: {api_key_sha256: 'SECRET-DIGEST'}\n")
    (tmp_path / "outside.md").write_text("# Outside\n\nSECRET-OUTSIDE\n")
    root = tmp_path / "folder"
    (root / "sub").mkdir(parents=True)
    (root / "real.md").write_text("---\nacl: [g]\n---\n# Real\n\nInside text.\n")
    (root / "sub" / "deep.md").write_text("---\nacl: [g]\n---\n# Deep\n\nDeep text.\n")
    (root / "notes.md").symlink_to("../directory.yaml")
    (root / "escape.md").symlink_to(tmp_path / "outside.md")
    (root / "outdir").symlink_to(tmp_path, target_is_directory=True)
    (root / "alias.md").symlink_to("real.md")
    (root / "subalias").symlink_to("sub", target_is_directory=True)
    return root


def test_links_are_not_followed_and_are_named(linked):
    items = list(load_folder(linked))
    assert set(docs(items)) == {"real", "sub/deep"}
    skipped = {p.location.rsplit("/", 1)[-1]: p.message for p in problems(items)}
    assert set(skipped) == {"notes.md", "escape.md", "outdir", "alias.md", "subalias"}
    assert all("symbolic link" in message for message in skipped.values())
    assert not any("SECRET" in d.text for d in docs(items).values())


def test_follow_links_stays_inside_the_folder(linked):
    items = list(load_folder(linked, follow_links=True))
    found = docs(items)
    assert set(found) == {"real", "sub/deep", "alias", "subalias/deep"}
    assert found["alias"].text == found["real"].text
    skipped = {p.location.rsplit("/", 1)[-1]: p.message for p in problems(items)}
    assert set(skipped) == {"notes.md", "escape.md", "outdir"}
    assert all("leaves the folder" in message for message in skipped.values())
    assert not any("SECRET" in d.text for d in found.values())


def test_a_followed_link_is_labelled_as_its_target(tmp_path):
    """A link is another name for its target, not a way round the target's label: before, `public/bonus.txt ->
    ../hr/bonus.txt` (and a file under `public/hrdir -> ../hr`) took `public/*`'s ACL, publishing the HR file."""
    root = tmp_path / "folder"
    (root / "hr").mkdir(parents=True)
    (root / "public").mkdir()
    (root / "hr" / "bonus.txt").write_text("Bonus pool\n\nThe pool is EUR 777,000.\n")
    (root / "public" / "canteen.txt").write_text("Canteen\n\nOpens at noon.\n")
    (root / "public" / "bonus.txt").symlink_to("../hr/bonus.txt")
    (root / "public" / "hrdir").symlink_to("../hr", target_is_directory=True)
    (root / "hr" / "menu.txt").symlink_to("../public/canteen.txt")
    (root / "acl.yaml").write_text('"hr/*": [hr]\n"*": [all-staff]\n')
    found = docs(load_folder(root, follow_links=True))
    assert {doc_id: d.acl for doc_id, d in found.items()} == {
        "hr/bonus": ("hr",), "public/bonus": ("hr",), "public/hrdir/bonus": ("hr",),
        "public/canteen": ("all-staff",), "hr/menu": ("all-staff",), "public/hrdir/menu": ("all-staff",)}
    assert found["public/bonus"].source == "public/bonus.txt"  # still named as the link spells it


def test_a_manifest_linked_from_outside_is_refused(tmp_path):
    (tmp_path / "rules.yaml").write_text('"*": [everyone]\n')
    root = tmp_path / "folder"
    root.mkdir()
    (root / "a.md").write_text("hello")
    (root / "acl.yaml").symlink_to("../rules.yaml")
    with pytest.raises(IngestError, match="symbolic link out of the folder"):
        list(load_folder(root))


# --- PDFs ------------------------------------------------------------------------------------------------------------


def test_pdf_title_comes_from_metadata_else_the_first_line(tmp_path):
    write_pdf(tmp_path / "with-title.pdf", ["Body text."], title="Travel Policy 2026")
    write_pdf(tmp_path / "no-title.pdf", ["Expense Guide", "Claims go through Concur."])
    found = docs(load_folder(tmp_path))
    assert found["with-title"].title == "Travel Policy 2026"
    assert found["no-title"].title == "Expense Guide"


def test_pdf_parser_noise_becomes_the_skip_reason(tmp_path, capfd):
    (tmp_path / "junk.pdf").write_bytes(b"hello, this is not a PDF at all")
    [problem] = problems(load_folder(tmp_path))
    assert problem.message.startswith("unreadable PDF:") and "invalid pdf header" in problem.message
    assert problem.source == "junk.pdf"
    out, err = capfd.readouterr()
    assert "invalid pdf header" not in out + err  # pypdf's own warnings stay off the terminal


def test_a_link_loop_inside_the_folder_ends(tmp_path):
    root = tmp_path / "folder"
    (root / "a").mkdir(parents=True)
    (root / "a" / "doc.md").write_text("hello")
    (root / "a" / "up").symlink_to("..", target_is_directory=True)
    items = list(load_folder(root, follow_links=True))
    assert set(docs(items)) == {"a/doc"}
    [problem] = problems(items)
    assert problem.location.endswith("a/up") and "folder above it" in problem.message


def test_an_html_table_is_read_row_by_row_with_its_header(tmp_path):
    """'Person: Ken Ito; Title: Data Protection Officer; ...', not 'Ken ItoData Protection Officerken.ito@...'."""
    from boundloop.domain.sentences import split_sentences

    (tmp_path / "contacts.html").write_text(
        "<html><head><title>Key contacts</title></head><body><h1>Key contacts</h1>\n<table>\n"
        "<tr><th>Person</th><th>Title</th><th>Email</th></tr>\n"
        "<tr><td>Rosa Lind</td><td>Office Manager</td><td>rosa.lind@delta.example</td></tr>\n"
        "<tr><td>Ken Ito</td><td>Data <b>Protection</b> Officer</td><td>ken.ito@delta.example</td></tr>\n</table>\n"
        "<table><tr><td>Floor 2</td><td>IT counter</td></tr></table><p>Open 08:00 to 17:00.</p></body></html>")
    (document,) = load_folder(tmp_path)
    assert isinstance(document, Document)
    assert split_sentences(document.text) == [
        "# Key contacts", "Person: Rosa Lind; Title: Office Manager; Email: rosa.lind@delta.example",
        "Person: Ken Ito; Title: Data Protection Officer; Email: ken.ito@delta.example", "Floor 2; IT counter",
        "Open 08:00 to 17:00."]
