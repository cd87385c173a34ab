#!/usr/bin/env bash
# The Plasma widget (desktop/plasma/; docs/plasma.md) built for one Plasma version from its one source.
#
#   scripts/plasmoid.sh build 5|6 BINARY FOLDER   writes the package into FOLDER (made if missing):
#       the lines of the QML files and metadata.json.in marked `//5` or `//6` kept for that version
#       (their mark removed) and dropped for the other, BINARY's absolute path written where the
#       QML runs the command-line tool, the project's version in the metadata, the icon beside,
#       and contents/locale/<ll>/LC_MESSAGES/plasma_applet_com.nobadi.dbmultiverse.mo for each
#       language of po/LINGUAS (the project's catalogue: the widget's messages are among its own).
# Which build a desktop gets is desktop/select-cards's choice, made where the cards are installed.
set -euo pipefail
cd "$(dirname "$0")/.."

build() {
    local version="$1" binary="$2" out="$3" other
    case "$version" in 5) other=6 ;; 6) other=5 ;; *) echo "plasmoid.sh: Plasma version must be 5 or 6, not '$version'" >&2; exit 2 ;; esac
    case "$binary" in /*) ;; *) echo "plasmoid.sh: the binary's path must be absolute (got '$binary')" >&2; exit 2 ;; esac
    local project_version
    project_version="$(sed -n 's/.*static let version = "\(.*\)".*/\1/p' Sources/ComicDomain/ProjectInfo.swift)"
    # For sed's replacement: & and \ and the delimiter ! stand for themselves.
    local escaped_binary
    escaped_binary="$(printf '%s' "$binary" | sed -e 's/[&\\!]/\\&/g')"
    local keep=(-e "/\/\/ *$other\$/d" -e "s! *// *$version\$!!")
    install -d -m 755 "$out/contents/ui" "$out/contents/images"
    sed "${keep[@]}" -e "s!@VERSION@!$project_version!" desktop/plasma/metadata.json.in >"$out/metadata.json"
    sed "${keep[@]}" -e "s!@DBMULTIVERSE@!$escaped_binary!" desktop/plasma/contents/ui/main.qml >"$out/contents/ui/main.qml"
    for file in Card.qml CompactView.qml; do
        sed "${keep[@]}" "desktop/plasma/contents/ui/$file" >"$out/contents/ui/$file"
        chmod 644 "$out/contents/ui/$file"
    done
    install -m 644 desktop/plasma/contents/ui/placeholder.js "$out/contents/ui/"
    install -m 644 desktop/icons/com.nobadi.DBMultiverse.svg "$out/contents/images/com.nobadi.DBMultiverse.svg"
    chmod 644 "$out/metadata.json" "$out/contents/ui/main.qml"
    local lang
    for lang in $(grep -v '^\s*\(#\|$\)' po/LINGUAS); do
        install -d -m 755 "$out/contents/locale/$lang/LC_MESSAGES"
        msgfmt --check -o "$out/contents/locale/$lang/LC_MESSAGES/plasma_applet_com.nobadi.dbmultiverse.mo" "po/$lang.po"
        chmod 644 "$out/contents/locale/$lang/LC_MESSAGES/plasma_applet_com.nobadi.dbmultiverse.mo"
    done
}

case "${1:-}" in
    build) [ $# -eq 4 ] || { echo "usage: scripts/plasmoid.sh build 5|6 BINARY FOLDER" >&2; exit 2; }; build "$2" "$3" "$4" ;;
    *) echo "usage: scripts/plasmoid.sh build 5|6 BINARY FOLDER" >&2; exit 2 ;;
esac
