#!/bin/sh
# The real identity services the tests in tests/identity start: Debian's slapd (LDAP) and Node's oidc-provider.
# Without them those tests skip with a reason; .ci/run calls this so CI runs them.
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
export DEBIAN_FRONTEND=noninteractive
apt-get install -y --no-install-recommends slapd ldap-utils
# Node: Debian's nodejs and npm, unless a Node (with its own npm, as NodeSource's package has) is there already
command -v node >/dev/null 2>&1 || apt-get install -y --no-install-recommends nodejs
command -v npm >/dev/null 2>&1 || apt-get install -y --no-install-recommends npm
# slapd's package may start a system daemon; the tests start their own on a free port and need none
(service slapd stop || true) >/dev/null 2>&1
cd "$here/tests/identity/oidc_provider" && npm ci --no-audit --no-fund
python3 -m pip install "ldap3>=2.9,<3"  # the `identity` extra (ldap3, pure Python)
