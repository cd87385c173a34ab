#!/usr/bin/env bash
# The tray item in a real host: Waybar's tray (Debian's waybar, which owns
# org.kde.StatusNotifierWatcher itself) on headless sway, with DBMultiverse installed into a
# temporary prefix (`make install`), its service activated on a private session bus and its
# notifier serving the item, for the reader of scripts/lib/demo-story.sh. Beside the tray, the bar
# has the README's custom module (`dbmultiverse watch --format waybar`). Checks that Waybar's watcher
# lists the item, that the module shows the entry (read through AT-SPI, as a screen reader reads
# Waybar), takes a grim screenshot of the bar, right-clicks the icon (sway's seat cursor) and
# screenshots the menu, clicks "Continue reading" and the icon itself, and sees the service open the
# chapter (OpenRequested; the browser is `none`); then restarts Waybar and sees the item register
# with its new watcher.
#
# sway refuses to run as root: as root, the session (bus, sway, Waybar, service, notifier) runs as
# the user `nobody` in a temporary runtime directory made for it; as another user, as that user.
#
# Not part of `make test` by itself (TrayHostTests runs it). Every wait is bounded; every process it
# starts is killed at the end. Screenshots stay in SCREENSHOT_DIR (default: a new /tmp/dbm-tray-shots.*).
# The session's folder is made in TRAY_CHECK_FOLDER (default /tmp).
# Usage: scripts/real-hosts/tray-host-check.sh [PATH-TO-dbmultiverse]   (default: .build/debug/dbmultiverse)
# Exit status: 0 every check passed, 1 one failed, 77 skipped (the reason is printed).
set -euo pipefail
cd "$(dirname "$0")/../.."
repository="$PWD"

skip() { echo "SKIP: $*" >&2; exit 77; }

# ---- The session, as the unprivileged user (the script runs itself again for it) -------------
if [ "${1:-}" = "--session" ]; then
    work="$2" binary="$3" shots="$4"
    export HOME="$work/home" XDG_RUNTIME_DIR="$work/runtime" XDG_CONFIG_HOME="$work/home/.config"
    export XDG_DATA_DIRS="/usr/local/share:/usr/share" PATH="/usr/local/bin:/usr/bin:/bin"
    export DBMULTIVERSE_DATA_DIR="$work/data" DBMULTIVERSE_BROWSER=none DBMULTIVERSE_LOG_LEVEL=debug
    pids=()
    source "$repository/scripts/lib/desktop-session.sh"
    # The notifier first, with SIGTERM: it reads SIGTERM from a signalfd, blocked or not, and stops
    # cleanly. Then session_stop (SIGKILL: a process started from a test runner's thread inherits
    # that thread's signal mask, with SIGTERM blocked): $pids, what the bus started (the service,
    # the accessibility bus), the bus. The set-up's session_end removes the folder.
    cleanup() {
        local status=$?
        if [ -n "${notifier_pid:-}" ]; then kill -TERM "$notifier_pid" 2>/dev/null; wait "$notifier_pid" 2>/dev/null || true; fi
        session_stop
        exit "$status"
    }
    trap cleanup EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM

    source "$repository/scripts/lib/bounded-wait.sh"
    source "$repository/scripts/lib/demo-story.sh"
    fail() { echo "FAIL: $*" >&2; exit 1; }
    # lines PATTERN FILE COUNT: FILE has at least COUNT lines matching PATTERN (counted at each try).
    lines() { [ "$(grep -c -- "$1" "$2")" -ge "$3" ]; }

    # A private session bus that activates the installed service and the accessibility bus.
    source "$repository/scripts/lib/private-bus.sh"
    mkdir -p "$work/bus"
    start_private_bus "$work/bus" "$work/services"
    export DBUS_SESSION_BUS_ADDRESS="$BUS_ADDRESS"
    echo "session bus: $DBUS_SESSION_BUS_ADDRESS (user $(id -un))"

    # Everything the bus carries about the item, the menu and the widget, for the checks below.
    dbus-monitor --session "interface='com.canonical.dbusmenu'" "interface='org.kde.StatusNotifierItem'" \
        "member='OpenRequested'" "member='GetAll'" >"$work/monitor.log" 2>&1 &
    pids+=($!)
    wait_for 50 grep -q NameAcquired "$work/monitor.log"

    # The reader is in chapter 42 (35 %), with 3 new pages in the stored chapter list: the item is
    # Active, so Waybar shows it.
    mv "$work/chapters-en.json" "$DBMULTIVERSE_DATA_DIR/chapters-en.json"
    "$work/prefix/bin/dbmultiverse" update --chapter "$DEMO_CHAPTER" --name "$DEMO_NAME" --progress "$DEMO_PROGRESS" \
        --cover "$work/cover.png" --page "$DEMO_PAGE" || fail "dbmultiverse update"
    small="$("$work/prefix/bin/dbmultiverse" entry --family small)"

    # sway, headless, on software rendering; its config starts Waybar with a bar of clock, the
    # README's custom module (its "Status bars" section) and the tray.
    cat >"$work/waybar.json" <<JSON
{ "layer": "top", "position": "top", "height": 30, "modules-left": ["clock"],
  "modules-right": ["custom/dbmultiverse", "tray"],
  "custom/dbmultiverse": { "exec": "$work/prefix/bin/dbmultiverse watch --family small --format waybar",
                           "return-type": "json", "format": "📖 {}" },
  "tray": { "icon-size": 21, "spacing": 10 } }
