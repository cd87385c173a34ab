#!/usr/bin/env bash
# Builds the Plasma widget (docs/plasma.md) for one Plasma version from its one source (contents/,
# metadata.json.in), as desktop/gnome-shell/build.sh builds the GNOME Shell extension:
#   build.sh 5 DIR BINARY   Plasma 5
#   build.sh 6 DIR BINARY   Plasma 6
# DIR (made if missing) gets metadata.json and contents/: the lines of the QML files and
# metadata.json.in marked `//5` or `//6` kept for that version (their mark removed) and dropped for
# the other, BINARY's absolute path written where the QML runs the command-line tool, the
# project's version in the metadata, the icon beside, and
# contents/locale/<ll>/LC_MESSAGES/plasma_applet_com.nobadi.dbmultiverse.mo for each language of
# po/LINGUAS (the project's catalogue: the widget's messages are among its own).
# Which build a desktop gets is desktop/select-cards's choice, made where the cards are installed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$here/../.."

usage() { echo "usage: build.sh 5|6 DIR BINARY" >&2; exit 2; }
[ $# -eq 3 ] || usage
case "$1" in 5) version=5 other=6 ;; 6) version=6 other=5 ;; *) echo "build.sh: Plasma version must be 5 or 6, not '$1'" >&2; usage ;; esac
out="$2" binary="$3"
case "$binary" in /*) ;; *) echo "build.sh: the binary's path must be absolute (got '$binary')" >&2; exit 2 ;; esac

project_version="$("$root/scripts/build/project-version.sh")"
# For sed's replacement: & and \ and the delimiter ! stand for themselves.
escaped_binary="$(printf '%s' "$binary" | sed -e 's/[&\\!]/\\&/g')"
keep=(-e "/\/\/ *$other\$/d" -e "s! *// *$version\$!!")
install -d -m 755 "$out/contents/ui" "$out/contents/images"
sed "${keep[@]}" -e "s!@VERSION@!$project_version!" "$here/metadata.json.in" >"$out/metadata.json"
sed "${keep[@]}" -e "s!@DBMULTIVERSE@!$escaped_binary!" "$here/contents/ui/main.qml" >"$out/contents/ui/main.qml"
for file in Card.qml CompactView.qml; do
    sed "${keep[@]}" "$here/contents/ui/$file" >"$out/contents/ui/$file"
    chmod 644 "$out/contents/ui/$file"
done
install -m 644 "$here/contents/ui/placeholder.js" "$out/contents/ui/"
install -m 644 "$here/../icons/com.nobadi.DBMultiverse.svg" "$out/contents/images/com.nobadi.DBMultiverse.svg"
chmod 644 "$out/metadata.json" "$out/contents/ui/main.qml"
for lang in $(grep -v '^\s*\(#\|$\)' "$root/po/LINGUAS"); do
    install -d -m 755 "$out/contents/locale/$lang/LC_MESSAGES"
    msgfmt --check -o "$out/contents/locale/$lang/LC_MESSAGES/plasma_applet_com.nobadi.dbmultiverse.mo" "$root/po/$lang.po"
    chmod 644 "$out/contents/locale/$lang/LC_MESSAGES/plasma_applet_com.nobadi.dbmultiverse.mo"
done
