#!/usr/bin/env bash
# `npm run test:conformance`: the conformance suites (`*.conformance.spec.ts`: the scheduler, healthchecker and
# reaper scenarios) against a REAL control plane — kcp (kube-apiserver, controller-manager, scheduler; env
# ANTIDOTE_TEST_KCP or <repo>/../shared/kcp), started once for the whole run — with kube-sim's nodes as its
# kubelets, real RBAC from deploy/k8s/base, real nats-server and SQLite.
# Without kcp the suites are skipped (said so); with env CI set that is a failure: CI must run them.
# Ends with "N passed, N failed, N skipped"; exits non-zero on any failure.
set -uo pipefail
source "$(dirname "$0")/test-tier.lib.sh"
tier_prepare test
tier_projects conformance conformance

kcp="${ANTIDOTE_TEST_KCP:-$ROOT/../shared/kcp}"
work="$(mktemp -d /tmp/antidote-conformance-XXXXXX)"
cleanup() { [ -f "$work/kcp/pids" ] && bash "$kcp/stop.sh" "$work/kcp" >/dev/null 2>&1; rm -rf "$work"; }
trap cleanup EXIT
if [ -x "$kcp/start.sh" ] || [ -f "$kcp/start.sh" ]; then
  echo "starting the control plane (kcp in $kcp)…"
  ANTIDOTE_TEST_KCP_KUBECONFIG="$(bash "$kcp/start.sh" "$work/kcp")" || tier_fail "kcp did not start"
  export ANTIDOTE_TEST_KCP_KUBECONFIG
elif [ -n "${CI:-}" ]; then
  tier_fail "no control plane: $kcp/start.sh is missing (set ANTIDOTE_TEST_KCP); CI must run the conformance tier"
else
  echo "no control plane: $kcp/start.sh is missing (set ANTIDOTE_TEST_KCP) — the conformance tests are skipped"
fi

tier_run conformance "$work/reports"