JSON
    cat >"$work/waybar.css" <<'CSS'
* { font-family: sans-serif; font-size: 14px; }
window#waybar { background: #223; color: #eee; }
#custom-dbmultiverse { padding: 0 12px; }
#custom-dbmultiverse.new-pages { color: #ffd76a; }
#tray { padding: 0 6px; }
CSS
    cat >"$work/sway.conf" <<CONF
output HEADLESS-1 resolution 1024x300
exec waybar -c $work/waybar.json -s $work/waybar.css >$work/waybar.log 2>&1
CONF
    WLR_BACKENDS=headless WLR_LIBINPUT_NO_DEVICES=1 WLR_RENDERER=pixman sway -c "$work/sway.conf" >"$work/sway.log" 2>&1 &
    sway_pid=$!
    pids+=("$sway_pid")
    wait_for 150 test -S "$XDG_RUNTIME_DIR/wayland-1" || { cat "$work/sway.log" >&2; exit 1; }
    export WAYLAND_DISPLAY=wayland-1 SWAYSOCK
    SWAYSOCK="$(ls "$XDG_RUNTIME_DIR"/sway-ipc.*.sock 2>/dev/null | head -1)"
    # A pointer on the seat, so that Waybar gets pointer events and sway's cursor commands click.
    "$work/virtual-pointer" >"$work/virtual-pointer.log" 2>&1 &
    pids+=($!)
    wait_for 100 grep -q ready "$work/virtual-pointer.log" || { cat "$work/virtual-pointer.log" >&2; exit 1; }
    gdbus wait --session --timeout 15 org.kde.StatusNotifierWatcher || fail "Waybar's watcher did not appear"
    echo "watcher: $(busctl --user status org.kde.StatusNotifierWatcher 2>/dev/null | grep -m1 '^Comm=' || true)"

    # The notifier, from the installed binary (so IconThemePath names the installed icon).
    "$work/prefix/bin/dbmultiverse" notifier >"$work/notifier.log" 2>&1 &
    notifier_pid=$!
    wait_for 100 grep -q "registered with the tray host" "$work/notifier.log" || { cat "$work/notifier.log" >&2; exit 1; }
    item="$(sed -n 's/.*tray item \([^ ]*\) registered.*/\1/p' "$work/notifier.log" | head -1)"
    registered="$(busctl --user get-property org.kde.StatusNotifierWatcher /StatusNotifierWatcher \
        org.kde.StatusNotifierWatcher RegisteredStatusNotifierItems)"
    echo "RegisteredStatusNotifierItems: $registered"
    case "$registered" in *"$item/StatusNotifierItem"*) ;; *) fail "Waybar's watcher does not list $item" ;; esac
    echo "item: $(busctl --user get-property "$item" /StatusNotifierItem org.kde.StatusNotifierItem Status IconName IconThemePath | tr '\n' ' ')"

    # The custom module shows the small rendering, as AT-SPI reads Waybar's label (Waybar, a GTK
    # program, asked for the accessibility bus at its start, which the session bus activated; each
    # question is an AT-SPI process of its own).
    module="label: 📖 $small"
    shows() { local seen; seen="$(/usr/bin/python3 "$repository/scripts/real-hosts/plasma-card/atspi.py" dump waybar 2>/dev/null)" && grep -qxF -- "$1" <<<"$seen"; }
    wait_for 100 shows "$module" || { /usr/bin/python3 "$repository/scripts/real-hosts/plasma-card/atspi.py" dump waybar >&2 || true; fail "Waybar's module does not read '$module'"; }
    echo "Waybar's module: $module"

    # Waybar reads the item (GetAll), then draws it on its next frame.
    wait_for 100 grep -q "member=GetAll" "$work/monitor.log" || fail "Waybar never read the item"
    sleep 1 # the frame after the read: nothing on the bus says it was drawn
    grim "$shots/bar.png"
    echo "screenshot of the bar: $shots/bar.png"

    # A click as a user makes it: the seat cursor onto the spot, a motion there, press, release.
    click() { # x y button
        swaymsg -q -- seat seat0 cursor set "$1" "$2"
        swaymsg -q -- seat seat0 cursor move 1 0
        swaymsg -q -- seat seat0 cursor press "$3"
        swaymsg -q -- seat seat0 cursor release "$3"
    }

    # The icon is the tray's last one, at the right end of the bar. A right click opens the menu
    # (libdbusmenu asks AboutToShowGroup first); it stays open after the release.
    icon_x=1012 icon_y=14
    click "$icon_x" "$icon_y" button3
    wait_for 100 grep -q "menu about to show" "$work/notifier.log" || fail "the menu did not open (no AboutToShow)"
    grep -q "member=GetLayout" "$work/monitor.log" || fail "Waybar never read the menu's layout"
    # The cursor away from the icon and the menu, to the top of the bar, so that the picture shows
    # neither covered (a motion does not close the menu; hiding the cursor with sway's hide_cursor
    # instead left the click on Continue reading below unanswered).
    swaymsg -q -- seat seat0 cursor set 200 2
    sleep 1 # the frame of the open menu
    grim "$shots/menu.png"
    echo "screenshot of the menu: $shots/menu.png"

    # "Continue reading" is the menu's second row, under the header and its separator.
    click "$(( icon_x - 330 ))" "$(( icon_y + 43 ))" button1
    wait_for 100 grep -q "tray: openCurrent" "$work/notifier.log" || fail "the click on Continue reading did not reach the item"
    wait_for 100 grep -q "member=OpenRequested" "$work/monitor.log" || fail "the service did not open the chapter"
    echo "Continue reading → $(grep -A2 'member=OpenRequested' "$work/monitor.log" | grep -E 'int32|string' | tr -s ' ' | tr '\n' ' ')"

    # A left click on the icon: Activate, the current chapter again.
    click "$icon_x" "$icon_y" button1
    wait_for 100 grep -q "tray: activate" "$work/notifier.log" || fail "the left click did not activate the item"
    wait_for 100 lines member=OpenRequested "$work/monitor.log" 2 || fail "Activate opened nothing"
    echo "Activate → OpenRequested again ($(grep -c 'member=OpenRequested' "$work/monitor.log") in all)"

    # The panel restarts: Waybar killed and started again, a new watcher, which gets the item again.
    first_watcher="$(busctl --user status org.kde.StatusNotifierWatcher | sed -n 's/^UniqueName=//p')"
    kill -KILL "$(busctl --user status org.kde.StatusNotifierWatcher | sed -n 's/^PID=//p')"
    swaymsg -q -- exec "waybar -c $work/waybar.json -s $work/waybar.css >$work/waybar-again.log 2>&1"
    wait_for 150 lines "registered with the tray host" "$work/notifier.log" 2 || fail "the item did not register with the restarted Waybar"
    second_watcher="$(busctl --user status org.kde.StatusNotifierWatcher | sed -n 's/^UniqueName=//p')"
    [ -n "$second_watcher" ] && [ "$second_watcher" != "$first_watcher" ] || fail "the watcher did not change owner"
    registered="$(busctl --user get-property org.kde.StatusNotifierWatcher /StatusNotifierWatcher \
        org.kde.StatusNotifierWatcher RegisteredStatusNotifierItems)"
    case "$registered" in *"$item/StatusNotifierItem"*) ;; *) fail "the restarted Waybar does not list $item" ;; esac
    echo "Waybar restarted: watcher $first_watcher → $second_watcher; RegisteredStatusNotifierItems: $registered"
    wait_for 100 lines member=GetAll "$work/monitor.log" 2 || fail "the restarted Waybar never read the item"
    sleep 1 # the frame after the read
    grim "$shots/bar-after-restart.png"
    echo "screenshot of the bar after the restart: $shots/bar-after-restart.png"

    for log in waybar waybar-again; do
        if grep -q "Could not find an icon" "$work/$log.log"; then
            grep "Could not find an icon" "$work/$log.log" >&2
            fail "Waybar did not find the icon"
        fi
    done
    echo "--- the notifier's log"
    cat "$work/notifier.log"
    echo "PASS"
    exit 0
