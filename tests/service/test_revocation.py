"""Revocation without a restart: the directory file is reloaded while the app runs, and stored runs are re-checked."""

from __future__ import annotations

import json
import logging
import os
import time

import pytest
from fastapi.testclient import TestClient

from boundloop.policies.errors import DirectoryError
from boundloop.reasoners.offline import OfflineReasoner
from boundloop.runstore.sqlite import SqliteRunStore
from boundloop.service.app import create_app
from boundloop.service.directory_reload import ReloadingDirectory
from boundloop.service.settings import ServiceSettings
from boundloop.service.state import ServiceState
from tests.service.keys import JWT_SECRET, KEYS, auth, directory_with_keys, sha256

SALARY = {"question": "What are the salary bands for level L5 engineers?"}


def write(path, directory: dict) -> None:
    """Replace the file the way editors and config tools do: a new file renamed over the old one."""
    fresh = path.with_suffix(".tmp")
    fresh.write_text(json.dumps(directory))
    os.replace(fresh, path)


@pytest.fixture
def directory_file(tmp_path):
    path = tmp_path / "directory.json"
    write(path, directory_with_keys())
    return path


@pytest.fixture
def live(index, encoder, tmp_path, directory_file):
    """The app over a directory file checked on every request (interval 0), as a deployment checks every second."""
    source = ReloadingDirectory(directory_file, interval_s=0.0)
    state = ServiceState(settings=ServiceSettings(jwt_secret=JWT_SECRET), directory=source, backend=index,
                         encoder=encoder, store=SqliteRunStore(tmp_path / "runs.db"), reasoner=OfflineReasoner())
    with TestClient(create_app(state), raise_server_exceptions=False) as client:
        yield client, directory_file


def without(directory: dict, user: str | None = None, group: tuple[str, str] | None = None) -> dict:
    users = {name: dict(entry) for name, entry in directory["users"].items() if name != user}
    if group:
        name, removed = group
        users[name]["groups"] = [g for g in users[name]["groups"] if g != removed]
    return {"users": users}


def cited(response) -> set[str]:
    return {c["doc_id"] for c in response.json()["citations"]}


def test_a_removed_group_stops_reads_and_withholds_stored_runs(live):
    client, path = live
    first = client.post("/ask", json=SALARY, headers=auth("alice"))
    assert "salaries" in cited(first)
    run_id = first.json()["run_id"]
    assert client.get(f"/runs/{run_id}", headers=auth("alice")).status_code == 200

    write(path, without(directory_with_keys(), group=("alice", "hr")))
    again = client.post("/ask", json=SALARY, headers=auth("alice"))
    assert again.status_code == 200 and "salaries" not in cited(again) and "CANARY-HR" not in again.text
    for route in (f"/runs/{run_id}", f"/runs/{run_id}/trace"):
        withheld = client.get(route, headers=auth("alice"))
        assert withheld.status_code == 403 and "CANARY-HR" not in withheld.text
        assert withheld.json()["detail"] == "run withheld: it shows documents you can no longer read"
    other = client.post("/ask", json={"question": "Who approves expense claims above EUR 5,000?"},
                        headers=auth("alice")).json()["run_id"]
    assert client.get(f"/runs/{other}", headers=auth("alice")).status_code == 200  # runs she may still read

    write(path, directory_with_keys())  # the group comes back: so does the run
    assert client.get(f"/runs/{run_id}", headers=auth("alice")).status_code == 200


def test_a_deleted_user_is_refused_at_once(live):
    import jwt

    client, path = live
    token = jwt.encode({"sub": "bob", "exp": int(time.time()) + 300}, JWT_SECRET, algorithm="HS256")
    assert client.post("/ask", json=SALARY, headers=auth("bob")).status_code == 200
    write(path, without(directory_with_keys(), user="bob"))
    assert client.post("/ask", json=SALARY, headers=auth("bob")).status_code == 401
    assert client.post("/ask", json=SALARY, headers={"Authorization": f"Bearer {token}"}).status_code == 401


def test_an_admin_removed_from_the_admin_group_may_no_longer_ingest(live):
    client, path = live
    line = b'{"id": "memo", "title": "Memo", "text": "A memo.", "acl": ["all-staff"]}\n'
    headers = {"Content-Type": "application/x-ndjson", **auth("grace")}
    assert client.post("/ingest", content=line, headers=headers).status_code == 200
    write(path, without(directory_with_keys(), group=("grace", "admin")))
    assert client.post("/ingest", content=line, headers=headers).status_code == 403


@pytest.mark.parametrize("broken", [
    "{not json",
    json.dumps({"users": {"alice": {"groups": "hr"}}}),
    json.dumps({"users": {"alice": {"groups": [], "api_key_sha256": [sha256(KEYS["bob"])]},
                          "bob": {"groups": [], "api_key_sha256": [sha256(KEYS["bob"])]}}}),
    json.dumps({"users": {"alice": {"groups": [], "api_key_sha256": [12345]}}}),
])
def test_a_broken_file_keeps_the_last_good_directory_and_says_why(live, caplog, broken):
    client, path = live
    path.write_text(broken)
    with caplog.at_level(logging.ERROR, logger="boundloop.service.directory_reload"):
        for _ in range(3):
            assert "salaries" in cited(client.post("/ask", json=SALARY, headers=auth("alice")))
    problems = [r for r in caplog.records if "not reloaded, keeping the last good one" in r.getMessage()]
    assert len(problems) == 1  # once per version of the file, not once per request


def test_a_half_written_file_never_takes_effect(directory_file):
    source = ReloadingDirectory(directory_file, interval_s=0.0)
    text = json.dumps(without(directory_with_keys(), group=("alice", "hr")))
    directory_file.write_text(text[: len(text) // 2])
    assert "hr" in source.current().users["alice"].groups
    directory_file.write_text(text)
    assert "hr" not in source.current().users["alice"].groups


def test_a_same_size_rewrite_within_one_mtime_tick_is_seen(directory_file):
    source = ReloadingDirectory(directory_file, interval_s=0.0)
    before = directory_file.stat()
    swapped = json.dumps(directory_with_keys()).replace('"alice"', '"alixe"')
    assert len(swapped) == before.st_size
    directory_file.write_text(swapped)
    os.utime(directory_file, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert "alixe" in source.current().users


def test_checks_are_spaced_by_the_interval(directory_file):
    now = [0.0]
    source = ReloadingDirectory(directory_file, interval_s=1.0, clock=lambda: now[0])
    write(directory_file, without(directory_with_keys(), user="bob"))
    now[0] = 0.5
    assert "bob" in source.current().users
    now[0] = 1.0
    assert "bob" not in source.current().users


def test_the_watcher_reloads_within_about_a_second_without_any_request(directory_file):
    source = ReloadingDirectory(directory_file, interval_s=1.0, clock=lambda: 0.0)  # current() never checks itself
    source.watch()
    try:
        write(directory_file, without(directory_with_keys(), user="bob"))
        deadline = time.monotonic() + 10
        while "bob" in source.current().users and time.monotonic() < deadline:
            time.sleep(0.1)
        assert "bob" not in source.current().users
    finally:
        source.close()


def test_a_broken_file_at_startup_is_an_error(tmp_path):
    path = tmp_path / "directory.yaml"
    path.write_text("users: [")
    with pytest.raises(DirectoryError, match="not valid YAML"):
        ReloadingDirectory(path)
