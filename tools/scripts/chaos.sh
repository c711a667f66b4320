#!/usr/bin/env bash
# `npm run chaos`: the long chaos run (`*.chaos.spec.ts`): every app twice as processes, PostgreSQL,
# nats-server with authorization and kube-sim; 363 learners over 11 minutes through both apis while every
# kind of replica is killed with -9 and nats-server and PostgreSQL restart; prints the account of every
# accepted request (docs/reliability.md). CHAOS_MINUTES and CHAOS_LEARNERS shorten it.
set -uo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
bash tools/scripts/ensure-deps.sh test || exit 1
npx tsc -b tsconfig.build.json || exit 1
ANTIDOTE_TEST_SUITE=chaos npx nx run @antidote/e2e:test --outputStyle=stream --skipNxCache
status=$?
rm -f reports/vitest/*-chaos.json
exit $status
