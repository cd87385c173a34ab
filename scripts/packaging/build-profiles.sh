#!/usr/bin/env bash
# The build profiles to build debian/ with here: PROFILE... (space or comma separated) and, unless
# Debian's swiftlang is installed (sid, forky), pkg.dbmultiverse.swift-org, which leaves swiftlang
# out of Build-Depends and builds with the `swift` on PATH (Debian 12 and 13, a swift.org toolchain).
# Prints them space-separated, as DEB_BUILD_PROFILES takes them.
# Usage: scripts/packaging/build-profiles.sh [PROFILE...]
set -euo pipefail
profiles=$(printf '%s ' "$@" | tr ',' ' ')
if [ ! -x /usr/libexec/swift/bin/swift ] && [[ " $profiles " != *" pkg.dbmultiverse.swift-org "* ]]; then
    profiles="$profiles pkg.dbmultiverse.swift-org"
fi
echo $profiles
