#!/usr/bin/env bash
# `npm run test:faults`: the fault suites (`*.faults.spec.ts`: Kubernetes API errors and latency, an API
# outage, dropped and expired watches) against real nats-server, SQLite and kube-sim.
# Ends with "N passed, N failed, N skipped"; exits non-zero on any failure.
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
bash tools/scripts/ensure-deps.sh || { echo "0 passed, 1 failed"; exit 1; }
npx tsc -b tsconfig.build.json || { echo "build failed"; echo "0 passed, 1 failed"; exit 1; }

projects=()
for dir in libs/* apps/* tools/*; do
  [ -n "$(find "$dir/src" -name '*.faults.spec.ts' 2>/dev/null | head -n1)" ] && projects+=("$(basename "$dir")")
done
[ ${#projects[@]} -gt 0 ] || { echo "no fault suites found"; echo "0 passed, 1 failed"; exit 1; }
rm -f reports/vitest/*-faults.json
mkdir -p reports/vitest/faults
nx_status=0
for project in "${projects[@]}"; do
  ANTIDOTE_TEST_SUITE=faults npx nx run "@antidote/$project:test" --outputStyle=stream --skipNxCache || nx_status=1
done
expected="$(printf '%s-faults,' "${projects[@]}")"
rm -rf reports/vitest/faults && mkdir -p reports/vitest/faults
for project in "${projects[@]}"; do cp "reports/vitest/$project-faults.json" reports/vitest/faults/ 2>/dev/null; done
node tools/scripts/summarize-tests.mjs reports/vitest/faults "${expected%,}"
summary_status=$?
rm -rf reports/vitest/faults
[ $nx_status -eq 0 ] && [ $summary_status -eq 0 ]
