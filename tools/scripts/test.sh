#!/usr/bin/env bash
# `npm test`: everything a fresh machine needs, then every project's tests against real servers
# (nats-server per test file, one throwaway PostgreSQL shared by all, kube-sim in process).
# Ends with the line "N passed, N failed, N skipped" summed over all projects; exits non-zero on any failure.
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
bash tools/scripts/ensure-deps.sh test || { echo "0 passed, 1 failed"; exit 1; }

work="$(mktemp -d /tmp/antidote-test-XXXXXX)"
chmod 755 "$work" # the PostgreSQL server runs as user postgres and must reach its data dir inside
cleanup() { [ -n "${ANTIDOTE_TEST_PG_URL:-}" ] && bash tools/scripts/pg-test-server.sh stop "$work/pg"; rm -rf "$work"; }
trap cleanup EXIT
if [ -z "${ANTIDOTE_TEST_PG_URL:-}" ]; then
  ANTIDOTE_TEST_PG_URL="$(bash tools/scripts/pg-test-server.sh start "$work/pg")" || { echo "0 passed, 1 failed"; exit 1; }
  export ANTIDOTE_TEST_PG_URL
fi

echo "building…"
npx tsc -b tsconfig.build.json || { echo "build failed"; echo "0 passed, 1 failed"; exit 1; }

rm -rf reports/vitest
projects="$(node -e "const w=require('./package.json').workspaces;const fs=require('fs');const p=require('path');for(const g of w){const d=g.replace('/*','');for(const n of fs.readdirSync(d)){const f=p.join(d,n,'package.json');if(fs.existsSync(f)&&require('./'+f).scripts?.test)console.log(n)}}" | paste -sd, -)"
npx nx run-many -t test --outputStyle=stream --parallel="${ANTIDOTE_TEST_PARALLEL:-1}" --skipNxCache "$@"
nx_status=$?
node tools/scripts/summarize-tests.mjs reports/vitest "$projects"
summary_status=$?
[ $nx_status -eq 0 ] && [ $summary_status -eq 0 ]
