#!/usr/bin/env bash
# What a release uploads to the stores (docs/releasing.md), in OUT:
#   dbmultiverse@nobadi.com.gnome-43.shell-extension.zip, …gnome-45…   extensions.gnome.org (GNOME 43–44, 45–51),
#       as `gnome-extensions pack` makes them (scripts/build/gnome-extension-pack.sh);
#   com.nobadi.dbmultiverse-VERSION-plasma5.plasmoid, …-plasma6.plasmoid   the KDE Store (Plasma 5.27, Plasma 6):
#       desktop/plasma/build.sh's build, running the package's /usr/bin/dbmultiverse, zipped with
#       metadata.json at the top as kpackagetool installs it;
#   dbmultiverse-VERSION.xpi, dbmultiverse-VERSION-chromium.zip   addons.mozilla.org (unsigned: signing
#       is the store's), the Chrome Web Store (scripts/build/browser-extension.sh).
# The archives are reproducible (sorted names, fixed dates). Prints each file with its size.
# Usage: scripts/packaging/store-artefacts.sh OUT
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:?usage: $0 OUT}
mkdir -p "$out"
out=$(cd "$out" && pwd)
version=$(./scripts/build/project-version.sh)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

./scripts/build/gnome-extension-pack.sh "$out" >/dev/null
for plasma in 5 6; do
    desktop/plasma/build.sh "$plasma" "$work/plasma-$plasma" /usr/bin/dbmultiverse
    find "$work/plasma-$plasma" -exec touch -h -d '2000-01-01T00:00:00Z' {} +
    name="com.nobadi.dbmultiverse-$version-plasma$plasma.plasmoid"
    rm -f "$out/$name"
    (cd "$work/plasma-$plasma" && find . -type f | sed 's|^\./||' | LC_ALL=C sort | TZ=UTC zip -q -X -D -@ "$out/$name.tmp")
    mv "$out/$name.tmp" "$out/$name"
done
./scripts/build/browser-extension.sh "$work/browser" >/dev/null
cp "$work/browser/dbmultiverse-$version.xpi" "$work/browser/dbmultiverse-$version-chromium.zip" "$out/"
for file in "$out"/*.shell-extension.zip "$out"/*-"$version"-plasma?.plasmoid "$out/dbmultiverse-$version.xpi" "$out/dbmultiverse-$version-chromium.zip"; do
    echo "$file ($(wc -c <"$file") bytes)"
done
