#!/usr/bin/env bash
# package-app.sh <app> <out-dir>: the deployable folder of one app — its bundle (main.js), a production
# package.json with only the packages that cannot be bundled, those installed, and the entrypoint.
# The Dockerfile runs exactly this; so does the packaging test in CI.
set -euo pipefail
app="$1"; out="$2"
root="$(cd "$(dirname "$0")/../.." && pwd)"
cd "$root"
npx tsc -b "apps/$app/tsconfig.build.json"
node tools/scripts/bundle-app.mjs "$app"
rm -rf "$out"; mkdir -p "$out"
cp -r "apps/$app/bundle/." "$out/"
cp docker/docker-entrypoint.sh "$out/"
cd "$out"
# Install steps run afterwards: native addons already built by `npm ci` are reused (reuse-native.mjs).
npm_config_nodedir="${npm_config_nodedir:-/usr}" npm install --omit=dev --ignore-scripts --no-audit --no-fund --loglevel=error
npm_config_nodedir="${npm_config_nodedir:-/usr}" node "$root/tools/scripts/reuse-native.mjs" "$root/node_modules" "$out/node_modules"
echo "packaged $app → $out"
