#!/usr/bin/env bash
# `npm run bench`: the benchmarks (`*.bench.spec.ts`), real servers, figures printed — not asserted
# (compare ratios within one run; these machines are noisy). See docs/performance.md.
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
bash tools/scripts/ensure-deps.sh || exit 1
npx tsc -b tsconfig.build.json || exit 1

# PostgreSQL as in `npm test`, so every benchmark runs on both databases.
work="$(mktemp -d /tmp/antidote-bench-XXXXXX)"
chmod 755 "$work"
cleanup() { [ -n "${started_pg:-}" ] && bash tools/scripts/pg-test-server.sh stop "$work/pg"; rm -rf "$work"; }
trap cleanup EXIT
if [ -z "${ANTIDOTE_TEST_PG_URL:-}" ]; then
  ANTIDOTE_TEST_PG_URL="$(bash tools/scripts/pg-test-server.sh start "$work/pg")" || exit 1
  export ANTIDOTE_TEST_PG_URL
  started_pg=1
fi
status=0
for dir in libs/* apps/* tools/*; do
  [ -n "$(find "$dir/src" -name '*.bench.spec.ts' 2>/dev/null | head -n1)" ] || continue
  ANTIDOTE_TEST_SUITE=bench npx nx run "@antidote/$(basename "$dir"):test" --outputStyle=stream --skipNxCache || status=1
done
rm -f reports/vitest/*-bench.json
exit $status
