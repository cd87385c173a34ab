#!/usr/bin/env bash
# The card in a real GNOME Shell (docs/gnome-shell.md, docs/plasma.md): Debian's gnome-shell 43, headless on a virtual
# monitor with software rendering, in a private session (dbus-run-session, a private system bus,
# a temporary HOME and XDG folders exported before the bus starts), with DBMultiverse installed
# by `make install` into a temporary prefix on XDG_DATA_DIRS (as the package installs it), its
# service activated on the session bus. scripts/real-hosts/gnome-shell-check/card_check.py then reads the
# top bar and the card through AT-SPI, clicks with mutter's remote-desktop pointer, changes the
# entry with the CLI (to the reader of scripts/lib/demo-story.sh), stops and restarts the service,
# disables and enables the extension, and keeps screenshots (a test-only helper extension, never
# installed elsewhere, puts the shell in unsafe mode for org.gnome.Shell.Screenshot).
#
# The session runs as the user `nobody` when root (the shell treats root as a privileged user),
# else as the caller. Every wait is bounded; every process it starts is stopped at the end.
# Screenshots stay in SCREENSHOT_DIR (default: a new /tmp/dbm-gnome-shots.*); the session's
# folder is made in CARD_CHECK_FOLDER (default /tmp).
#
# Usage: scripts/real-hosts/gnome-shell-check.sh [PATH-TO-dbmultiverse]      the end-to-end check
#        scripts/real-hosts/gnome-shell-check.sh --french [PATH]               the card in a French session
#            (LANG=fr_FR.UTF-8 for the shell, the service and the CLI): the placeholder, a chapter
#            and the extension's own no-service placeholder read in French; card-fr.png kept
#        scripts/real-hosts/gnome-shell-check.sh --idle SECONDS [PATH]        gnome-shell's CPU time over
#            SECONDS quiet seconds without the extension, then with it (utime+stime, clock ticks)
#        scripts/real-hosts/gnome-shell-check.sh --installed                  the check against the installed
#            package (/usr/bin/dbmultiverse, the system's extension), as root in a throw-away
#            system: a release's chroot (scripts/real-hosts/release-check.sh runs it there)
# (default binary: .build/debug/dbmultiverse). Exit status: 0 passed, 1 failed, 77 skipped.
set -euo pipefail
cd "$(dirname "$0")/../.."
repository="$PWD"
uuid=dbmultiverse@nobadi.com
helper=unsafe-mode@dbmultiverse.test

skip() { echo "SKIP: $*" >&2; exit 77; }

