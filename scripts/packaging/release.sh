#!/usr/bin/env bash
# `make release` (docs/releasing.md): every file a release publishes, in dist/release/, made from the
# files git tracks:
#   - the source package (.dsc and .tar.xz, with vendor/: it builds with the network off);
#   - the binary packages built from it offline as distributions build (the .deb, its -dbgsym, the
#     .buildinfo), and dbmultiverse-archive-keyring and dbmultiverse-apt-source when
#     debian/archive-keyring/ holds the project's key (the build profile
#     pkg.dbmultiverse.archive-keyring; without the key, said and left out);
#   - the store uploads (scripts/packaging/store-artefacts.sh), which must pass the stores' offline
#     checks first (scripts/packaging/store-checks.sh all);
#   - SHA256SUMS of them all, and SHA256SUMS.asc, its detached signature, when SIGNING_KEY (a
#     fingerprint, from GNUPGHOME) is given.
# Every artefact must carry the changelog's version (checked). Made in dist/release.new and moved
# into place when complete. Prints the set with sizes.
# Usage: SIGNING_KEY=FINGERPRINT scripts/packaging/release.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
out=dist/release
new=dist/release.new
key=${SIGNING_KEY:-}
fail() { echo "make release: $*" >&2; exit 1; }
version=$(./scripts/build/project-version.sh)
source_name=$(dpkg-parsechangelog -SSource)
package_version=$(dpkg-parsechangelog -SVersion)
rm -rf "$new"
mkdir -p "$new"

./scripts/packaging/source-package.sh "$new"
profiles=""
if [ -f debian/archive-keyring/dbmultiverse-archive-keyring.pgp ]; then
    profiles=pkg.dbmultiverse.archive-keyring
else
    echo "make release: debian/archive-keyring/ has no project key: no dbmultiverse-archive-keyring and dbmultiverse-apt-source packages (docs/releasing.md, \"The signing key\")" >&2
fi
DEB_BUILD_PROFILES=$profiles ./scripts/packaging/binary-package.sh "$new/${source_name}_$package_version.dsc" "$new"
rm -f "$new"/*.changes
./scripts/packaging/store-artefacts.sh "$new"
./scripts/packaging/store-checks.sh all "$new" || fail "the store artefacts do not pass the stores' checks (above)"

# One version everywhere.
for deb in "$new"/*.deb; do
    [ "$(dpkg-deb --field "$deb" Version)" = "$package_version" ] || fail "$deb is not version $package_version"
done
for zip in "$new"/*.shell-extension.zip; do
    unzip -p "$zip" metadata.json | grep -q "\"version-name\": \"$version\"" || fail "$zip's version-name is not $version"
done
for plasmoid in "$new"/*.plasmoid; do
    unzip -p "$plasmoid" metadata.json | grep -q "\"Version\": \"$version\"" || fail "$plasmoid's Version is not $version"
done
binary=$(mktemp -d)
dpkg-deb -x "$new/${source_name}_${package_version}_$(dpkg-architecture -qDEB_HOST_ARCH).deb" "$binary"
[ "$("$binary/usr/bin/dbmultiverse" --version)" = "$version" ] || { rm -rf "$binary"; fail "the packaged dbmultiverse --version is not $version"; }
rm -rf "$binary"

(cd "$new" && sha256sum -- * >SHA256SUMS)
if [ -n "$key" ]; then
    gpg --batch --yes --local-user "$key" --digest-algo SHA512 --armor --detach-sign --output "$new/SHA256SUMS.asc" "$new/SHA256SUMS" \
        || fail "gpg could not sign SHA256SUMS with $key"
fi
rm -rf "$out"
mv "$new" "$out"
echo "make release: $out (version $version):"
(cd "$out" && for file in *; do printf '  %-60s %10s bytes\n' "$file" "$(wc -c <"$file")"; done)
