#!/usr/bin/env bash
# Packs the GNOME Shell extension with `gnome-extensions pack`, once per build (desktop/gnome-shell/
# build.sh): OUT/dbmultiverse@nobadi.com.gnome-43.shell-extension.zip (GNOME 43–44) and
# OUT/dbmultiverse@nobadi.com.gnome-45.shell-extension.zip (GNOME 45 and later), each what a user
# installs with `gnome-extensions install FILE` and what extensions.gnome.org takes as an upload.
# Usage: scripts/build/gnome-extension-pack.sh OUT
set -euo pipefail
cd "$(dirname "$0")/../.."
out="$(mkdir -p "${1:?usage: gnome-extension-pack.sh OUT}" && cd "$1" && pwd)"
command -v gnome-extensions >/dev/null || { echo "gnome-extensions is not installed (apt-get install gnome-shell)" >&2; exit 1; }
uuid=dbmultiverse@nobadi.com
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
for build in 43 45; do
    desktop/gnome-shell/build.sh "$build" "$work/$build"
    # pack takes extension.js, metadata.json and stylesheet.css by itself; the rest is named, and
    # --podir compiles po/'s catalogues into locale/ (the metadata's gettext-domain), as build.sh does.
    extra=()
    for file in "$work/$build"/*.js "$work/$build"/icons; do
        case "$(basename "$file")" in extension.js) ;; *) extra+=("--extra-source=$file") ;; esac
    done
    mkdir -p "$work/zip-$build"
    gnome-extensions pack --force --out-dir="$work/zip-$build" --podir="$PWD/po" "${extra[@]}" "$work/$build"
    mv "$work/zip-$build/$uuid.shell-extension.zip" "$out/$uuid.gnome-$build.shell-extension.zip"
    echo "$out/$uuid.gnome-$build.shell-extension.zip"
done
