#!/usr/bin/env bash
# `npm run bench`: the benchmarks (`*.bench.spec.ts`), real servers, figures printed — not asserted
# (compare ratios within one run; these machines are noisy). See docs/performance.md.
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
bash tools/scripts/ensure-deps.sh || exit 1
npx tsc -b tsconfig.build.json || exit 1
status=0
for dir in libs/* apps/* tools/*; do
  [ -n "$(find "$dir/src" -name '*.bench.spec.ts' 2>/dev/null | head -n1)" ] || continue
  ANTIDOTE_TEST_SUITE=bench npx nx run "@antidote/$(basename "$dir"):test" --outputStyle=stream --skipNxCache || status=1
done
rm -f reports/vitest/*-bench.json
exit $status
