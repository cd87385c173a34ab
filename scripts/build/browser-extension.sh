#!/bin/sh
# Packs the WebExtension in browser/ (docs/browser-extension.md) for `make browser-extension`:
#   scripts/build/browser-extension.sh OUTPUT_DIR
# writes OUTPUT_DIR/dbmultiverse-<version>-chromium.zip (for "Load unpacked" once extracted, or a
# Chrome Web Store upload), OUTPUT_DIR/dbmultiverse-<version>.xpi (unsigned, for Firefox ESR,
# Developer Edition and Nightly, or for signing on addons.mozilla.org) and OUTPUT_DIR/extension/,
# the same files unpacked (what the Debian package installs). The manifest's version is the
# project's (scripts/build/project-version.sh: debian/changelog), written in here; browser/'s own
# says 0.0.0, loaded unpacked as it is by the tests. The archives are reproducible (sorted names,
# fixed dates, no extra attributes).
set -eu
cd "$(dirname "$0")/../.."
out=${1:?usage: $0 OUTPUT_DIR}
command -v zip >/dev/null || { echo "browser-extension.sh: zip is missing (scripts/test/install-deps.sh installs it)" >&2; exit 1; }
version=$(./scripts/build/project-version.sh)

staging=$(mktemp -d)
trap 'rm -rf "$staging"' EXIT
chmod 755 "$staging"
cp -R browser/. "$staging/"
sed 's/^\(  "version": \)"0\.0\.0",$/\1"'"$version"'",/' browser/manifest.json >"$staging/manifest.json"
grep -q "^  \"version\": \"$version\",\$" "$staging/manifest.json" \
    || { echo "browser-extension.sh: browser/manifest.json has no line '  \"version\": \"0.0.0\",' to write the version into" >&2; exit 1; }
find "$staging" -exec touch -h -d '2000-01-01T00:00:00Z' {} +
mkdir -p "$out"
absolute=$(cd "$out" && pwd)
rm -rf "$absolute/extension.tmp" "$absolute/extension"
cp -R "$staging" "$absolute/extension.tmp"
mv "$absolute/extension.tmp" "$absolute/extension"
for name in "dbmultiverse-$version-chromium.zip" "dbmultiverse-$version.xpi"; do
    rm -f "$absolute/$name"
    (cd "$staging" && find . -type f | sed 's|^\./||' | LC_ALL=C sort | TZ=UTC zip -q -X -D -@ "$absolute/$name.tmp")
    mv -f "$absolute/$name.tmp" "$absolute/$name"
    echo "$out/$name ($(wc -c < "$absolute/$name") bytes, sha256 $(sha256sum "$absolute/$name" | cut -d ' ' -f 1))"
    unzip -Z1 "$absolute/$name" | sed 's/^/  /'
done
