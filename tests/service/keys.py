"""API keys of the test users and a directory file holding only their SHA-256 digests."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from tests.conftest import USERS

KEYS = {
    "alice": "key-alice-7f3a",  # all-staff, hr
    "bob": "key-bob-91c2",  # all-staff
    "carol": "key-carol-55d0",  # all-staff, leadership
    "grace": "key-grace-0b8e",  # admin
}
JWT_SECRET = "test-secret-that-is-long-enough-for-hs256"


def sha256(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


def directory_with_keys() -> dict:
    users = {name: dict(entry) for name, entry in USERS["users"].items()}
    users["grace"] = {"groups": ["all-staff", "admin"]}
    for name, key in KEYS.items():
        users[name]["api_key_sha256"] = [sha256(key)]
    return {"users": users}


def write_directory(path: Path) -> Path:
    path.write_text(json.dumps(directory_with_keys()))
    return path


def auth(user: str) -> dict[str, str]:
    return {"X-API-Key": KEYS[user]}


def bearer(user: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {KEYS[user]}"}
