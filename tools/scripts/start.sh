#!/usr/bin/env bash
# `npm start`: everything a fresh machine needs, a build, then the whole platform locally
# (`antictl up`: nats-server, kube-sim, the four apps, SQLite under .antidote/, the sample curriculum).
# Every step says what it does; a long one shows that it is still under way.
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
source tools/scripts/progress.sh
echo "[1/3] dependencies"
bash tools/scripts/ensure-deps.sh

# tsc -b --verbose, reduced to the project being built (for the progress line) and any error.
build() {
  npx tsc -b tsconfig.build.json --verbose | awk -v status="$PROGRESS_STATUS" -v root="$ROOT/" '
    / - Building project / { p = $0; sub(/^.* - Building project .?/, "", p); sub(/\/tsconfig\.build\.json.*$/, "", p); sub(root, "", p)
                             print p >> status; fflush(status); next }
    /^[0-9:]+ ?[AP]?M? - / || /^    \* / || /^ *$/ { next }
    { print }'
}
echo "[2/3] build"
with_progress "building" build
echo "[3/3] platform"
exec node tools/antictl/bin/antictl.js up "$@"
