#!/usr/bin/env bash
# The notifier against a real notification daemon (dunst, from Debian), headless: Xvfb for its X
# display, a private dbus-daemon for the session bus, the built `dbmultiverse service` and
# `dbmultiverse notifier` on it. Changes the chapter with `dbmultiverse update`, then reads back
# from dunst itself (`dunstctl history`) what it displayed, and clicks the notification
# (`dunstctl action`) to check that the service is asked to open the chapter.
#
# Not part of `make test` (it installs packages and needs no display of yours).
# Usage: scripts/real-notification-daemon.sh [PATH-TO-dbmultiverse]   (default: .build/debug/dbmultiverse)
set -euo pipefail

binary="$(realpath "${1:-.build/debug/dbmultiverse}")"
[ -x "$binary" ] || { echo "no dbmultiverse binary at $binary (swift build first)" >&2; exit 2; }

missing=()
command -v dunst >/dev/null || missing+=(dunst)
command -v Xvfb >/dev/null || missing+=(xvfb)
command -v gdbus >/dev/null || missing+=(libglib2.0-bin)
command -v dbus-daemon >/dev/null || missing+=(dbus)
if [ ${#missing[@]} -gt 0 ]; then
    echo "installing ${missing[*]}" >&2
    apt-get install -y --no-install-recommends "${missing[@]}" >/dev/null
fi

work="$(mktemp -d /tmp/dbm-real-notify.XXXXXX)"
pids=()
cleanup() {
    local status=$?
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$work"
    exit "$status"
}
trap cleanup EXIT INT TERM

source "$(dirname "$0")/bounded-wait.sh"

mkdir -p "$work/home" "$work/runtime" "$work/data dir" "$work/bus"
chmod 700 "$work/runtime"
export HOME="$work/home" XDG_RUNTIME_DIR="$work/runtime" XDG_CONFIG_HOME="$work/home/.config"
export DBMULTIVERSE_DATA_DIR="$work/data dir" DBMULTIVERSE_BROWSER=none

# An X display for dunst.
display_number=$(( 90 + RANDOM % 100 ))
Xvfb ":$display_number" -nolisten tcp -screen 0 1280x800x24 >"$work/xvfb.log" 2>&1 &
pids+=($!)
export DISPLAY=":$display_number"
wait_for 100 test -S "/tmp/.X11-unix/X$display_number"

# A private session bus without service directories: nothing is activated behind our back.
source "$(dirname "$0")/private-bus.sh"
mkdir -p "$work/bus"
start_private_bus "$work/bus"
pids+=("$BUS_PID")
export DBUS_SESSION_BUS_ADDRESS="$BUS_ADDRESS"
echo "private bus: $DBUS_SESSION_BUS_ADDRESS, display $DISPLAY" >&2

has_owner() {
    gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
        --method org.freedesktop.DBus.NameHasOwner "$1" | grep -q true
}

"$binary" service >"$work/service.log" 2>&1 &
pids+=($!)
wait_for 100 has_owner com.nobadi.DBMultiverse

# The state at the notifier's start must not be notified: store a chapter before it starts.
"$binary" update --chapter 41 --name "Before the notifier" --progress 100 >/dev/null

dunst -verbosity crit >"$work/dunst.log" 2>&1 &
pids+=($!)
wait_for 100 has_owner org.freedesktop.Notifications
echo "--- GetServerInformation / GetCapabilities (from dunst)" >&2
gdbus call --session --dest org.freedesktop.Notifications --object-path /org/freedesktop/Notifications \
    --method org.freedesktop.Notifications.GetServerInformation
gdbus call --session --dest org.freedesktop.Notifications --object-path /org/freedesktop/Notifications \
    --method org.freedesktop.Notifications.GetCapabilities

"$binary" notifier >"$work/notifier.log" 2>&1 &
notifier_pid=$!
pids+=("$notifier_pid")
wait_for 100 grep -q "following" "$work/notifier.log"

# Watch the service's OpenRequested (what a click on the notification leads to).
gdbus monitor --session --dest com.nobadi.DBMultiverse >"$work/monitor.log" 2>&1 &
pids+=($!)
wait_for 50 grep -qi "monitoring" "$work/monitor.log"

# Every Notify call as dunst received it (urgency's type `y` shows here; dunst's history has no urgency).
dbus-monitor --session "type='method_call',interface='org.freedesktop.Notifications',member='Notify'" >"$work/notify-calls.log" 2>&1 &
pids+=($!)
wait_for 50 grep -q "NameAcquired" "$work/notify-calls.log"

# A minimal valid PNG (1x1) as the cover; the path has a space to exercise the file:// URI.
mkdir -p "$work/covers dir"
printf '\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x02\x00\x00\x00\x90wS\xde\x00\x00\x00\x0cIDATx\x9cc\xf8\xcf\xc0\x00\x00\x03\x01\x01\x00\xc9\xfe\x92\xef\x00\x00\x00\x00IEND\xaeB`\x82' \
    >"$work/covers dir/cover.png"

displayed() { [ "$(dunstctl count displayed)" -ge "$1" ]; }

echo "--- dbmultiverse update --chapter 42 …" >&2
"$binary" update --chapter 42 --name 'Goku & Vegeta <fusion>' --progress 35 --cover "$work/covers dir/cover.png" --page 900
wait_for 100 displayed 1
echo "--- dbmultiverse progress 60 (progress change: no notification expected)" >&2
"$binary" progress 60
echo "--- dbmultiverse update --chapter 43 … (replaces the standing notification)" >&2
"$binary" update --chapter 43 --name 'The Universe 18 Tournament' --progress 5 --cover "$work/covers dir/cover.png"
wait_for 100 grep -q "notified chapter 43" "$work/notifier.log"
echo "displayed now: $(dunstctl count displayed), in history: $(dunstctl count history)"

echo "--- click it (dunstctl action 0: the default action)" >&2
dunstctl action 0
wait_for 100 grep -q "OpenRequested" "$work/monitor.log"
dunstctl close-all
wait_for 50 test "$(dunstctl count history)" -ge 1

echo "--- dbmultiverse update --chapter 44 … (the last one was closed: a new notification)" >&2
"$binary" update --chapter 44 --name 'Nothing to <escape> & all' --progress 100
wait_for 100 grep -q "notified chapter 44" "$work/notifier.log"
dunstctl close-all
wait_for 50 test "$(dunstctl count history)" -ge 2

echo "--- dunstctl history (what dunst displayed, read back from dunst)"
dunstctl history | python3 -c '
import json, sys
for n in json.load(sys.stdin)["data"][0]:
    pick = {k: n[k]["data"] for k in ("id", "appname", "summary", "body", "icon_path", "urgency", "category", "default_action_name", "timeout", "message") if k in n}
    print(json.dumps(pick, ensure_ascii=False))
'
echo "--- the first Notify call, as dbus-monitor saw it on the bus"
awk '/member=Notify/{n++} n==1' "$work/notify-calls.log"
echo "--- OpenRequested seen on the bus after the click"
grep -A0 "OpenRequested" "$work/monitor.log" || echo "(none)"
echo "--- notifier log"
cat "$work/notifier.log"

kill -TERM "$notifier_pid"
wait "$notifier_pid" && echo "notifier exited 0 on SIGTERM" || echo "notifier exited $? on SIGTERM"
