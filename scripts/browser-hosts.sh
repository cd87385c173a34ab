#!/bin/sh
# The browser extension's native messaging host manifests (DESIGN §12), for `make install` and
# `make uninstall`:
#   scripts/browser-hosts.sh install BINARY   writes them, naming BINARY (an absolute path)
#   scripts/browser-hosts.sh uninstall        removes them, and the folders install created
# Per-user folders: Firefox's ~/.mozilla/native-messaging-hosts/, and NativeMessagingHosts/ of
# Chromium, Google Chrome, Brave, Vivaldi and Edge under $XDG_CONFIG_HOME (default ~/.config).
# Each manifest allows only our extension (desktop/com.nobadi.dbmultiverse.{firefox,chromium}.json).
# DESTDIR, when set, is a staging root, as for the other installed files.
set -eu
cd "$(dirname "$0")/.."
action=${1:-}
binary=${2:-}
: "${HOME:?HOME must be set}"
config=${XDG_CONFIG_HOME:-$HOME/.config}
stage=${DESTDIR:-}
manifest=com.nobadi.dbmultiverse.json

chromium_family="chromium google-chrome BraveSoftware/Brave-Browser vivaldi microsoft-edge"

install_one() { # base, folder, family
    folder="$stage$1/$2"
    mkdir -p "$folder"
    sed "s|\"path\": \"[^\"]*\"|\"path\": \"$binary\"|" "desktop/com.nobadi.dbmultiverse.$3.json" > "$folder/$manifest.tmp"
    chmod 644 "$folder/$manifest.tmp"
    mv -f "$folder/$manifest.tmp" "$folder/$manifest"
    echo "  $folder/$manifest"
}

uninstall_one() { # base, folder
    rm -f "$stage$1/$2/$manifest"
    # The folders install created, innermost first, as long as they are empty.
    relative=$2
    while [ "$relative" != "." ]; do
        rmdir "$stage$1/$relative" 2>/dev/null || break
        relative=$(dirname "$relative")
    done
}

case "$action" in
    install)
        case "$binary" in
            /*) ;;
            *) echo "browser-hosts.sh: the binary must be an absolute path (got '$binary')" >&2; exit 2 ;;
        esac
        # The path goes into JSON and a sed replacement: the characters make install allows in PREFIX.
        case "$binary" in
            *[!A-Za-z0-9/._+@,=:~-]*) echo "browser-hosts.sh: use letters, digits and / . _ + @ , = : ~ - only in the binary's path (got '$binary')" >&2; exit 2 ;;
        esac
        echo "native messaging host manifests:"
        install_one "$HOME" .mozilla/native-messaging-hosts firefox
        for browser in $chromium_family; do install_one "$config" "$browser/NativeMessagingHosts" chromium; done ;;
    uninstall)
        uninstall_one "$HOME" .mozilla/native-messaging-hosts
        for browser in $chromium_family; do uninstall_one "$config" "$browser/NativeMessagingHosts"; done ;;
    *) echo "usage: $0 install BINARY | uninstall" >&2; exit 2 ;;
esac
