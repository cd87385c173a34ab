#!/usr/bin/env bash
# The source package that `make dist` makes, built into a .deb in a clean chroot of another Debian
# release as that release builds it (SourcePackageBuildTests; docs/development.md):
#   scripts/packaging/chroot-package.sh sid|trixie
# - sid: in the sid-build chroot (scripts/real-hosts/release-chroot.sh: build-essential and the
#   Build-Depends from Debian's archive, Debian's swiftlang among them), as a Debian buildd builds it;
# - trixie: in the trixie-build chroot, with the swift.org toolchain of this machine's `swift`
#   (/opt/swift) bound in at its own path and on PATH: what a Debian 13 machine does with `make deb`.
# Both with the network off (no network namespace but the loopback), by scripts/packaging/binary-package.sh,
# which picks the Swift (Debian's swiftlang when installed, else the build profile
# pkg.dbmultiverse.swift-org and the `swift` on PATH). Then, in the same chroot, what the binaries
# load with dlopen is checked against the .deb's Depends and Recommends (scripts/packaging/dlopen-check.sh).
# Kept between runs in CACHE/package-RELEASE (CACHE: CHROOT_CACHE, default /var/cache/dbmultiverse-tests):
# the tree built last (source/, with SwiftPM's scratch folder .build-deb: each file of a new source
# package is copied in only when its content differs, so a change rebuilds what depends on it), the
# .deb in out/, and a stamp (the tracked files, the build chroot's stamp and the toolchain): when
# they are what the last build had, the .deb is reused. Callers wait on a lock for at most
# CHROOT_WAIT seconds (default 1500). Prints the Swift that built it (`swift: …`) and the dlopen
# check's lines, then the .deb's path as its last line. Its log: CACHE/package-RELEASE/build.log.
# Exit status: 0 built (or unchanged), 1 failed (the log's end shown), 2 bad usage. Needs root.
#   scripts/packaging/chroot-package.sh sid|trixie --ready
# only says whether that .deb is built for the tracked files as they are, in the build chroot as it
# is (exit status 0, else 1): nothing is made or waited for.
set -euo pipefail
cd "$(dirname "$0")/../.."
repository=$PWD
release=${1:-} ready=""
case "$release ${2:-}" in
    "sid "|"trixie ") ;;
    "sid --ready"|"trixie --ready") ready=1 ;;
    *) echo "usage: $0 sid|trixie [--ready]" >&2; exit 2 ;;
esac
fail() { echo "chroot-package: $release: $*" >&2; exit 1; }
[ "$(id -u)" -eq 0 ] || fail "needs root (chroot, mounts)"
chroot_cache="${CHROOT_CACHE:-/var/cache/dbmultiverse-tests}"
cache="$chroot_cache/package-$release"
if [ -z "$ready" ]; then
    mkdir -p "$cache/build"
    exec 9>"$cache/lock"
    flock -w "${CHROOT_WAIT:-1500}" 9 || { tail -20 "$cache/build.log" >&2 2>/dev/null
        fail "waited ${CHROOT_WAIT:-1500} s for another build of the package (its log's end above)"; }
fi

# The swift.org toolchain, for trixie: the folder holding usr/bin/swift.
toolchain=""
if [ "$release" = trixie ]; then
    swift=$(command -v swift) || fail "no swift on PATH: the trixie build uses this machine's swift.org toolchain"
    toolchain=$(dirname "$(dirname "$(dirname "$(readlink -f "$swift")")")")
    [ -x "$toolchain/usr/bin/swift" ] || fail "$swift is not in a toolchain's usr/bin ($toolchain)"
fi

