#!/usr/bin/env bash
# A new version (docs/releasing.md), `make release-version VERSION=0.2.0 SUMMARY="…"`:
#   scripts/packaging/release-version.sh VERSION SUMMARY
# writes the two places a release is recorded in, each with the summary:
#   - debian/changelog: a new entry on top (the version every build takes:
#     scripts/build/project-version.sh), for the previous entry's distribution, signed by
#     debian/control's Maintainer, dated now (as `dch -v VERSION --controlmaint` writes it);
#   - the AppStream metadata's <releases>: a new <release> first, with today's date and the summary
#     as its description (translate="no": a release is not held back for six translations; the
#     software centres show it in English).
# VERSION: one to four numbers joined by dots (what the browsers' stores take), newer than the
# current one. Both files are checked (dpkg-parsechangelog, appstreamcli when installed) before
# either is replaced; on any error neither changes. The date is now, or SOURCE_DATE_EPOCH's (a
# build that bumps the version in a copy, as the repository test does, stays the same at every run).
# Exit status: 0 written, 1 refused, 2 bad usage.
set -euo pipefail
cd "$(dirname "$0")/../.."
usage() { echo "usage: make release-version VERSION=X.Y.Z SUMMARY=\"what the release brings, in a sentence\"" >&2; exit 2; }
version=${1:-} summary=${2:-}
[ -n "$version" ] && [ -n "$summary" ] || usage
fail() { echo "release-version: $*" >&2; exit 1; }
metainfo=desktop/com.nobadi.DBMultiverse.metainfo.xml
changelog=debian/changelog

[[ "$version" =~ ^(0|[1-9][0-9]*)(\.(0|[1-9][0-9]*)){0,3}$ ]] \
    || fail "'$version' is not one to four numbers joined by dots (e.g. 0.2.0), none with a leading zero"
current=$(./scripts/build/project-version.sh)
dpkg --compare-versions "$version" gt "$current" || fail "$version is not newer than the current version, $current"
[[ "$summary" != *$'\n'* ]] || fail "SUMMARY is one paragraph (no line breaks)"

source=$(dpkg-parsechangelog -SSource)
distribution=$(dpkg-parsechangelog -SDistribution)
maintainer=$(sed -n 's/^Maintainer: *//p' debian/control)
[ -n "$maintainer" ] || fail "debian/control names no Maintainer"
when=${SOURCE_DATE_EPOCH:+@$SOURCE_DATE_EPOCH}
now=$(LC_ALL=C date -R -u -d "${when:-now}")
today=$(date -u -d "${when:-now}" +%Y-%m-%d)

staging=$(mktemp -d)
trap 'rm -rf "$staging"' EXIT
# The entry, its text wrapped at 78 columns as dch wraps it.
{
    echo "$source ($version) $distribution; urgency=medium"
    echo
    printf '%s\n' "$summary" | fold -s -w 74 | sed 's/ *$//; 1s/^/  * /; 2,$s/^/    /'
    echo
    echo " -- $maintainer  $now"
    echo
    cat "$changelog"
} >"$staging/changelog"
mkdir -p "$staging/debian"
cp "$staging/changelog" "$staging/debian/changelog"
[ "$(cd "$staging" && dpkg-parsechangelog -SVersion)" = "$version" ] || fail "the new changelog entry does not parse (dpkg-parsechangelog)"

# The release, first in <releases>, with the summary as XML text.
escaped=$(printf '%s' "$summary" | sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g')
grep -c '^  <releases>$' "$metainfo" | grep -qx 1 || fail "$metainfo has no '  <releases>' line to add the release under"
awk -v version="$version" -v date="$today" -v text="$escaped" '
    { print }
    /^  <releases>$/ {
        print "    <release version=\"" version "\" date=\"" date "\">"
        print "      <description translate=\"no\">"
        print "        <p>" text "</p>"
        print "      </description>"
        print "    </release>"
    }' "$metainfo" >"$staging/metainfo.xml"
if command -v appstreamcli >/dev/null; then
    appstreamcli validate --no-net --explain "$staging/metainfo.xml" >"$staging/validate.log" 2>&1 \
        || { cat "$staging/validate.log" >&2; fail "the metadata with the new release does not validate (above)"; }
fi

cp "$staging/changelog" "$changelog.new" && mv -f "$changelog.new" "$changelog"
cp "$staging/metainfo.xml" "$metainfo.new" && mv -f "$metainfo.new" "$metainfo"
echo "release-version: $current → $version in $changelog and $metainfo"
echo "  next: commit them, then tag v$version (docs/releasing.md)"
