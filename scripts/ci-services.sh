#!/bin/sh
# The real identity services the tests in tests/identity start: Debian's slapd (LDAP) and Node's oidc-provider.
# Without them those tests skip with a reason; .ci/run calls this so CI runs them.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
export DEBIAN_FRONTEND=noninteractive
apt-get install -y --no-install-recommends slapd ldap-utils nodejs npm
# slapd's package starts a system daemon; the tests run their own on a free port, so stop it if it runs
(service slapd stop || true) >/dev/null 2>&1
cd "$here/tests/identity/oidc_provider" && npm ci --no-audit --no-fund
python3 -m pip install "ldap3>=2.9,<3"  # the `identity` extra
