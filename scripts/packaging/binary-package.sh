#!/usr/bin/env bash
# The binary package built from the source package, as distributions build (`make deb`):
#   scripts/packaging/binary-package.sh SOURCE.dsc OUTPUT_DIR
# unpacks SOURCE.dsc into a new folder (.build-deb-package/, ignored by git) and runs
# `dpkg-buildpackage -us -uc -b` there with the network off: in a network namespace of its own
# (`unshare -n`, which needs root; as another user it builds with the network on and says so) with
# only the loopback interface, up. Up, because Foundation's run loop wakes itself through a socket
# pair on 127.0.0.1: with loopback down, generate-manual (the man page) printed "Could not create
# wakeup socket pair for CFSocket" and once hung for good in Process.waitUntilExit. As on a build
# machine, nothing of this machine's may stand in for vendor/: HOME is an empty folder (no SwiftPM
# caches, which resolved the dependencies offline without vendor/ here) and git reads no system
# configuration (this machine's url.insteadOf points github.com at local copies). Then it moves
# the .deb, its -dbgsym, the .buildinfo and the .changes to OUTPUT_DIR. Nothing is built in the
# work tree.
#   scripts/packaging/binary-package.sh --again TREE OUTPUT_DIR
# builds the same way in TREE, an unpacked source kept from an earlier build, without
# dpkg-buildpackage's clean step (-nc; dh_clean only forgets which dh steps ran), so the release
# build in TREE/.build-deb is reused: scripts/packaging/test-package.sh's fast route for the tests.
set -euo pipefail
cd "$(dirname "$0")/../.."
usage="usage: $0 SOURCE.dsc OUTPUT_DIR | --again TREE OUTPUT_DIR"
again=""
if [ "${1:-}" = "--again" ]; then again=1; shift; fi
out=${2:?$usage}
if [ -n "$again" ]; then
    tree=$(realpath "${1:?$usage}")
    build=$(dirname "$tree")
    (cd "$tree" && dh_clean)
    mkdir -p "$out"
else
    dsc=$(realpath "${1:?$usage}")
    build="$PWD/.build-deb-package"
    tree="$build/source"
    rm -rf "$build"
    mkdir -p "$build" "$out"
    dpkg-source --extract "$dsc" "$tree" >"$build/extract.log" 2>&1 || { cat "$build/extract.log" >&2; exit 1; }
fi
offline=()
if unshare -n true 2>/dev/null; then
    offline=(unshare -n -- sh -c 'ip link set dev lo up && exec "$@"' offline)
    echo "binary-package.sh: building in $tree with the network off (unshare -n, loopback only)"
else
    echo "binary-package.sh: unshare -n is not allowed for $(id -un) (root only): building with the network on" >&2
fi
# The Swift (debian/rules): Debian's swiftlang when it is installed (sid, forky), else the build
# profile pkg.dbmultiverse.swift-org and the `swift` on PATH (Debian 12 and 13, a swift.org
# toolchain), beside the profiles DEB_BUILD_PROFILES asks for.
DEB_BUILD_PROFILES=$(./scripts/packaging/build-profiles.sh ${DEB_BUILD_PROFILES:-})
export DEB_BUILD_PROFILES
echo "binary-package.sh: build profiles: ${DEB_BUILD_PROFILES:-none} (Swift: $(if [[ " ${DEB_BUILD_PROFILES:-} " == *" pkg.dbmultiverse.swift-org "* ]]; then command -v swift || echo "none on PATH"; else echo "Debian's swiftlang"; fi))"
rm -rf "$build/home"
mkdir "$build/home"
(cd "$tree" && env HOME="$build/home" GIT_CONFIG_NOSYSTEM=1 "${offline[@]}" dpkg-buildpackage -us -uc -b ${again:+-nc})

version=$(cd "$tree" && dpkg-parsechangelog -SVersion)
arch=$(dpkg-architecture -qDEB_HOST_ARCH)
for file in "$build"/*_"${version}_$arch".*; do
    mv -f "$file" "$out/"
done
ls -l "$out"/*_"${version}_$arch".*
