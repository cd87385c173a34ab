#!/usr/bin/env bash
# What a package's binaries load with dlopen is what the package declares:
#   scripts/packaging/dlopen-check.sh PACKAGE.deb
# The sonames of libcurl, libxml2, libjpeg and libpng that the binaries name (dbmultiverse and its
# programs in /usr/libexec/dbmultiverse: the ones their build's headers describe, Sources/CSiteLibraries
# and Sources/CImageDecoding); for each, the package that ships it here (ldconfig's path, dpkg -S)
# must be named in the .deb's Depends (libcurl, libxml2) or Recommends (libjpeg, libpng). Run it where
# the package was built (debian/dlopen-depends chose the names there) or installed. Prints a line per
# library. Exit status: 0 all four found and declared, 1 otherwise, 2 bad usage.
set -euo pipefail
deb=$(realpath "${1:?usage: $0 PACKAGE.deb}") || exit 2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
dpkg-deb -x "$deb" "$work"
depends=$(dpkg-deb -f "$deb" Depends)
recommends=$(dpkg-deb -f "$deb" Recommends)
multiarch=$(dpkg-architecture -qDEB_HOST_MULTIARCH)
# names PACKAGE LIST: the dependency field LIST names PACKAGE (alone or in an alternative).
names() { grep -qE "(^|[ ,|])$1([ ,(]|$)" <<<"$2"; }

sonames=$(strings "$work/usr/bin/dbmultiverse" "$work"/usr/libexec/dbmultiverse/dbmultiverse-* \
    | grep -E '^lib(curl|xml2|jpeg|png[0-9]*)\.so\.[0-9]+$' | sort -u || true)
if [ "$(wc -w <<<"$sonames")" -ne 4 ]; then
    echo "✘ the binaries name $(wc -w <<<"$sonames") libraries, not the four they load (libcurl, libxml2, libjpeg, libpng): $(echo $sonames)"
    exit 1
fi
status=0
for soname in $sonames; do
    case "$soname" in
        libcurl.*|libxml2.*) field=Depends list=$depends ;;
        *) field=Recommends list=$recommends ;;
    esac
    # awk reads to the end: exiting at the match made ldconfig die of SIGPIPE (exit 141 under pipefail).
    path=$(ldconfig -p | awk -v name="$soname" -v dir="/$multiarch/" '!found && $1 == name && index($NF, dir) { print $NF; found = 1 }')
    owner=""
    [ -z "$path" ] || owner=$(dpkg -S "$(readlink -f "$path")" 2>/dev/null | sed -n '1s/[:,].*//p')
    if [ -n "$owner" ] && names "$owner" "$list"; then
        echo "✓ $soname: $path, from $owner, which $field names"
    else
        echo "✘ $soname: ${path:-not on this system}, from ${owner:-no package}, which $field ($list) does not name"
        status=1
    fi
done
exit "$status"
