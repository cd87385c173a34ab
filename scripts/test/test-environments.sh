#!/usr/bin/env bash
# Runs the built test suite once per environment a user or CI may give it, and says which fail.
# A test must never fail because of its environment: each scenario changes one thing (or two)
# the tests could wrongly depend on. Needs `swift build --build-tests` first (`make
# test-environments` does both). The scenarios marked (root) change users or mounts, inside a
# private mount namespace (unshare -m): they are skipped, and said so, when not run as root.
#
#   scripts/test/test-environments.sh [SCENARIO...]     (default: all; names as printed)
set -uo pipefail
cd "$(dirname "$0")/../.."
bundle="$(swift build --show-bin-path)/DBMultiverseDesktopPackageTests.xctest"
[ -x "$bundle" ] || { echo "no test bundle at $bundle: run swift build --build-tests" >&2; exit 2; }
logs=$(mktemp -d)
scratch=()
cleanup() { rm -rf "$logs" "${scratch[@]}"; }
trap cleanup EXIT
failed=()

# A fresh folder, removed at exit.
folder() { local path; path=$(mktemp -d); scratch+=("$path"); echo "$path"; }

# run NAME COMMAND...: runs the bundle under COMMAND (a prefix that sets up the environment).
run() {
    local name=$1; shift
    "$@" "$bundle" --testing-library swift-testing > "$logs/$name.log" 2>&1
    local status=$?
    local summary
    summary=$(sed 's/\x1b\[[0-9;]*m//g' "$logs/$name.log" | grep -a "Test run with" | tail -1)
    printf '%-16s exit %-3d %s\n' "$name" "$status" "${summary:-(no summary: crashed?)}"
    sed 's/\x1b\[[0-9;]*m//g' "$logs/$name.log" | grep -a -E "recorded an issue|skipped at" | cut -c1-220 | sed 's/^/    /'
    [ "$status" -eq 0 ] || failed+=("$name")
}

root_only() {
    if [ "$(id -u)" -ne 0 ]; then
        printf '%-16s skipped: needs root\n' "$1"
        return 1
    fi
}

selection="$*"
want() { [ -z "$selection" ] || [[ " $selection " == *" $1 "* ]]; }

want as-is && run as-is env
if want private-tmpdir; then
    tmp=$(folder); chmod 700 "$tmp"
    run private-tmpdir env TMPDIR="$tmp"
fi
if want long-tmpdir; then
    tmp=$(folder)/$(printf 'deep%.0s' {1..12})/$(printf 'er%.0s' {1..20})
    mkdir -p "$tmp"
    run long-tmpdir env TMPDIR="$tmp" # sockets under it would pass the 107 bytes a socket path may have
fi
want umask-077 && run umask-077 sh -c 'umask 077 && exec "$@"' sh
if want private-both; then
    tmp=$(folder); chmod 700 "$tmp"
    run private-both sh -c 'umask 077 && exec "$@"' sh env TMPDIR="$tmp"
fi
want bus-variables && run bus-variables env DBUS_SESSION_BUS_ADDRESS=unix:path=/nonexistent/session \
    DBUS_STARTER_ADDRESS=unix:path=/nonexistent/starter DBUS_STARTER_BUS_TYPE=session \
    DBUS_SYSTEM_BUS_ADDRESS=unix:path=/nonexistent/system
want no-bus-variables && run no-bus-variables env -u DBUS_SESSION_BUS_ADDRESS -u DBUS_STARTER_ADDRESS -u DBUS_STARTER_BUS_TYPE
want app-variables && run app-variables env DBMULTIVERSE_DATA_DIR=/nonexistent/data DBMULTIVERSE_BROWSER=/bin/false \
    DBMULTIVERSE_LOG_LEVEL=critical DBMULTIVERSE_SITE_URL=http://127.0.0.1:9
want missing-home && run missing-home env HOME=/nonexistent/home
want unset-home && run unset-home env -u HOME
want xdg-variables && run xdg-variables env XDG_DATA_HOME=/nonexistent/data XDG_CONFIG_HOME=/nonexistent/config \
    XDG_RUNTIME_DIR=/nonexistent/run XDG_CACHE_HOME=/nonexistent/cache XDG_DATA_DIRS=/nonexistent/dirs \
    XDG_CONFIG_DIRS=/nonexistent/config-dirs XDG_CURRENT_DESKTOP=KDE XDG_SESSION_TYPE=wayland WAYLAND_DISPLAY=wayland-9 DISPLAY=:9
want posix-locale && run posix-locale env -u LANG -u LC_CTYPE LC_ALL=POSIX COLUMNS=40
if want read-only-home && root_only read-only-home; then
    home=$(folder); mkdir -p "$home/.config/dbmultiverse" "$home/.local/share"
    printf 'browser = /bin/false\n' > "$home/.config/dbmultiverse/config"
    run read-only-home unshare -m sh -c 'mount --bind "$0" "$0" && mount -o remount,bind,ro "$0" &&
        exec env HOME="$0" XDG_CONFIG_HOME="$0/.config" XDG_DATA_HOME="$0/.local/share" "$@"' "$home"
fi
if want not-root && root_only not-root; then
    tmp=$(folder); chown nobody "$tmp"; chmod 700 "$tmp"
    group=$(id -gn nobody)
    run not-root env -i PATH="$PATH" LANG=C.UTF-8 HOME=/nonexistent TMPDIR="$tmp" \
        setpriv --reuid=nobody --regid="$group" --clear-groups
fi
if want no-nobody-user && root_only no-nobody-user; then
    etc=$(folder)
    grep -v '^nobody:' /etc/passwd > "$etc/passwd"
    grep -v -E '^(nobody|nogroup):' /etc/group > "$etc/group"
    sed -E 's/^(passwd|group|shadow):.*/\1: files/' /etc/nsswitch.conf > "$etc/nsswitch.conf" # no synthesised nobody
    chmod 644 "$etc"/*
    run no-nobody-user unshare -m sh -c 'for file in passwd group nsswitch.conf; do mount --bind "$0/$file" "/etc/$file" || exit 1; done &&
        exec "$@"' "$etc"
fi
if want noexec-tmp && root_only noexec-tmp; then
    run noexec-tmp unshare -m sh -c 'mount -t tmpfs -o noexec,mode=1777 tmpfs /tmp && tmp=$(mktemp -d) && chmod 700 "$tmp" &&
        exec env TMPDIR="$tmp" "$@"' sh
fi

if [ ${#failed[@]} -gt 0 ]; then
    echo "failed: ${failed[*]}"
    exit 1
fi
echo "every scenario passed"
