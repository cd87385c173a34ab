#!/usr/bin/env bash
# Builds the GNOME Shell extension from its one source (src/, written as ES modules):
#   build.sh 45 DIR   GNOME 45 and later: src/ as it is;
#   build.sh 43 DIR   GNOME 43–44: each module turned into an `imports` module (the import lines
#                     rewritten, `export` dropped) and src/legacy/extension.js as the entry point;
# DIR gets metadata.json (shell-version: what that build is tested on; version-name: the project's
# version, scripts/build/project-version.sh), the modules,
# stylesheet.css, the icon and locale/<ll>/LC_MESSAGES/dbmultiverse.mo for each language of
# po/LINGUAS (what `gnome-extensions pack --podir` would put there; the metadata's gettext-domain).
# widgetClient.js gets the service's interface in place of its '@WIDGET_XML@': the <node> of
# dbus/com.nobadi.DBMultiverse.Widget1.xml (written from the Swift declaration by `make interface`),
# so the extension holds no copy of it written by hand and still stands on its own.
# Only the import forms below are rewritten; any other import or export stops the build rather
# than make a module that 43 cannot load. Which build a desktop gets is desktop/select-cards's
# choice, made where the cards are installed.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"

versions_43='["43", "44"]'
versions_45='["45", "46", "47", "48", "49", "50", "51"]'

case "${1:-}" in
43|45) style="$1" ;;
*) echo "usage: build.sh 43|45 DIR" >&2; exit 2 ;;
esac
out="${2:?usage: build.sh 43|45 DIR}"

# to_imports MODULE: an ES module of src/ as a GNOME 43 `imports` module. Top-level `var` and
# function declarations are what such a module exports.
to_imports() {
    local converted
    converted="$(sed -E \
        -e "s#^import ([A-Za-z]+) from 'gi://([A-Za-z]+)';\$#const \1 = imports.gi.\2;#" \
        -e "s#^import (\* as )?([A-Za-z]+|\{[A-Za-z, ]+\}) from 'resource:///org/gnome/shell/(ui|misc)/([A-Za-z]+)\.js';\$#const \2 = imports.\3.\4;#" \
        -e "s#^import (\* as )?([A-Za-z]+|\{[A-Za-z, ]+\}) from '\./([A-Za-z]+)\.js';\$#const \2 = imports.misc.extensionUtils.getCurrentExtension().imports.\3;#" \
        -e 's#^export function #function #' \
        -e 's#^export const #var #' \
        -e 's#^export class ([A-Za-z]+) #var \1 = class \1 #' \
        "$1")"
    if grep -nE '^(import|export)[ {*]|\bimport\(' <<<"$converted" >&2; then
        echo "build.sh: $1 has an import or export that 43 cannot load (above)" >&2
        return 1
    fi
    printf '%s\n' "$converted"
}

rm -rf "$out"
mkdir -p "$out/icons"
for module in "$here"/src/*.js; do
    name="$(basename "$module")"
    if [ "$style" = 45 ]; then
        cp "$module" "$out/$name"
    elif [ "$name" = extension.js ]; then
        cp "$here/src/legacy/extension.js" "$out/extension.js"
    else
        to_imports "$module" >"$out/$name"
    fi
done
# The interface as a JavaScript template literal (\, ` and $ escaped), in place of the placeholder.
interface_file="$here/../../dbus/com.nobadi.DBMultiverse.Widget1.xml"
placeholder="const WIDGET_XML = '@WIDGET_XML@';"
grep -qxF "$placeholder" "$out/widgetClient.js" || { echo "build.sh: widgetClient.js has no line $placeholder" >&2; exit 1; }
grep -qx '<node>' "$interface_file" || { echo "build.sh: $interface_file has no <node> line" >&2; exit 1; }
{
    printf 'const WIDGET_XML = `'
    sed -n '/^<node>$/,/^<\/node>$/p' "$interface_file" | sed -e 's/[\\`$]/\\&/g' -e '$s/$/`;/'
} | sed -i -e "/^$placeholder\$/{r /dev/stdin" -e 'd}' "$out/widgetClient.js"
versions="versions_$style"
project_version="$("$here/../../scripts/build/project-version.sh")"
sed -e "s/@SHELL_VERSIONS@/${!versions}/" -e "s/@VERSION@/$project_version/" "$here/metadata.json.in" >"$out/metadata.json"
cp "$here/stylesheet.css" "$out/"
cp "$here/../icons/com.nobadi.DBMultiverse.svg" "$out/icons/"
po="$here/../../po"
for lang in $(grep -v '^\s*\(#\|$\)' "$po/LINGUAS"); do
    mkdir -p "$out/locale/$lang/LC_MESSAGES"
    msgfmt --check -o "$out/locale/$lang/LC_MESSAGES/dbmultiverse.mo" "$po/$lang.po"
done
chmod -R u=rwX,go=rX "$out"
