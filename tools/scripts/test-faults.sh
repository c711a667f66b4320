#!/usr/bin/env bash
# `npm run test:faults`: the fault suites (`*.faults.spec.ts`: Kubernetes API errors and latency, an API
# outage, dropped and expired watches) against real nats-server, SQLite and kube-sim.
# Ends with "N passed, N failed, N skipped"; exits non-zero on any failure.
set -uo pipefail
source "$(dirname "$0")/test-tier.lib.sh"
tier_prepare
tier_projects faults fault
tier_run faults reports/vitest/faults
status=$?
rm -rf reports/vitest/faults
exit $status