fi

# ---- Set-up, as whoever runs the script -----------------------------------------------------
binary="$(realpath "${1:-.build/debug/dbmultiverse}")"
[ -x "$binary" ] || { echo "no dbmultiverse binary at $binary (swift build first)" >&2; exit 2; }
for tool in sway waybar grim swaymsg dbus-daemon dbus-monitor gdbus busctl cc convert /usr/libexec/at-spi-bus-launcher; do
    command -v "$tool" >/dev/null || skip "$tool is not installed (apt-get install sway waybar grim dbus-bin libglib2.0-bin systemd imagemagick at-spi2-core)"
done
/usr/bin/python3 -c 'import pyatspi' 2>/dev/null || skip "python3-pyatspi is not installed"

source scripts/lib/desktop-session.sh
# TRAY_CHECK_FOLDER: where the session's folder goes: the tests pass one; /tmp otherwise.
session_start --user "sway refuses root" "${TRAY_CHECK_FOLDER:-/tmp}" dbm-tray sway waybar notifier
install_into_prefix "$binary"

cc -o "$work/virtual-pointer" scripts/real-hosts/tray-host/virtual-pointer.c -l:libwayland-client.so.0 \
    || skip "cannot build scripts/real-hosts/tray-host/virtual-pointer.c (needs cc and libwayland-client0)"

# The bus's activation files: the installed service's, and the accessibility bus's (GTK asks for it).
mkdir -p "$work/services"
cp "$work/prefix/share/dbus-1/services/com.nobadi.DBMultiverse.service" /usr/share/dbus-1/services/org.a11y.Bus.service "$work/services/"

# The reader's cover (for the tooltip: Waybar shows its text only) and chapter list.
source scripts/lib/demo-story.sh
demo_cover "$work/cover.png"
demo_catalogue "$work/chapters-en.json"

session_as_user "$repository/scripts/real-hosts/tray-host-check.sh" --session "$work" "$binary" "$shots"
