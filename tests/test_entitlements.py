import json

import pytest

from boundloop.policies.entitlements import AccessFilter, Directory, EntitlementResolver
from boundloop.policies.errors import DirectoryError, UnknownUserError


def test_resolver_returns_exact_groups(resolver):
    principal = resolver.resolve("alice")
    assert principal.groups == frozenset({"all-staff", "hr"})
    assert AccessFilter.for_principal(principal).groups == frozenset({"all-staff", "hr"})


def test_unknown_user_is_an_error_not_an_empty_filter(resolver):
    with pytest.raises(UnknownUserError, match="unknown user 'mallory'"):
        resolver.resolve("mallory")


def test_user_without_groups_matches_nothing(resolver):
    assert resolver.access_filter("frank").matches_nothing


@pytest.mark.parametrize(
    "groups, acl, allowed",
    [
        ({"hr"}, ["hr"], True),
        ({"hr"}, ["finance", "hr"], True),
        ({"all-staff"}, ["hr"], False),
        (set(), ["hr"], False),
        ({"hr"}, [], False),  # no ACL: visible to nobody
    ],
)
def test_filter_table(groups, acl, allowed):
    assert AccessFilter(groups=frozenset(groups)).permits(acl) is allowed


@pytest.mark.parametrize(
    "content, suffix, message",
    [
        ("{not json", ".json", "not valid JSON"),
        ('{"people": {}}', ".json", "'users' mapping"),
        ('{"users": {"a": {"groups": "hr"}}}', ".json", "needs a 'groups' list"),
        ('{"users": {"a": {"groups": [""]}}}', ".json", "not a non-empty string"),
        ("users: [oops", ".yaml", "not valid YAML"),
        ('{"users": {"a": {"groups": [], "api_key_sha256": 5}}}', ".json", "a digest or a list of digests"),
        ('{"users": {"a": {"groups": [], "api_key_sha256": [5]}}}', ".json", "is int that is not a SHA-256"),
        ('{"users": {"a": {"groups": [], "api_key_sha256": ["demo-key-a"]}}}', ".json", "not a SHA-256 hex digest"),
        (f'{{"users": {{"a": {{"groups": [], "api_key_sha256": ["{"ab" * 32}"]}}, '
         f'"b": {{"groups": [], "api_key_sha256": "{"AB" * 32}"}}}}}}', ".json", "'a' and 'b' have the same API key"),
        ("users:\n  a: {groups: [], api_key_sha256: [0x1f]}\n", ".yaml", "is int that is not a SHA-256"),
    ],
)
def test_malformed_directory_fails_closed(tmp_path, content, suffix, message):
    path = tmp_path / f"dir{suffix}"
    path.write_text(content)
    with pytest.raises(DirectoryError, match=message):
        Directory.load(path)


def test_missing_directory_file(tmp_path):
    with pytest.raises(DirectoryError, match="cannot read"):
        Directory.load(tmp_path / "nope.yaml")


def test_yaml_and_json_directories_agree(tmp_path):
    (tmp_path / "d.yaml").write_text("users:\n  alice: {groups: [all-staff, hr]}\n")
    (tmp_path / "d.json").write_text(json.dumps({"users": {"alice": {"groups": ["all-staff", "hr"]}}}))
    a = EntitlementResolver(Directory.load(tmp_path / "d.yaml")).resolve("alice")
    b = EntitlementResolver(Directory.load(tmp_path / "d.json")).resolve("alice")
    assert a == b


def test_api_keys_are_matched_by_hash():
    import hashlib

    digest = hashlib.sha256(b"s3cret").hexdigest()
    directory = Directory.from_mapping({"users": {"alice": {"groups": ["hr"], "api_key_sha256": [digest]}}})
    assert directory.user_for_api_key("s3cret") == "alice"
    assert directory.user_for_api_key("wrong") is None
    upper = Directory.from_mapping({"users": {"alice": {"groups": ["hr"], "api_key_sha256": digest.upper()}}})
    assert upper.user_for_api_key("s3cret") == "alice"
