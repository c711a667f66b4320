# Sourced by the scripts of one test tier (test-faults.sh, test-conformance.sh): what every tier does —
# build, find the projects with `*.<suite>.spec.ts` suites, run them one project at a time, and end with
# summarize-tests' "N passed, N failed, N skipped". Sets ROOT and cd's there. Not run on its own.
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$ROOT" || exit 1

# The tier's single failed "test": the line the summary parser reads, then exit.
tier_fail() {
  [ $# -gt 0 ] && echo "$1"
  echo "0 passed, 1 failed"
  exit 1
}

# tier_prepare [ensure-deps args…]: the dependencies the tier needs, and a build.
tier_prepare() {
  bash tools/scripts/ensure-deps.sh "$@" || tier_fail
  npx tsc -b tsconfig.build.json || tier_fail "build failed"
}

# tier_projects SUITE LABEL: fills `projects` with every lib/app/tool holding a `*.SUITE.spec.ts`.
tier_projects() {
  projects=()
  local dir
  for dir in libs/* apps/* tools/*; do
    [ -n "$(find "$dir/src" -name "*.$1.spec.ts" 2>/dev/null | head -n1)" ] && projects+=("$(basename "$dir")")
  done
  [ ${#projects[@]} -gt 0 ] || tier_fail "no $2 suites found"
}

# tier_run SUITE REPORTS_DIR: runs the suite of each project in `projects`, gathers their JSON reports in
# REPORTS_DIR and summarizes them (a project whose report is missing counts as failed); returns non-zero
# on any failure.
tier_run() {
  local suite="$1" reports="$2" project nx_status=0 summary_status
  rm -f reports/vitest/*-"$suite".json
  for project in "${projects[@]}"; do
    ANTIDOTE_TEST_SUITE="$suite" npx nx run "@antidote/$project:test" --outputStyle=stream --skipNxCache || nx_status=1
  done
  local expected
  expected="$(printf "%s-$suite," "${projects[@]}")"
  rm -rf "$reports" && mkdir -p "$reports"
  for project in "${projects[@]}"; do cp "reports/vitest/$project-$suite.json" "$reports/" 2>/dev/null; done
  node tools/scripts/summarize-tests.mjs "$reports" "${expected%,}"
  summary_status=$?
  [ $nx_status -eq 0 ] && [ $summary_status -eq 0 ]
}