if [ -n "$ready" ]; then ./scripts/real-hosts/release-chroot.sh ready "$release-build" >/dev/null || exit 1
else ./scripts/real-hosts/release-chroot.sh prepare "$release-build" >&2 || fail "no $release-build chroot (above)"; fi
chroot_stamp=$(cat "$chroot_cache/$release-build/stamp")
# The tracked files as they are in the work tree (what source-package.sh takes), the chroot, the toolchain.
stamp=$({ git ls-files -z --cached | while IFS= read -r -d '' path; do [ -f "$path" ] && printf '%s\0' "$path"; done \
        | xargs -0 sha256sum; echo "$chroot_stamp"; [ -z "$toolchain" ] || "$toolchain/usr/bin/swift" --version 2>&1; } \
    | sha256sum | cut -c1-16)
version=$(dpkg-parsechangelog -SVersion)
deb="$cache/build/out/dbmultiverse_${version}_$(dpkg-architecture -qDEB_HOST_ARCH).deb"
if [ -f "$cache/stamp" ] && [ "$(cat "$cache/stamp")" = "$stamp" ] && [ -f "$deb" ] && [ -f "$cache/result" ]; then
    [ -n "$ready" ] && exit 0
    echo "chroot-package: $release: unchanged since the last build"
    cat "$cache/result"
    echo "$deb"
    exit 0
fi
[ -z "$ready" ] || exit 1

# build: the source package, its tree synchronised into the kept one, the build in the chroot.
build() {
    local unpacked="$cache/unpacked" tree="$cache/build/source" path dsc
    rm -rf "$cache/dist" "$unpacked"
    ./scripts/packaging/source-package.sh "$cache/dist" || return 1
    dsc=$(ls "$cache/dist"/*.dsc)
    dpkg-source --extract "$dsc" "$unpacked" || return 1
    mkdir -p "$tree"
    # What the new source has, copied where it differs (a new time: SwiftPM rebuilds from it);
    # what it no longer has, removed, but for SwiftPM's scratch folder.
    while IFS= read -r -d '' path; do
        mkdir -p "$tree/$(dirname "$path")"
        cmp -s "$unpacked/$path" "$tree/$path" 2>/dev/null || { rm -f "$tree/$path"; cp -P --preserve=mode "$unpacked/$path" "$tree/$path"; } || return 1
    done < <(cd "$unpacked" && find . \( -type f -o -type l \) -printf '%P\0')
    while IFS= read -r -d '' path; do
        [ -e "$unpacked/$path" ] || [ -L "$unpacked/$path" ] || rm -f "$tree/$path"
    done < <(cd "$tree" && find . -path ./.build-deb -prune -o \( -type f -o -type l \) -printf '%P\0')
    rm -rf "$unpacked" "$cache/build/out"
    local binds=(--bind "$repository:$repository" --rw-bind "$cache/build:/build") path_variable=/usr/sbin:/usr/bin:/sbin:/bin
    if [ -n "$toolchain" ]; then
        binds+=(--bind "$toolchain:$toolchain")
        path_variable="$toolchain/usr/bin:$path_variable"
    fi
    ./scripts/real-hosts/release-chroot.sh run "$release-build" --offline "${binds[@]}" -- \
        env -i PATH="$path_variable" LANG=C.UTF-8 bash -c '
            set -e
            "$1/scripts/packaging/binary-package.sh" --again /build/source /build/out
            echo "what the binaries load with dlopen, against the package'"'"'s Depends and Recommends:"
            "$1/scripts/packaging/dlopen-check.sh" /build/out/dbmultiverse_*_*.deb' check "$repository"
}
started=$SECONDS
log="$cache/build.log"
build >"$log" 2>&1 || { tail -40 "$log" >&2; fail "the package build failed (log: $log)"; }
[ -f "$deb" ] || { tail -20 "$log" >&2; fail "the build made no $deb"; }
{
    # debian/rules: "debian/rules: building with PATH: Swift version …"
    sed -n 's/^debian\/rules: building with \([^:]*\): \(.*\)$/swift: \2, \1/p' "$log" | head -1
    sed -n '/^what the binaries load with dlopen/,$p' "$log"
} >"$cache/result"
echo "$stamp" >"$cache/stamp"
echo "chroot-package: $release: built in $(( SECONDS - started )) s"
cat "$cache/result"
echo "$deb"
