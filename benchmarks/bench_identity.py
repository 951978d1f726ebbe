"""Identity's numbers: token validation with cached keys, LDAP group lookups, and revocation through LDAP.

    python3 benchmarks/bench_identity.py [--requests 500] [--cache 2]

Starts the test OpenID provider (oidc-provider on Node, tests/identity/oidc_provider) and a slapd with the test
users and a nested group (tests/identity/directory.py), as the tests do (run scripts/ci-services.sh first):

- token validation: `OidcVerifier.verify` on a real RS256 ID token with the JWKS cached (median, p95);
- LDAP groups: `LdapGroups.groups_for` cached, and uncached (a warm connection; the user search and the nested
  walk: two levels here), median and p95;
- revocation: a user removed from a group in slapd, then the resolver asked every 10 ms until the group is gone;
  the time from the change, against the cache time (`--cache` seconds; the promise is cache + 1 s).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from boundloop.policies.entitlements import Directory  # noqa: E402
from boundloop.policies.group_sources import FederatedResolver  # noqa: E402
from boundloop.service.ldap_groups import LdapGroups  # noqa: E402
from boundloop.service.ldap_settings import LdapSettings  # noqa: E402
from boundloop.service.oidc_keys import ProviderKeys  # noqa: E402
from boundloop.service.oidc_tokens import OidcSettings, OidcVerifier  # noqa: E402
from tests.identity.conftest import PROVIDER_USERS, REDIRECT_URI  # noqa: E402
from tests.identity.directory import ROOT_DN, ROOT_PW, SUFFIX, start_slapd  # noqa: E402
from tests.identity.provider import start_provider  # noqa: E402


def timings(call: Callable[[], object], n: int) -> tuple[float, float]:
    """Median and p95 in milliseconds."""
    spent = []
    for _ in range(n):
        start = time.perf_counter()
        call()
        spent.append((time.perf_counter() - start) * 1000)
    spent.sort()
    return statistics.median(spent), spent[int(len(spent) * 0.95) - 1]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--requests", type=int, default=500, help="calls per timing (default 500)")
    parser.add_argument("--cache", type=float, default=2.0, help="LDAP cache seconds for the revocation run")
    args = parser.parse_args()
    tmp = Path(tempfile.mkdtemp(prefix="bench-identity-"))
    providers = start_provider(PROVIDER_USERS, tmp, [REDIRECT_URI])
    (tmp / "slapd").mkdir()
    directories = start_slapd(tmp / "slapd")
    provider, slapd = next(providers), next(directories)
    try:
        keys = ProviderKeys(provider.issuer)
        keys.refresh()
        verifier = OidcVerifier(OidcSettings(issuer=provider.issuer, audience="boundloop"), keys)
        token = provider.sign_in("dave")
        p50, p95 = timings(lambda: verifier.verify(token), args.requests)
        print(f"token validation, JWKS cached: p50 {p50:.3f} ms, p95 {p95:.3f} ms")
        settings = LdapSettings(url=slapd.url, bind_dn=ROOT_DN, bind_password=ROOT_PW,
                                user_base=f"ou=people,{SUFFIX}", group_base=f"ou=groups,{SUFFIX}")
        cached = LdapGroups(settings)
        cached.groups_for("dave")
        p50, p95 = timings(lambda: cached.groups_for("dave"), args.requests)
        print(f"LDAP groups, cached: p50 {p50:.4f} ms, p95 {p95:.4f} ms")
        uncached = LdapGroups(settings.model_copy(update={"cache_s": 0.0}))
        uncached.groups_for("dave")
        p50, p95 = timings(lambda: uncached.groups_for("dave"), args.requests)
        print(f"LDAP groups, uncached (nested walk): p50 {p50:.3f} ms, p95 {p95:.3f} ms")
        resolver = FederatedResolver(Directory({}), LdapGroups(settings.model_copy(update={"cache_s": args.cache})))
        assert "hr" in resolver.resolve("dave").groups
        slapd.modify(f"dn: cn=hr,ou=groups,{SUFFIX}\nchangetype: modify\ndelete: member\n"
                     f"member: uid=dave,ou=people,{SUFFIX}\n")
        changed = time.monotonic()
        while "hr" in resolver.resolve("dave").groups:
            time.sleep(0.01)
        print(f"revocation: hr gone {time.monotonic() - changed:.2f} s after the change (cache {args.cache:g} s; "
              f"promise: within {args.cache + 1:g} s)")
    finally:
        directories.close()
        providers.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
