#!/usr/bin/env bash
# The .deb the release checks install (scripts/real-hosts/release-check.sh), built by the package's own
# debian/ as `make deb` builds it (dpkg-buildpackage -b, network off, vendor/ for the Swift
# packages), but again and again in one kept tree, so that a test run pays for what changed only:
#   the files git tracks (as in the work tree, as scripts/packaging/source-package.sh takes them) are copied
#   into CACHE/package/source, each only when its content differs (an unchanged file keeps its
#   time, so SwiftPM's release build in source/.build-deb is reused), files no longer tracked go;
#   vendor/ is made once per pin list (scripts/packaging/vendor.sh);
#   scripts/packaging/binary-package.sh --again builds there without dpkg-buildpackage's clean step.
# When the tracked files are what the last build had (their hash is its stamp), the .deb is reused.
# Prints the .deb's path as its last line. Its log is CACHE/package/build.log (shown on failure).
# Callers wait on a lock (one build at a time), for at most CHROOT_WAIT seconds (default 1500). CACHE: CHROOT_CACHE, default /var/cache/dbmultiverse-tests.
# With --next, the package one version on (the repository test's upgrade: scripts/real-hosts/
# apt-repository-check.sh), in a tree of its own (CACHE/package-next): the same files, then
# `make release-version` of the next minor version there, dated a day after the current entry so
# that the tree is the same at every run; without its -dbgsym package.
# With --ready, only whether that .deb is built for the tracked files as they are (exit status 0,
# and its path, else 1): nothing is built or waited for.
# Usage: scripts/packaging/test-package.sh [--next] [--ready]
set -euo pipefail
cd "$(dirname "$0")/../.."
next="" ready=""
for option in "$@"; do
    case "$option" in
        --next) next=1 ;;
        --ready) ready=1 ;;
        *) echo "usage: $0 [--next] [--ready]" >&2; exit 2 ;;
    esac
done
cache="${CHROOT_CACHE:-/var/cache/dbmultiverse-tests}/package${next:+-next}"
tree="$cache/source"
if [ -z "$ready" ]; then
    mkdir -p "$tree" "$cache/out"
    exec 9>"$cache/lock"
    flock -w "${CHROOT_WAIT:-1500}" 9 || { tail -20 "$cache/build.log" >&2
        echo "test-package: waited ${CHROOT_WAIT:-1500} s for another build of the package (its log's end above)" >&2; exit 1; }
fi

mapfile -d '' tracked < <(git ls-files -z --cached)
files=()
for path in "${tracked[@]}"; do [ -f "$path" ] && [ ! -L "$path" ] && files+=("$path"); done
# Links (none today) would be copied as links.
for path in "${tracked[@]}"; do [ -L "$path" ] && files+=("$path"); done
stamp="$(printf '%s\0' "${files[@]}" | xargs -0 sha256sum | sha256sum | cut -c1-16)"
version=$(dpkg-parsechangelog -SVersion)
if [ -n "$next" ]; then
    IFS=. read -r major minor _ <<<"$version"
    version="$major.$(( ${minor:-0} + 1 )).0"
fi
deb="$cache/out/dbmultiverse_${version}_$(dpkg-architecture -qDEB_HOST_ARCH).deb"
if [ -f "$cache/stamp" ] && [ "$(cat "$cache/stamp")" = "$stamp" ] && [ -f "$deb" ]; then
    [ -z "$ready" ] || { echo "$deb"; exit 0; }
    echo "test-package: unchanged since the last build"
    echo "$deb"
    exit 0
fi
[ -z "$ready" ] || exit 1

# The tree: what git tracks, copied where it differs; what is no longer tracked removed (the
# build's own folders, vendor/ and debian/'s staging folders stay; debian/'s other products go, as
# dh_clean would take them: a file removed from debian/ must not stay in the build). Then vendor/
# and the build.
build() {
    local path pins
    declare -A keep=()
    for path in "${files[@]}"; do
        keep[$path]=1
        mkdir -p "$tree/$(dirname "$path")"
        cmp -s "$path" "$tree/$path" 2>/dev/null || cp -a "$path" "$tree/$path" || return 1
    done
    while read -r path; do
        [ -n "${keep[$path]:-}" ] || rm -f "$tree/$path"
    done < <(cd "$tree" && find . -path ./.build-deb -prune -o -path ./vendor -prune -o -path ./debian/dbmultiverse -prune -o \
        -path ./debian/.debhelper -prune -o -path ./debian/tmp -prune -o \
        \( -type f -o -type l \) -print | sed 's|^\./||')
    pins="$(sha256sum scripts/packaging/vendor.sh Package.swift | sha256sum | cut -c1-16)"
    if [ ! -f "$cache/vendor.stamp" ] || [ "$(cat "$cache/vendor.stamp")" != "$pins" ]; then
        ./scripts/packaging/vendor.sh "$tree/vendor" || return 1
        echo "$pins" >"$cache/vendor.stamp"
    fi
    if [ -n "$next" ]; then
        (cd "$tree" && SOURCE_DATE_EPOCH=$(( $(dpkg-parsechangelog -STimestamp) + 86400 )) ./scripts/packaging/release-version.sh "$version" \
            "The repository test's upgrade: the same sources, one version on.") || return 1
    fi
    rm -f "$cache/out"/*.deb
    # The upgrade's package needs no debug symbols: their compression is minutes of a build.
    DEB_BUILD_OPTIONS="${DEB_BUILD_OPTIONS:-}${next:+ noautodbgsym}" ./scripts/packaging/binary-package.sh --again "$tree" "$cache/out"
}
started=$SECONDS
log="$cache/build.log"
build >"$log" 2>&1 || { tail -40 "$log" >&2; echo "test-package: the package build failed (log: $log)" >&2; exit 1; }
[ -f "$deb" ] || { tail -20 "$log" >&2; echo "test-package: the build made no $deb" >&2; exit 1; }
echo "$stamp" >"$cache/stamp"
echo "test-package: built in $(( SECONDS - started )) s"
echo "$deb"
