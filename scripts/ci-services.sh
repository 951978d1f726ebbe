#!/bin/sh
# The real identity services the tests in tests/identity start: Debian's slapd (LDAP) and Node's oidc-provider.
# Without them those tests skip with a reason; .ci/run calls this so CI runs them. (ldap3, the `identity` extra,
# comes from requirements.lock with setup.)
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
export DEBIAN_FRONTEND=noninteractive
missing=""
command -v slapd >/dev/null 2>&1 || [ -x /usr/sbin/slapd ] || missing="$missing slapd"
command -v ldapadd >/dev/null 2>&1 || missing="$missing ldap-utils"
# Node: Debian's nodejs and npm, unless a Node (with its own npm, as NodeSource's package has) is there already
command -v node >/dev/null 2>&1 || missing="$missing nodejs"
command -v npm >/dev/null 2>&1 || missing="$missing npm"
if [ -n "$missing" ]; then
    apt-get update -qq
    # shellcheck disable=SC2086
    apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
# slapd's package may start a system daemon; the tests start their own on a free port and need none
(service slapd stop || true) >/dev/null 2>&1
cd "$here/tests/identity/oidc_provider" && npm ci --no-audit --no-fund --silent
