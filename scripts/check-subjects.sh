#!/usr/bin/env bash
# Commit subjects of at most 72 characters (the detail goes in the body), for the commits after SINCE up to HEAD:
#   scripts/check-subjects.sh SINCE [HEAD]      e.g. scripts/check-subjects.sh origin/main  or  a commit id
# Lists each longer subject with its length and exits 1 if there is one. It reads the history it is given, so a
# shallow clone needs SINCE within its depth (git fetch --deepen, or --shallow-since) or it stops with git's error.
set -euo pipefail
if [[ $# -lt 1 || $# -gt 2 ]]; then
    echo "usage: $0 SINCE [HEAD]  (checks the subjects of SINCE..HEAD)" >&2
    exit 2
fi
since=$1
head=${2:-HEAD}
LIMIT=72
git rev-parse --quiet --verify "$since^{commit}" >/dev/null || { echo "$0: no commit $since here" >&2; exit 2; }
git rev-parse --quiet --verify "$head^{commit}" >/dev/null || { echo "$0: no commit $head here" >&2; exit 2; }
long=0
total=0
while IFS=$'\t' read -r commit subject; do
    total=$((total + 1))
    if (( ${#subject} > LIMIT )); then
        printf '%s %3d characters: %.60s...\n' "$commit" "${#subject}" "$subject"
        long=$((long + 1))
    fi
done < <(git log --no-merges --format='%h%x09%s' "$since..$head")
if (( long )); then
    echo "$long of $total commit subjects are longer than $LIMIT characters: put the detail in the body" >&2
    exit 1
fi
echo "$total commit subjects, all at most $LIMIT characters"
