#!/usr/bin/env bash
# The source package, as a distribution receives it (`make dist`, docs/install.md#debian-package):
#   scripts/packaging/source-package.sh OUTPUT_DIR
# writes OUTPUT_DIR/<source>_<version>.dsc and .tar.xz (format 3.0 (native)): the files git tracks,
# as they are in the work tree (uncommitted changes included, untracked files left out), plus
# vendor/ (scripts/packaging/vendor.sh), the pinned Swift packages it depends on, so that the binary package
# builds from it with the network off (scripts/packaging/binary-package.sh). Tests/, TestSupport/
# and Benchmarks/ go too, though debian/rules runs no tests: Package.swift declares their targets,
# and SwiftPM stops at a declared target whose folder is missing, even to build one product.
set -euo pipefail
cd "$(dirname "$0")/../.."
out=${1:?usage: $0 OUTPUT_DIR}
for tool in git dpkg-source dpkg-parsechangelog; do
    command -v "$tool" >/dev/null || { echo "source-package.sh: $tool is missing (scripts/test/install-deps.sh deb installs it)" >&2; exit 1; }
done
git rev-parse --is-inside-work-tree >/dev/null 2>&1 \
    || { echo "source-package.sh: run it in the git work tree (the source package is made of the files git tracks)" >&2; exit 1; }
source=$(dpkg-parsechangelog -SSource)
version=$(dpkg-parsechangelog -SVersion)

staging=$(mktemp -d)
trap 'rm -rf "$staging"' EXIT
tree="$staging/$source-$version"
mkdir "$tree"
# Tracked files deleted in the work tree are left out, as a commit would leave them out.
mapfile -d '' tracked < <(git ls-files -z --cached)
mapfile -d '' deleted < <(git ls-files -z --deleted)
declare -A gone=()
for path in "${deleted[@]}"; do gone[$path]=1; done
for path in "${tracked[@]}"; do [ -n "${gone[$path]:-}" ] || printf '%s\0' "$path"; done \
    | tar --null --no-recursion -T - -cf - | tar -xf - -C "$tree"
untracked=$(git ls-files --others --exclude-standard)
if [ -n "$untracked" ]; then
    echo "source-package.sh: left out, not tracked by git:" >&2
    sed 's/^/  /' <<<"$untracked" >&2
fi

echo "vendor/ (the Swift packages, pinned):"
./scripts/packaging/vendor.sh "$tree/vendor"

(cd "$staging" && dpkg-source --build "$source-$version" >"$staging/dpkg-source.log" 2>&1) \
    || { cat "$staging/dpkg-source.log" >&2; exit 1; }
mkdir -p "$out"
for file in "${source}_$version.dsc" "${source}_$version.tar.xz"; do
    mv -f "$staging/$file" "$out/"
    echo "$out/$file ($(wc -c <"$out/$file") bytes)"
done
