"""`boundloop db init` against the tests' PostgreSQL: roles, extension, schema, and two URLs that work as printed."""

from __future__ import annotations

import json
import shlex
import uuid

import psycopg
import pytest

from boundloop.cli.main import main
from boundloop.retrieval.postgres import PostgresIndex, migrations
from boundloop.retrieval.postgres.settings import PgSettings, is_postgres_url

pytestmark = pytest.mark.slow


@pytest.fixture
def names(pg_index_server):
    """A database name and role names of this test's own (roles are cluster-wide); all dropped afterwards."""
    tag = uuid.uuid4().hex[:8]
    database, writer, reader = f"init_{tag}", f"w_{tag}", f"r_{tag}"
    yield database, writer, reader
    with psycopg.connect(pg_index_server.get_uri(), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')
        for role in (reader, writer):
            conn.execute(f'DROP ROLE IF EXISTS "{role}"')


def init(capsys, admin: str, database: str, writer: str, reader: str, *extra: str) -> tuple[int, str, str]:
    code = main(["db", "init", "--admin-url", admin, "--database", database, "--writer-role", writer,
                 "--reader-role", reader, *extra])
    out, err = capsys.readouterr()
    return code, out, err


def exports(out: str) -> dict[str, str]:
    """The `export NAME=value` lines, as a shell would read them."""
    found = {}
    for line in out.splitlines():
        name, _, value = line.removeprefix("export ").partition("=")
        found[name] = shlex.split(value)[0]
    return found


def test_init_prints_two_urls_that_ingest_and_search(names, pg_index_server, capsys, monkeypatch, docs_jsonl,
                                                      directory_file, real_encoder):
    database, writer, reader = names
    code, out, err = init(capsys, pg_index_server.get_uri(), database, writer, reader)
    assert code == 0, err
    urls = exports(out)
    assert set(urls) == {"BOUNDLOOP_INDEX", "BOUNDLOOP_PG_READER_URL"}
    assert all(is_postgres_url(u) for u in urls.values())
    assert f"role {writer}: created" in err and f"role {reader}: created" in err
    with psycopg.connect(urls["BOUNDLOOP_INDEX"]) as conn:  # the writer owns the migrated schema
        assert conn.execute("SELECT current_user, max(version) FROM boundloop.schema_version").fetchone() == (
            writer, migrations.LATEST)
        assert conn.execute("SELECT tableowner FROM pg_tables WHERE tablename = 'chunks'").fetchone() == (writer,)
    for name, url in urls.items():
        monkeypatch.setenv(name, url)
    monkeypatch.setenv("BOUNDLOOP_DIRECTORY", str(directory_file))
    assert main(["ingest", str(docs_jsonl)]) == 0
    capsys.readouterr()
    assert main(["search", "salary bands engineers", "--user", "bob", "--json"]) == 0
    hits = json.loads(capsys.readouterr().out)["results"]
    assert hits and not {h["doc_id"] for h in hits} & {"salaries", "reorg", "orphan"}


def test_running_again_changes_nothing_but_tightens_the_roles(names, pg_index_server, capsys):
    database, writer, reader = names
    admin = pg_index_server.get_uri()
    assert init(capsys, admin, database, writer, reader)[0] == 0
    with psycopg.connect(admin, autocommit=True) as conn:  # someone loosened the reader by hand
        conn.execute(f'ALTER ROLE "{reader}" BYPASSRLS CREATEDB')
        conn.execute(f'GRANT "{writer}" TO "{reader}"')
    code, out, err = init(capsys, admin, database, writer, reader, "--json")
    result = json.loads(out)
    assert code == 0 and result["applied"] == [] and result["created"] == [] and result["new_passwords"] == []
    assert f"{reader}@" in result["reader_url"] and ":" not in result["reader_url"].split("@")[0][13:]
    with psycopg.connect(admin) as conn:
        row = conn.execute("SELECT rolbypassrls, rolcreatedb, pg_has_role(%s, %s, 'MEMBER') FROM pg_roles "
                           "WHERE rolname = %s", (reader, writer, reader)).fetchone()
    assert row == (False, False, False)
    reader_url = result["reader_url"]
    PostgresIndex(PgSettings(writer_url=result["writer_url"], reader_url=reader_url)).close()  # accepted


@pytest.mark.parametrize("admin", ["not-a-url", "postgresql://nobody@127.0.0.1:1/postgres"])
def test_bad_admin_url_is_a_one_line_error(admin, capsys):
    code = main(["db", "init", "--admin-url", admin])
    out, err = capsys.readouterr()
    assert code == 2 and not out
    assert err.startswith("boundloop: error: ") and len(err.strip().splitlines()) == 1
