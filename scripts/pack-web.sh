#!/usr/bin/env bash
# Make the npm package of utouch on the web (doc/web.md, "npm package"):
# the JavaScript API and its TypeScript declarations from web/, the built
# module from WASMDIR, and web/package.json.in with VERSION (meson's project
# version), packed by `npm pack` into OUTDIR/utouch-web-VERSION.tgz.
# Usage: scripts/pack-web.sh VERSION WASMDIR OUTDIR
# Works offline (the package has no dependencies).  Exits 77 without npm.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
if [ $# -ne 3 ]; then
  echo "usage: $0 VERSION WASMDIR OUTDIR" >&2
  exit 2
fi
version=$1 wasm=$2 out=$3
if ! command -v npm >/dev/null 2>&1; then
  echo "pack-web: npm not found (install the Debian package npm)" >&2
  exit 77
fi
for f in "$wasm/utouch-wasm.mjs" "$wasm/utouch-wasm.wasm"; do
  [ -f "$f" ] || { echo "pack-web: $f is missing (build it with scripts/build-web.sh)" >&2; exit 1; }
done
stage=$(mktemp -d "${TMPDIR:-/tmp}/utouch-npm.XXXXXX")
trap 'rm -rf "$stage"' EXIT
mkdir -p "$stage/build" "$out"
out=$(cd "$out" && pwd)
cp "$root"/web/{utouch.js,utouch.d.ts,recognizer.js,recognizer.d.ts,README.md} "$stage/"
cp "$wasm/utouch-wasm.mjs" "$wasm/utouch-wasm.wasm" "$stage/build/"
sed "s|@VERSION@|$version|" "$root/web/package.json.in" > "$stage/package.json"
# npm's cache and logs stay out of the user's home directory
(cd "$stage" && npm pack --offline --silent --cache "$stage/.npm-cache" \
  --pack-destination "$out" >/dev/null)
[ -f "$out/utouch-web-$version.tgz" ] || { echo "pack-web: npm pack wrote no utouch-web-$version.tgz" >&2; exit 1; }
echo "pack-web: wrote $out/utouch-web-$version.tgz" >&2
