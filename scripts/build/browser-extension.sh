#!/bin/sh
# Packs the WebExtension in browser/ (docs/browser-extension.md) for `make browser-extension`:
#   scripts/build/browser-extension.sh OUTPUT_DIR
# writes OUTPUT_DIR/dbmultiverse-<version>-chromium.zip (for "Load unpacked" once extracted, or a
# store upload) and OUTPUT_DIR/dbmultiverse-<version>.xpi (unsigned, for Firefox ESR, Developer
# Edition and Nightly, or for signing on addons.mozilla.org). Both hold the same files; the
# archives are reproducible (sorted names, fixed dates, no extra attributes).
set -eu
cd "$(dirname "$0")/../.."
out=${1:?usage: $0 OUTPUT_DIR}
command -v zip >/dev/null || { echo "browser-extension.sh: zip is missing (scripts/test/install-deps.sh installs it)" >&2; exit 1; }
version=$(sed -n 's/^ *"version": *"\([0-9.]*\)",*$/\1/p' browser/manifest.json)
[ -n "$version" ] || { echo "browser-extension.sh: no version in browser/manifest.json" >&2; exit 1; }

staging=$(mktemp -d)
trap 'rm -rf "$staging"' EXIT
cp -R browser/. "$staging/"
find "$staging" -exec touch -h -d '2000-01-01T00:00:00Z' {} +
mkdir -p "$out"
absolute=$(cd "$out" && pwd)
for name in "dbmultiverse-$version-chromium.zip" "dbmultiverse-$version.xpi"; do
    rm -f "$absolute/$name"
    (cd "$staging" && find . -type f | sed 's|^\./||' | LC_ALL=C sort | TZ=UTC zip -q -X -D -@ "$absolute/$name.tmp")
    mv -f "$absolute/$name.tmp" "$absolute/$name"
    echo "$out/$name ($(wc -c < "$absolute/$name") bytes, sha256 $(sha256sum "$absolute/$name" | cut -d ' ' -f 1))"
    unzip -Z1 "$absolute/$name" | sed 's/^/  /'
done