# ---- Inside the private session bus (dbus-run-session runs this) ------------------------------
if [ "${1:-}" = "--in-bus" ]; then
    work="$2" binary="$3" shots="$4" mode="$5" seconds="$6"
    source "$repository/scripts/lib/bounded-wait.sh"
    shell_pid=""
    # The processes of this session: every peer of its session bus and of the accessibility bus
    # (the shell, the services the buses activated, the accessibility bus's daemon), by id. They
    # are ended with SIGKILL: a process started from a test runner's thread inherits its blocked
    # SIGTERM, so dbus-run-session's SIGTERM would leave the bus and its services running.
    session_pids() {
        local a11y
        busctl --address="$DBUS_SESSION_BUS_ADDRESS" list --unique --no-legend 2>/dev/null | awk '{ print $2 }'
        a11y="$(gdbus call --session --dest org.a11y.Bus --object-path /org/a11y/bus \
            --method org.a11y.Bus.GetAddress 2>/dev/null | sed -n "s/^('\(.*\)',)\$/\1/p")"
        if [ -n "$a11y" ]; then
            busctl --address="$a11y" list --unique --no-legend 2>/dev/null | awk '{ print $2 }'
            busctl --address="$a11y" status org.freedesktop.DBus 2>/dev/null | sed -n 's/^PID=//p'
        fi
    }
    cleanup() {
        local status=$? pids
        busctl --address="$DBUS_SESSION_BUS_ADDRESS" status org.freedesktop.DBus 2>/dev/null \
            | sed -n 's/^PID=//p' >"$work/session-bus.pid"
        pids="$(session_pids | grep -E '^[0-9]+$' | grep -vx "$$" | sort -u | tr '\n' ' ')"
        # gnome-shell may crash on its way out (seen with 43): its exit status is not ours.
        # shellcheck disable=SC2086
        [ -n "$pids" ] && kill -KILL $pids 2>/dev/null
        if [ -n "$shell_pid" ]; then kill -KILL "$shell_pid" 2>/dev/null; wait "$shell_pid" 2>/dev/null || true; fi
        exit "$status"
    }
    trap cleanup EXIT INT TERM

    # What the shell reads at start: no animations (the screenshots catch no half-open menu), no
    # banners over the card, no welcome tour, the plain background (Debian 13's wallpaper would be
    # behind the card in the screenshots, which are cropped on a plain one).
    gsettings set org.gnome.desktop.interface enable-animations false
    gsettings set org.gnome.desktop.background picture-uri ''
    gsettings set org.gnome.desktop.background picture-uri-dark ''
    gsettings set org.gnome.desktop.background primary-color '#023c88'
    gsettings set org.gnome.desktop.notifications show-banners false
    gsettings set org.gnome.shell welcome-dialog-last-shown-version 9999

    # The looks (--looks, gnome-shell-check/looks.py): the shell starts at scale 2, on a monitor that
    # offers scales 1 and 2 (as a HiDPI laptop's does: mutter offers 2 from 1600×960 on).
    monitor=1280x800 check_script=card_check.py
    if [ "$mode" = looks ]; then
        gsettings set org.gnome.desktop.interface scaling-factor 2
        monitor=2560x1600 check_script=looks.py
    fi
    gnome-shell --headless --virtual-monitor "$monitor" --wayland --no-x11 >"$work/shell.log" 2>&1 &
    shell_pid=$!
    wait_for 300 grep -q "GNOME Shell started" "$work/shell.log" || { tail -30 "$work/shell.log" >&2; exit 1; }
    wait_for 100 gnome-extensions info "$uuid" || { echo "the shell does not list $uuid" >&2; exit 1; }
    gnome-extensions enable "$helper"

    if [ "$mode" = idle ]; then
        # utime + stime of the shell, in clock ticks, over $seconds quiet seconds.
        cpu() { awk '{ print $14 + $15 }' "/proc/$shell_pid/stat"; }
        measure() {
            local start
            start="$(cpu)"
            sleep "$seconds" # the quiet time measured, not a wait for something
            echo $(( $(cpu) - start ))
        }
        ticks="$(getconf CLK_TCK)"
        # The first minute after start is not quiet (the shell settles): one run before measuring.
        measure >/dev/null
        without="$(measure)"
        gnome-extensions enable "$uuid"
        wait_for 100 sh -c "gnome-extensions info $uuid | grep -q 'State: ENABLED'"
        dbmultiverse_entry="$("$binary" entry --family small)"
        measure >/dev/null
        with="$(measure)"
        echo "gnome-shell CPU time over ${seconds} quiet seconds (${ticks} ticks/s): without the extension ${without} ticks, with it ${with} ticks (top bar: $dbmultiverse_entry)" >"$work/check.log"
        exit 0
    fi

    gnome-extensions enable "$uuid"
    source "$repository/scripts/lib/demo-story.sh"
    CARD_CHECK_MODE="$mode" CARD_CHECK_WORK="$work" CARD_CHECK_BROWSER_LOG="$work/browser.log" DEMO_CHAPTER="$DEMO_CHAPTER" DEMO_NAME="$DEMO_NAME" \
        DEMO_PROGRESS="$DEMO_PROGRESS" DEMO_PAGE="$DEMO_PAGE" DEMO_LATEST_PAGE="$DEMO_LATEST_PAGE" \
        DEMO_LONG_NAME="$DEMO_LONG_NAME" DEMO_ARABIC_NAME="$DEMO_ARABIC_NAME" \
        /usr/bin/python3 "$repository/scripts/real-hosts/gnome-shell-check/$check_script" "$binary" "$work/shell.log" "$shots" \
        >"$work/check.log" 2>&1
    exit 0
fi

# ---- The session, as the unprivileged user: its folders, its system bus, its session bus ------
if [ "${1:-}" = "--session" ]; then
    work="$2" binary="$3" shots="$4" mode="$5" seconds="$6"
    export HOME="$work/home" XDG_RUNTIME_DIR="$work/runtime" XDG_CONFIG_HOME="$work/home/.config"
    export XDG_DATA_HOME="$work/home/.local/share" XDG_CACHE_HOME="$work/home/.cache"
    export XDG_DATA_DIRS="$work/prefix/share:/usr/local/share:/usr/share" PATH="$work/prefix/bin:/usr/bin:/bin"
    # The service inherits these from the bus that activates it. The browser is a recorder.
    export DBMULTIVERSE_DATA_DIR="$work/data" DBMULTIVERSE_BROWSER="$work/browser" DBMULTIVERSE_LOG_LEVEL=debug
    if [ "$mode" = french ]; then
        # LANG alone names the language; the CLI (the build's binary) reads the prefix's catalogues.
        export LANG=fr_FR.UTF-8 DBMULTIVERSE_LOCALE_DIR="$work/prefix/share/locale"
        unset LANGUAGE LC_ALL LC_MESSAGES
    fi
    # A private system bus: the shell exits without one, and this machine may have none.
    source "$repository/scripts/lib/private-bus.sh"
    mkdir -p "$work/system-bus"
    start_private_bus "$work/system-bus"
    export DBUS_SYSTEM_BUS_ADDRESS="$BUS_ADDRESS"
    status=0
    # The session's output goes to files: what it starts inherits them, and may outlive it.
    dbus-run-session -- "$repository/scripts/real-hosts/gnome-shell-check.sh" --in-bus "$work" "$binary" "$shots" "$mode" "$seconds" \
        >"$work/session.log" 2>&1 || status=$?
    [ -s "$work/session-bus.pid" ] && kill -KILL "$(cat "$work/session-bus.pid")" 2>/dev/null
    kill -KILL "$BUS_PID" 2>/dev/null || true
    exit "$status"
