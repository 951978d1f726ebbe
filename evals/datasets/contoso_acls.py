"""Document ACLs from the Azure search demo's `sampleacls.json` (files -> directory -> groups and oids).

The demo's setup script applies each directory's entries recursively, so a file is readable by the groups of
its directory and of every ancestor, including the root `/`. User object ids become `oid:<id>` entries.
"""

from __future__ import annotations

from boundloop.evals.datasets.row import Row


def document_acls(root: Row) -> tuple[dict[str, tuple[str, ...]], set[str]]:
    """Document name -> sorted ACL, and the set of groups the file declares."""
    known = set(root.strings("groups"))
    directories = root.mapping("directories")
    entries: dict[str, list[str]] = {}
    for name, value in directories.data.items():
        entry = directories.child(value, f"directory {name!r}")
        unknown = sorted(set(entry.strings("groups", [])) - known)
        if unknown:
            raise entry.error(f"directory {name!r} names groups {unknown} missing from the 'groups' list")
        entries[_normal(name)] = entry.strings("groups", []) + [f"oid:{oid}" for oid in entry.strings("oids", [])]
    files = root.mapping("files")
    acls: dict[str, tuple[str, ...]] = {}
    for doc, value in files.data.items():
        entry = files.child(value, f"file {doc!r}")
        directory = _normal(entry.text("directory"))
        if directory not in entries:
            raise entry.error(f"file {doc!r} is in directory {directory!r}, which 'directories' does not list")
        acls[doc] = tuple(sorted({g for d in _ancestors(directory) for g in entries.get(d, [])}))
    return acls, known


def _normal(directory: str) -> str:
    return directory.strip("/") or "/"


def _ancestors(directory: str) -> list[str]:
    """`/`, then every prefix of the directory down to itself: `a/b` -> `/`, `a`, `a/b`."""
    if directory == "/":
        return ["/"]
    parts = directory.split("/")
    return ["/"] + ["/".join(parts[: i + 1]) for i in range(len(parts))]
