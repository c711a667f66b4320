#!/usr/bin/env bash
# `npm start`: everything a fresh machine needs, a build, then the whole platform locally
# (`antictl up`: nats-server, kube-sim, the four apps, SQLite under .antidote/, the sample curriculum).
set -euo pipefail
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$ROOT"
bash tools/scripts/ensure-deps.sh
npx tsc -b tsconfig.build.json
exec node tools/antictl/bin/antictl.js up "$@"
