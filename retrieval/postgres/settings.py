"""Where the PostgreSQL index is and which roles use it: the writer URL, the reader URL, pool sizes and timeouts.

`BOUNDLOOP_INDEX` (or `--index`) is the writer URL: the role that owns the schema, migrates it and ingests.
Searches connect with `BOUNDLOOP_PG_READER_URL`; without it, the writer URL with its user replaced by
`BOUNDLOOP_PG_READER_ROLE` (default `boundloop_reader`) and no password (libpq then uses `PGPASSFILE`, peer or
certificate authentication).
"""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote, urlencode

from psycopg.conninfo import conninfo_to_dict, make_conninfo

from boundloop.policies.settings import settings
from boundloop.retrieval.errors import IndexStoreError

DEFAULT_READER_ROLE = "boundloop_reader"
URL_PREFIXES = ("postgresql://", "postgres://")


def is_postgres_url(location: str) -> bool:
    """Whether an index location names a PostgreSQL database rather than a folder."""
    return location.startswith(URL_PREFIXES)


def _parse(url: str) -> dict[str, str]:
    try:
        return {k: str(v) for k, v in conninfo_to_dict(url).items()}
    except Exception as exc:  # psycopg raises ProgrammingError for a malformed URL
        raise IndexStoreError(f"not a valid PostgreSQL URL: {str(exc).splitlines()[0]}") from None


def _host_ports(parts: dict[str, str]) -> list[tuple[str, str]]:
    """The host list (libpq: comma-separated) with each host's port (one port given applies to every host)."""
    hosts = parts.get("host", "").split(",")
    ports = parts.get("port", "").split(",")
    if len(ports) == 1:
        ports = ports * len(hosts)
    return list(zip(hosts, ports, strict=False))


def redact(url: str) -> str:
    """`user@host:port,host2:port/db` for messages: never the password."""
    parts = _parse(url)
    where = ",".join(f"{host or 'localhost'}{':' + port if port else ''}" for host, port in _host_ports(parts))
    return f"{parts.get('user', '')}@{where}/{parts.get('dbname', '')}".lstrip("@")


def login_url(url: str, user: str, password: str | None, dbname: str) -> str:
    """A `postgresql://` URL with `url`'s servers and options, for another user (and password) and database.

    Several hosts stay several hosts (`h1:5432,h2:5432`); Unix-socket folders go into the query string.
    """
    parts = {k: v for k, v in _parse(url).items() if k not in ("user", "password", "dbname")}
    auth = quote(user, safe="") + (f":{quote(password, safe='')}" if password else "") + "@"
    pairs = _host_ports(parts)
    netloc = auth
    if not any(host.startswith("/") for host, _ in pairs):
        parts.pop("host", None)
        parts.pop("port", None)
        netloc += ",".join(
            (f"[{host}]" if ":" in host else host) + (f":{port}" if port else "") for host, port in pairs
        )
    query = urlencode(sorted(parts.items()))
    return f"postgresql://{netloc}/{quote(dbname, safe='')}" + (f"?{query}" if query else "")


def derive_reader_url(writer_url: str, role: str) -> str:
    """The writer's address with another user and no password."""
    parts = {k: v for k, v in _parse(writer_url).items() if k != "password"}
    parts["user"] = role
    return make_conninfo(**parts)


@dataclass(frozen=True)
class PgSettings:
    """Resolved connection settings for one PostgreSQL index."""

    writer_url: str
    reader_url: str
    pool_max: int = 4
    connect_timeout_s: int = 5
    checkout_timeout_s: float = 10.0
    statement_timeout_ms: int = 30_000  # searches only; an ingest batch may take as long as it needs

    @classmethod
    def from_env(cls, writer_url: str, reader_url: str | None = None) -> PgSettings:
        configured = settings()
        reader = reader_url or configured.pg_reader_url or derive_reader_url(writer_url, configured.pg_reader_role)
        return cls(writer_url=writer_url, reader_url=reader)

    @property
    def reader_role(self) -> str:
        """The role searches log in as; ingest grants it read access to the index tables."""
        return _parse(self.reader_url).get("user") or DEFAULT_READER_ROLE

    @property
    def writer_where(self) -> str:
        return redact(self.writer_url)

    @property
    def reader_where(self) -> str:
        return redact(self.reader_url)
