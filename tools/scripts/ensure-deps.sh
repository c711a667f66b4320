#!/usr/bin/env bash
# Installs what the platform and its tests need on a fresh machine: npm dependencies, nats-server and
# kubectl (Debian packages); with the argument `test`, also what only the tests need: etcd (for the real
# control plane in ../shared/kcp) and Chromium (browser tests). Run by start.sh, test.sh and .ci/run; safe to run again.
set -euo pipefail
ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"

apt_install() {
  if [ "$(id -u)" != 0 ] && ! command -v sudo >/dev/null; then
    echo "missing: $* — install the Debian package(s) $* (apt-get install -y $*) and run again" >&2
    return 1
  fi
  local sudo=""; [ "$(id -u)" != 0 ] && sudo="sudo"
  $sudo apt-get install -y -qq "$@" >/dev/null 2>&1 || { $sudo apt-get update -qq >/dev/null 2>&1 && $sudo apt-get install -y -qq "$@" >/dev/null; }
}

if ! command -v nats-server >/dev/null; then
  echo "installing nats-server (Debian package)…"
  apt_install nats-server || { echo "could not install nats-server: install it with \`sudo apt-get install -y nats-server\` and run again" >&2; exit 1; }
fi
if ! command -v kubectl >/dev/null; then
  echo "installing kubectl (Debian package kubernetes-client)…"
  apt_install kubernetes-client || echo "warning: kubectl not available (install it with \`sudo apt-get install -y kubernetes-client\`); the kubectl compatibility test will fail" >&2
fi

if [ "${1:-}" = test ]; then
  if ! command -v etcd >/dev/null; then
    echo "installing etcd (Debian package etcd-server, for the real control plane tests)…"
    apt_install etcd-server || exit 1
  fi
  if ! command -v chromium >/dev/null; then
    echo "installing chromium (Debian package, for the browser tests)…"
    apt_install chromium || exit 1
  fi
fi

cd "$ROOT"
source tools/scripts/progress.sh
stamp="node_modules/.antidote-lock-hash"
want="$(sha256sum package-lock.json | cut -d' ' -f1)"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
  # A copy of a working checkout has no stamp but the right node_modules: npm's own record says so.
  if ! node tools/scripts/lock-matches-modules.cjs; then
    # better-sqlite3 compiles against Node's headers; Debian's node keeps them under /usr.
    with_progress "installing npm dependencies (npm ci)" env npm_config_nodedir="${npm_config_nodedir:-/usr}" npm ci --no-audit --no-fund --loglevel=error
  fi
  echo "$want" > "$stamp"
fi
