#!/bin/sh
# The Swift packages this one depends on, as plain source for the source package (docs/install.md#debian-package): a
# distribution builds with the network off, so `make dist` carries them in vendor/, where
# Package.swift's dependency() finds them. vendor/ is never committed.
#   scripts/packaging/vendor.sh FOLDER   writes FOLDER/<name>/ for each pin below (`git archive` of its tag)
#                              and FOLDER/PINS (name, version, commit)
# The pins are what `swift package resolve` picks today; each must satisfy the `from:` of its
# dependency() line in Package.swift (same major version, not lower), and every dependency needs a
# pin: the script stops otherwise. Raise a pin and its from: together.
set -eu
cd "$(dirname "$0")/../.."
out=${1:?usage: $0 FOLDER}

pins="https://github.com/apple/swift-argument-parser 1.8.2
https://github.com/apple/swift-log 1.16.2"

# version_at_least A B: A and B are x.y.z with the same major version, and A >= B.
version_at_least() {
    [ "${1%%.*}" = "${2%%.*}" ] && [ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n 1)" = "$2" ]
}

# Package.swift's dependencies, "url minimum" per line.
required=$(sed -n 's/^ *dependency("\([^"]*\)", from: "\([0-9.]*\)"),*$/\1 \2/p' Package.swift)
[ -n "$required" ] || { echo "vendor.sh: no dependency(\"URL\", from: \"VERSION\") line in Package.swift" >&2; exit 1; }
echo "$required" | while read -r url minimum; do
    pinned=$(echo "$pins" | awk -v url="$url" '$1 == url { print $2 }')
    [ -n "$pinned" ] || { echo "vendor.sh: Package.swift depends on $url, which has no pin here" >&2; exit 1; }
    version_at_least "$pinned" "$minimum" \
        || { echo "vendor.sh: the pin $pinned of $url does not satisfy Package.swift's from: \"$minimum\"" >&2; exit 1; }
done
echo "$pins" | while read -r url version; do
    echo "$required" | grep -q "^$url " || { echo "vendor.sh: $url is pinned but Package.swift does not depend on it" >&2; exit 1; }
done

# Each pin's tag, cloned bare (git's url.insteadOf settings apply, as for swift build), archived
# into FOLDER/<name>.
clones=$(mktemp -d)
trap 'rm -rf "$clones"' EXIT
rm -rf "$out"
mkdir -p "$out"
echo "# The Swift packages built into dbmultiverse, from scripts/packaging/vendor.sh: name, version, commit." > "$out/PINS"
echo "$pins" | while read -r url version; do
    name=${url##*/}
    git clone --quiet --bare --single-branch --branch "$version" "$url" "$clones/$name.git" 2>"$clones/$name.log" \
        || { echo "vendor.sh: cannot clone $url at $version:" >&2; cat "$clones/$name.log" >&2; exit 1; }
    mkdir "$out/$name"
    git -C "$clones/$name.git" archive --format=tar "$version" | tar -x -C "$out/$name"
    commit=$(git -C "$clones/$name.git" rev-parse "$version^{commit}")
    echo "$name $version $commit" >> "$out/PINS"
    echo "  $out/$name: $version ($commit, $(find "$out/$name" -type f | wc -l) files)"
done
