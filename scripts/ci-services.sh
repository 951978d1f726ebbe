#!/bin/sh
# The real services the tests start: Debian's slapd (LDAP) and Node's oidc-provider (tests/identity), and
# Debian's redis-server (the rate limits shared by workers, tests/service/test_rate_shared.py).
# Without them those tests skip with a reason; .ci/run calls this so CI runs them. (ldap3, the `identity` extra,
# comes from requirements.lock with setup.)
set -eu
here=$(cd "$(dirname "$0")/.." && pwd)
export DEBIAN_FRONTEND=noninteractive
missing=""
command -v slapd >/dev/null 2>&1 || [ -x /usr/sbin/slapd ] || missing="$missing slapd"
command -v ldapadd >/dev/null 2>&1 || missing="$missing ldap-utils"
command -v redis-server >/dev/null 2>&1 || [ -x /usr/bin/redis-server ] || missing="$missing redis-server"
# Node: Debian's nodejs and npm, unless a Node (with its own npm, as NodeSource's package has) is there already
command -v node >/dev/null 2>&1 || missing="$missing nodejs"
command -v npm >/dev/null 2>&1 || missing="$missing npm"
if [ -n "$missing" ]; then
    apt-get update -qq
    # shellcheck disable=SC2086
    apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
# slapd's and redis-server's packages may start a system daemon; the tests start their own on a free port and need none
(service slapd stop || true) >/dev/null 2>&1
(service redis-server stop || true) >/dev/null 2>&1
cd "$here/tests/identity/oidc_provider" && npm ci --no-audit --no-fund --silent