fi

# ---- Set-up, as whoever runs the script -----------------------------------------------------
mode=check seconds=0 installed=""
while [ $# -gt 0 ]; do
    case "$1" in
        --idle) mode=idle seconds="${2:?--idle SECONDS}"; shift 2 ;;
        --installed) installed=/usr; shift ;;
        --french) mode=french; shift ;;
        --looks) mode=looks; shift ;;
        *) break ;;
    esac
done
[ -z "$installed" ] || set -- /usr/bin/dbmultiverse
binary="$(realpath "${1:-.build/debug/dbmultiverse}")"
[ -x "$binary" ] || { echo "no dbmultiverse binary at $binary (swift build first)" >&2; exit 2; }
for tool in gnome-shell gnome-extensions gsettings dbus-run-session dbus-daemon gjs convert; do
    command -v "$tool" >/dev/null || skip "$tool is not installed (apt-get install gnome-shell gjs dbus-daemon imagemagick)"
done
/usr/bin/python3 -c 'import pyatspi' 2>/dev/null || skip "python3-pyatspi is not installed"
if [ "$mode" = french ]; then
    locale -a | grep -qix 'fr_FR.utf8' || skip "the fr_FR.UTF-8 locale is not generated (scripts/test/install-deps.sh makes it)"
fi

source scripts/lib/desktop-session.sh
session_start --user "the shell treats root as a privileged user" "${CARD_CHECK_FOLDER:-/tmp}" dbm-gnome session shell
# Installed as `make install` does it, into a prefix the session puts on XDG_DATA_DIRS (as the
# package's /usr): a system extension, which the shell never asks extensions.gnome.org about. Or
# the package's, installed in this throw-away system.
if [ -n "$installed" ]; then
    extensions=/usr/share/gnome-shell/extensions
    [ -f "$extensions/$uuid/metadata.json" ] || { echo "the package installed no extension in $extensions" >&2; exit 1; }
else
    install_into_prefix "$binary"
    extensions="$work/prefix/share/gnome-shell/extensions"
    [ -f "$extensions/$uuid/metadata.json" ] || { echo "make install put no extension in the prefix" >&2; exit 1; }
fi
shell_version="$(gnome-shell --version | sed -n 's/^GNOME Shell \([0-9]*\).*/\1/p')"
echo "$(gnome-shell --version); the extension's shell-version: $(/usr/bin/python3 -c 'import json, sys; print(" ".join(json.load(open(sys.argv[1]))["shell-version"]))' "$extensions/$uuid/metadata.json")"
# The test helper in the form this shell loads: a script up to 44, a module from 45 on.
if [ "${shell_version:-0}" -ge 45 ]; then
    mkdir -p "$extensions/$helper"
    cp scripts/real-hosts/gnome-shell-check/unsafe-mode-45/* "$extensions/$helper/"
else
    cp -r "scripts/real-hosts/gnome-shell-check/$helper" "$extensions/"
fi

# The browser: a recorder of what the service starts (the URL and the activation token it passes).
cat >"$work/browser" <<SCRIPT
#!/bin/sh
echo "url=\$1 token=\${XDG_ACTIVATION_TOKEN:-} startup-id=\${DESKTOP_STARTUP_ID:-}" >>"$work/browser.log"
SCRIPT
chmod 755 "$work/browser"

# The reader's cover and the chapter list a sync will store (card_check.py moves it in).
source scripts/lib/demo-story.sh
demo_cover "$work/cover.png"
demo_catalogue "$work/chapters-en.json"

status=0
session_as_user "$repository/scripts/real-hosts/gnome-shell-check.sh" --session "$work" "$binary" "$shots" "$mode" "$seconds" || status=$?
if [ -f "$work/check.log" ]; then cat "$work/check.log"; fi
exit "$status"
