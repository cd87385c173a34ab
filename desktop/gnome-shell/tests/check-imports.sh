#!/usr/bin/env bash
# Holds the 45+ build (an ES-module extension, which Debian 12's gnome-shell 43 cannot load) to the
# modules and names GNOME 45 and later have, as gnome-45-modules.txt lists them: every import is a
# listed module, a gi:// namespace listed, or a module of the build itself; every name taken from
# a shell module (`import {A}` or `NS.A` after `import * as NS`) is listed for it; nothing uses
# the legacy `imports` object. Prints one line per import checked, then `N passed, N failed`.
# Usage: check-imports.sh BUILD_DIR
set -euo pipefail
build="${1:?usage: check-imports.sh BUILD_DIR}"
allowed="$(dirname "$0")/gnome-45-modules.txt"
passed=0 failed=0
ok() { echo "ok: $*"; passed=$((passed + 1)); }
bad() { echo "not ok: $*"; failed=$((failed + 1)); }
listed() { grep -v '^#' "$allowed" | grep -qxF -- "$1" || grep -v '^#' "$allowed" | grep -q -- "^$1 \(.* \)\?$2\( \|\$\)"; }

for file in "$build"/*.js; do
    name="$(basename "$file")"
    if grep -n '\bimports\.' "$file" >/dev/null; then bad "$name uses the legacy imports object"; fi
    while IFS= read -r line; do
        spec="$(sed -E "s/.* from '([^']+)';\$/\1/" <<<"$line")"
        what="$(sed -E "s/^import (.*) from .*/\1/" <<<"$line")"
        case "$spec" in
        ./*)
            [ -f "$build/${spec#./}" ] && ok "$name: $spec (the build's own)" || bad "$name: $spec is not in the build" ;;
        gi://*)
            listed "$spec" "" && ok "$name: $spec" || bad "$name: $spec is not a listed namespace" ;;
        resource:///*)
            names=()
            case "$what" in
            \{*) read -r -a names <<<"$(tr -d '{},' <<<"$what")" ;;
            "* as "*) ns="${what#\* as }"; read -r -a names <<<"$(grep -oE "\b$ns\.[A-Za-z_]+" "$file" | sed "s/^$ns\.//" | sort -u | tr '\n' ' ')" ;;
            *) bad "$name: default import from $spec"; continue ;;
            esac
            for used in "${names[@]}"; do
                listed "$spec" "$used" && ok "$name: $used from $spec" || bad "$name: $used from $spec is not listed for GNOME 45+"
            done ;;
        *) bad "$name: $spec is neither the build's, gi:// nor the shell's" ;;
        esac
    done < <(grep -E "^import " "$file")
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
