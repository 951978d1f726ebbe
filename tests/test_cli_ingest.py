"""`boundloop ingest` as a newcomer meets it: all-or-nothing JSONL, named documents, sync, links, missing indexes."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from boundloop.cli.main import main

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parent.parent


def run(capsys, *argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def jsonl(path: Path, rows: list) -> Path:
    path.write_text("".join((r if isinstance(r, str) else json.dumps(r)) + "\n" for r in rows))
    return path


def test_a_bad_line_writes_nothing_and_every_bad_line_is_listed(tmp_path, capsys, real_encoder):
    rows = [{"id": "good", "text": "fine", "acl": ["g"]}] + ["{broken"] * 25
    path = jsonl(tmp_path / "bad.jsonl", rows)
    code, out, err = run(capsys, "ingest", path, "--index", tmp_path / "idx")
    assert code == 2 and not (tmp_path / "idx").exists()
    listed = [line for line in err.splitlines() if line.startswith(f"  {path}:")]
    assert len(listed) == 20 and listed[0].startswith(f"  {path}:2: broken JSON")
    assert "  ... and 5 more" in err and "25 bad line(s)" in err and "nothing was written" in err


def test_skip_bad_ingests_the_good_lines(tmp_path, capsys, real_encoder):
    path = jsonl(tmp_path / "bad.jsonl", [{"id": "good", "text": "fine", "acl": ["g"]}, "{broken"])
    code, out, err = run(capsys, "ingest", path, "--index", tmp_path / "idx", "--skip-bad")
    assert code == 0 and "1 added" in out and f"skipped {path}:2: broken JSON" in err


def test_documents_without_an_acl_are_named(tmp_path, capsys, real_encoder):
    path = jsonl(tmp_path / "d.jsonl", [{"id": f"doc{i:02}", "text": f"text {i}"} for i in range(12)]
                 + [{"id": "sealed", "text": "on purpose", "acl": []}])
    code, out, _ = run(capsys, "ingest", path, "--index", tmp_path / "idx")
    assert code == 0
    assert ("12 documents have no ACL and are visible to nobody (use --default-acl GROUP): doc00, doc01, doc02, "
            "doc03, doc04, doc05, doc06, doc07, doc08, doc09 and 2 more") in out
    assert "1 documents have an empty ACL and are visible to nobody: sealed" in out


def test_folder_sync_from_the_command_line(tmp_path, capsys, real_encoder):
    folder = tmp_path / "wiki"
    folder.mkdir()
    for name in ("a", "b"):
        (folder / f"{name}.md").write_text(f"---\nacl: [g]\n---\n# {name}\n\nAbout {name}.\n")
    index = tmp_path / "idx"
    assert run(capsys, "ingest", folder, "--index", index)[0] == 0
    (folder / "b.md").unlink()
    code, out, _ = run(capsys, "ingest", folder, "--index", index)
    assert code == 0 and f"1 stale documents remain, no longer in {folder} (--sync removes them): b" in out
    code, out, _ = run(capsys, "ingest", folder, "--index", index, "--sync", "--json")
    report = json.loads(out)
    assert (report["deleted"], report["unchanged"], report["stale"]) == (1, 1, 0)


def test_a_link_out_of_the_folder_is_skipped_and_named(tmp_path, capsys, real_encoder):
    digest = "d1" * 32
    (tmp_path / "directory.yaml").write_text(f"users:\n  alice: {{groups: [g], api_key_sha256: '{digest}'}}\n")
    folder = tmp_path / "folder"
    folder.mkdir()
    (folder / "acl.yaml").write_text('"*": [g]\n')
    (folder / "page.md").write_text("# Page\n\nOrdinary text.\n")
    (folder / "notes.md").symlink_to("../directory.yaml")
    for flags in ([], ["--follow-links"]):
        code, out, err = run(capsys, "ingest", folder, "--index", tmp_path / "idx", *flags)
        assert code == 0 and "1 documents seen" in out
        assert f"skipped {folder}/notes.md: a symbolic link" in err
    code, out, _ = run(capsys, "search", f"{digest} api key users", "--user", "alice", "--json",
                       "--index", tmp_path / "idx", "--directory", tmp_path / "directory.yaml")
    assert code == 0 and all(digest not in hit["text"] for hit in json.loads(out)["results"])


def test_a_missing_index_is_an_error_and_nothing_is_created(tmp_path, capsys, directory_file):
    missing = tmp_path / "typo"
    code, _, err = run(capsys, "ingest", "--delete", "x", "--index", missing)
    assert code == 2 and f"no index at {missing}" in err and not missing.exists()
    code, _, err = run(capsys, "search", "q", "--user", "bob", "--index", missing)  # no --directory either
    assert code == 2 and f"no index at {missing}" in err and not missing.exists()
    code, _, err = run(capsys, "ask", "q", "--user", "bob", "--index", missing, "--directory", directory_file)
    assert code == 2 and f"no index at {missing}" in err and not missing.exists()


def test_version(capsys):
    with pytest.raises(SystemExit) as exited:
        main(["--version"])
    assert exited.value.code == 0 and capsys.readouterr().out.startswith("boundloop 0.")


def test_a_closed_pipe_ends_quietly(tmp_path, demo_cache):
    lines = tmp_path / "many.jsonl"
    jsonl(lines, [{"id": i, "user": "alice", "question": "leave policy days"} for i in range(400)])
    environ = {k: v for k, v in os.environ.items() if not k.startswith("BOUNDLOOP_")}
    environ["BOUNDLOOP_CACHE"] = str(demo_cache)
    reader = subprocess.Popen([sys.executable, "-m", "boundloop", "search", "--batch", str(lines)], cwd=ROOT,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environ)
    assert reader.stdout is not None and reader.stdout.readline()  # like `| head -1`
    reader.stdout.close()
    _, err = reader.communicate(timeout=120)
    assert reader.returncode == 141 and err.decode() == ""
