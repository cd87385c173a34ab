#!/bin/sh
# The project's version, stated once: the newest entry of debian/changelog (docs/releasing.md), its
# upstream part (no epoch, no Debian revision). Everything that shows a version takes it from here
# at build time: the .deb (dpkg reads the changelog itself), the programs (`--version`, the
# User-Agent: the ProjectVersion build plugin), the cards' metadata, the browser manifests.
#   scripts/build/project-version.sh              prints it
#   scripts/build/project-version.sh swift FILE   writes FILE: the Swift declaration ComicDomain
#                                                  compiles (Plugins/ProjectVersion, scripts/dev/fuzz.sh)
# The version must be what every store takes: one to four numbers joined by dots (the browsers'
# rule), none with a leading zero. Exit status: 0, or 1 with the reason when it is not.
# Plain sed on the first line (debian/changelog's format): dpkg-parsechangelog is not on every
# machine that builds the programs; PackagingTests checks both read the same.
set -eu
changelog="$(dirname "$0")/../../debian/changelog"
heading=$(sed -n '1p' "$changelog")
version=$(printf '%s\n' "$heading" | sed -n 's/^[a-z0-9][a-z0-9+.-]* (\([^)]*\)) .*/\1/p' | sed 's/^[0-9]*://; s/-[^-]*$//')
case "$version" in
    ''|*[!0-9.]*|.*|*.|*..*) version="" ;;
esac
if [ -z "$version" ] || [ "$(printf '%s' "$version" | tr -cd . | wc -c)" -gt 3 ] \
    || printf '%s' "$version" | grep -Eq '(^|\.)0[0-9]'; then
    echo "project-version.sh: debian/changelog's first line names no version of 1 to 4 numbers joined by dots: $heading" >&2
    exit 1
fi
case "${1:-}" in
    '') printf '%s\n' "$version" ;;
    swift)
        out=${2:?usage: project-version.sh swift FILE}
        printf '// Made from debian/changelog by scripts/build/project-version.sh: do not edit.\nlet changelogVersion = "%s"\n' \
            "$version" >"$out.tmp"
        # Replaced only when it changes: a changelog touched but not bumped recompiles nothing.
        if cmp -s "$out.tmp" "$out"; then rm -f "$out.tmp"; else mv -f "$out.tmp" "$out"; fi ;;
    *) echo "usage: project-version.sh [swift FILE]" >&2; exit 2 ;;
esac
