#!/bin/sh
# The browser extension's native messaging host manifests (docs/browser-extension.md), for `make install` and
# `make uninstall`:
#   scripts/build/browser-hosts.sh install BINARY                 writes them, naming BINARY (an absolute path)
#   scripts/build/browser-hosts.sh uninstall                      removes them, and the folders install created
#   scripts/build/browser-hosts.sh install-system BINARY DATADIR  the same in the system-wide folders
#   scripts/build/browser-hosts.sh uninstall-system DATADIR       (BROWSER_HOSTS=system: a package, or root)
# Per-user folders: Firefox's ~/.mozilla/native-messaging-hosts/, and NativeMessagingHosts/ of
# Chromium, Google Chrome, Brave, Vivaldi and Edge under $XDG_CONFIG_HOME (default ~/.config).
# System-wide: Firefox's manifest in /usr/lib/mozilla/native-messaging-hosts/; the Chromium family's
# in DATADIR/dbmultiverse/native-messaging-hosts/, with a symbolic link to it in each browser's
# folder under /etc (a link is no conffile, so removing the package removes it; see debian/rules).
# Each manifest allows only our extension (desktop/com.nobadi.dbmultiverse.{firefox,chromium}.json).
# DESTDIR, when set, is a staging root, as for the other installed files.
set -eu
cd "$(dirname "$0")/../.."
action=${1:-}
stage=${DESTDIR:-}
manifest=com.nobadi.dbmultiverse.json

chromium_family="chromium google-chrome BraveSoftware/Brave-Browser vivaldi microsoft-edge"

# The system-wide folders, as "base folder" pairs: uninstall removes the folders below each base
# that install created, never the base (/etc/opt exists without any package owning it).
#  - Firefox: /usr/lib/mozilla/native-messaging-hosts (MDN, "Native manifests", Linux, global).
#  - Chromium: /etc/chromium/native-messaging-hosts, and Google Chrome:
#    /etc/opt/chrome/native-messaging-hosts (developer.chrome.com, "Native messaging", host
#    location; chrome/common/chrome_paths.cc picks one by branding).
#  - Brave reads Chrome's folder: brave-core's app/brave_main_delegate.cc points
#    DIR_NATIVE_MESSAGING at /etc/opt/chrome/native-messaging-hosts on Linux.
#  - Edge: /etc/opt/edge/native-messaging-hosts (learn.microsoft.com, Microsoft Edge, "Native
#    messaging", Linux).
#  - Vivaldi documents none; /etc/opt/vivaldi/native-messaging-hosts follows Chrome's and Edge's
#    /etc/opt/<browser> pattern and is where other hosts install for it (browserpass-native).
system_chromium_folders="/etc chromium/native-messaging-hosts
/etc/opt chrome/native-messaging-hosts
/etc/opt vivaldi/native-messaging-hosts
/etc/opt edge/native-messaging-hosts"

check_binary() {
    case "$binary" in
        /*) ;;
        *) echo "browser-hosts.sh: the binary must be an absolute path (got '$binary')" >&2; exit 2 ;;
    esac
    # The path goes into JSON and a sed replacement: the characters make install allows in PREFIX.
    case "$binary" in
        *[!A-Za-z0-9/._+@,=:~-]*) echo "browser-hosts.sh: use letters, digits and / . _ + @ , = : ~ - only in the binary's path (got '$binary')" >&2; exit 2 ;;
    esac
}

install_one() { # base, folder, family
    folder="$stage$1/$2"
    mkdir -p "$folder"
    sed "s|\"path\": \"[^\"]*\"|\"path\": \"$binary\"|" "desktop/com.nobadi.dbmultiverse.$3.json" > "$folder/$manifest.tmp"
    chmod 644 "$folder/$manifest.tmp"
    mv -f "$folder/$manifest.tmp" "$folder/$manifest"
    echo "  $folder/$manifest"
}

link_one() { # base, folder, target (without DESTDIR)
    folder="$stage$1/$2"
    mkdir -p "$folder"
    ln -sfn "$3" "$folder/$manifest"
    echo "  $folder/$manifest -> $3"
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
        binary=${2:-}
        check_binary
        : "${HOME:?HOME must be set}"
        config=${XDG_CONFIG_HOME:-$HOME/.config}
        echo "native messaging host manifests:"
        install_one "$HOME" .mozilla/native-messaging-hosts firefox
        for browser in $chromium_family; do install_one "$config" "$browser/NativeMessagingHosts" chromium; done ;;
    uninstall)
        : "${HOME:?HOME must be set}"
        config=${XDG_CONFIG_HOME:-$HOME/.config}
        uninstall_one "$HOME" .mozilla/native-messaging-hosts
        for browser in $chromium_family; do uninstall_one "$config" "$browser/NativeMessagingHosts"; done ;;
    install-system)
        binary=${2:-}
        datadir=${3:?usage: $0 install-system BINARY DATADIR}
        check_binary
        echo "native messaging host manifests (system-wide):"
        install_one /usr/lib mozilla/native-messaging-hosts firefox
        install_one "$datadir" dbmultiverse/native-messaging-hosts chromium
        echo "$system_chromium_folders" | while read -r base folder; do
            link_one "$base" "$folder" "$datadir/dbmultiverse/native-messaging-hosts/$manifest"
        done ;;
    uninstall-system)
        datadir=${2:?usage: $0 uninstall-system DATADIR}
        uninstall_one /usr/lib mozilla/native-messaging-hosts
        echo "$system_chromium_folders" | while read -r base folder; do uninstall_one "$base" "$folder"; done
        uninstall_one "$datadir" dbmultiverse/native-messaging-hosts ;;
    *) echo "usage: $0 install BINARY | uninstall | install-system BINARY DATADIR | uninstall-system DATADIR" >&2; exit 2 ;;
esac
