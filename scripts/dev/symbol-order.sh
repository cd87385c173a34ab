#!/usr/bin/env bash
# Regenerates linker/dbmultiverse.order, the order lld lays out the release executables' code in
# (to keep memory low): one file for the three (dbmultiverse, dbmultiverse-service,
# dbmultiverse-notifier); each link lays out the names it has, in the file's order, and skips the
# rest. The service and notifier run code spread over a large text segment (6 MB in their own
# executables, 9.7 MB in the one binary of before); the kernel maps 64 KiB around each page they
# touch, so scattered code costs resident memory far beyond what runs. Listing the functions that
# do run first packs them together (as far as the objects' sections allow: the static Swift
# runtime's Swift.o keeps 1.6 MB of its code in one section lld cannot split).
#
# How: runs the release-built service and notifier under callgrind on a private bus, drives
# every method, property, error path, an external file write and a notification through them,
# then the Plasma widget's `watch --next` (it waits between changes too), and writes the
# functions that ran (the binary's own symbols, in first-run order).
#
#   scripts/dev/symbol-order.sh          # or: make symbol-order
#
# Stale entries are harmless (the link ignores names it does not find); rerun after larger
# changes and compare `make bench`'s RSS rows.
set -euo pipefail
cd "$(dirname "$0")/../.."
for tool in valgrind busctl gdbus; do
    command -v "$tool" >/dev/null || { echo "symbol-order: needs $tool (apt-get install valgrind systemd libglib2.0-bin)" >&2; exit 1; }
done
/usr/bin/python3 -c 'import dbus, gi' 2>/dev/null \
    || { echo "symbol-order: needs python3-dbus and python3-gi for a stand-in notification server" >&2; exit 1; }

echo "== building the release executables"
for product in dbmultiverse dbmultiverse-service dbmultiverse-notifier; do
    swift build -c release --static-swift-stdlib --product "$product" 2>&1 | tail -n 1
done
folder="$(swift build -c release --static-swift-stdlib --show-bin-path)"
binary="$folder/dbmultiverse"

work=$(mktemp -d /tmp/dbm-symbol-order.XXXXXX)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

source scripts/lib/private-bus.sh
start_private_bus "$work"
pids+=("$BUS_PID")
export DBUS_SESSION_BUS_ADDRESS=$BUS_ADDRESS DBMULTIVERSE_DATA_DIR=$work/data DBMULTIVERSE_BROWSER=none
unset DBUS_STARTER_ADDRESS DBUS_STARTER_BUS_TYPE

# A stand-in notification server, so the notifier runs its Notify path, and a stand-in tray
# watcher, so its tray item registers and serves a host's calls.
/usr/bin/python3 - "$work/notifications.ready" "$work/notified" "$work/tray-item" <<'PY' &
import sys, dbus, dbus.service, dbus.mainloop.glib
from gi.repository import GLib
dbus.mainloop.glib.DBusGMainLoop(set_as_default=True)
class Notifications(dbus.service.Object):
    @dbus.service.method("org.freedesktop.Notifications", in_signature="", out_signature="as")
    def GetCapabilities(self): return ["body", "body-markup", "actions"]
    @dbus.service.method("org.freedesktop.Notifications", in_signature="susssasa{sv}i", out_signature="u")
    def Notify(self, app, replaces, icon, summary, body, actions, hints, timeout):
        open(sys.argv[2], "w").close()
        return 1
    @dbus.service.method("org.freedesktop.Notifications", in_signature="", out_signature="ssss")
    def GetServerInformation(self): return ("order", "dbmultiverse", "1", "1.2")
class Watcher(dbus.service.Object):
    @dbus.service.method("org.kde.StatusNotifierWatcher", in_signature="s", out_signature="")
    def RegisterStatusNotifierItem(self, service):
        with open(sys.argv[3], "w") as item: item.write(service)
name = dbus.service.BusName("org.freedesktop.Notifications", dbus.SessionBus())
Notifications(dbus.SessionBus(), "/org/freedesktop/Notifications")
watcher = dbus.service.BusName("org.kde.StatusNotifierWatcher", dbus.SessionBus())
Watcher(dbus.SessionBus(), "/StatusNotifierWatcher")
open(sys.argv[1], "w").close()
GLib.MainLoop().run()
PY
pids+=("$!")
disown "$!" # killed at exit; no job report

wait_for() { # wait_for COMMAND...: retries for up to 20 s (callgrind starts slowly)
    for _ in $(seq 400); do "$@" >/dev/null 2>&1 && return 0; sleep 0.05; done
    echo "symbol-order: timed out waiting for: $*" >&2; exit 1
}
wait_for test -e "$work/notifications.ready"

echo "== running service and notifier under callgrind"
valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/service.out" "$folder/dbmultiverse-service" 2>/dev/null &
service_pid=$!; pids+=("$service_pid")
wait_for busctl --address="$BUS_ADDRESS" status com.nobadi.DBMultiverse
valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/notifier.out" "$folder/dbmultiverse-notifier" 2>/dev/null &
notifier_pid=$!; pids+=("$notifier_pid")

object=(--dest com.nobadi.DBMultiverse --object-path /com/nobadi/DBMultiverse)
widget=com.nobadi.DBMultiverse.Widget1
call() { gdbus call --session "${object[@]}" --method "$@" >/dev/null 2>&1 || true; }
# The notifier has no bus name to wait for: change chapters until a notification arrives.
notified() { call $widget.UpdateChapter $((RANDOM % 1000 + 1)) "Waiting" 0 "[]" "{}"; sleep 0.2; test -e "$work/notified"; }
wait_for notified
for round in 1 2 3; do
    call $widget.GetCurrentEntry
    call $widget.UpdateChapter $((40 + round)) "Chapter $round" 30 "[]" "{'page': <5>, 'language': <'fr'>}"
    call $widget.UpdateProgress 50
    call $widget.UpdateProgress 100
    for family in small medium; do
        call $widget.GetSnapshot $family
        call $widget.GetTimeline $family
        call $widget.GetPlaceholder $family
    done
    call $widget.ReloadTimelines "$widget"
    call $widget.ReloadAllTimelines
    call org.freedesktop.DBus.Properties.GetAll $widget
    call org.freedesktop.DBus.Properties.Get $widget Entry
    call org.freedesktop.DBus.Peer.Ping
    call org.freedesktop.DBus.Introspectable.Introspect
    call org.freedesktop.Application.Activate "{}"
    call org.freedesktop.Application.Open "['dbmultiverse://chapter/7']" "{}"
    # Error paths: a bad family, a bad chapter, a bad signature.
    call $widget.GetSnapshot large
    call $widget.UpdateChapter 0 "" 30 "[]" "{}"
    call $widget.UpdateProgress "'x'"
    printf '{"number": %d, "name": "External", "progress": 12, "coverImagePath": ""}' $((60 + round)) >"$work/data/.external.tmp"
    mv "$work/data/.external.tmp" "$work/data/currentChapterData.json"
    sleep 0.5 # the watcher's and the notifier's turn
done
# The tray item, as a panel uses it (Waybar's and Plasma's calls), after a chapter with a cover.
wait_for test -s "$work/tray-item"
item=$(cat "$work/tray-item")
cover_png=(69 137 80 78 71 13 10 26 10 0 0 0 13 73 72 68 82 0 0 0 1 0 0 0 1 8 2 0 0 0 144 119 83 222 0 0 0 12 73 68 65 84
    120 156 99 248 207 192 0 0 3 1 1 0 201 254 146 239 0 0 0 0 73 69 78 68 174 66 96 130)
busctl --address="$BUS_ADDRESS" call com.nobadi.DBMultiverse /com/nobadi/DBMultiverse $widget UpdateChapter \
    isiaya{sv} 50 "With a cover" 40 "${cover_png[@]}" 0 >/dev/null 2>&1 || true
sleep 0.5
tray() { gdbus call --session --dest "$item" --object-path "$1" --method "$2" "${@:3}" >/dev/null 2>&1 || true; }
for round in 1 2; do
    tray /StatusNotifierItem org.freedesktop.DBus.Properties.GetAll org.kde.StatusNotifierItem
    tray /StatusNotifierItem org.freedesktop.DBus.Properties.Get org.kde.StatusNotifierItem ToolTip
    tray /StatusNotifierItem org.freedesktop.DBus.Introspectable.Introspect
    tray /MenuBar org.freedesktop.DBus.Properties.GetAll com.canonical.dbusmenu
    tray /MenuBar com.canonical.dbusmenu.GetLayout 0 -- -1 "[]"
    tray /MenuBar com.canonical.dbusmenu.GetLayout 2 1 "['label']"
    tray /MenuBar com.canonical.dbusmenu.GetGroupProperties "[]" "[]"
    tray /MenuBar com.canonical.dbusmenu.GetProperty 2 label
    tray /MenuBar com.canonical.dbusmenu.AboutToShow 0
    tray /MenuBar com.canonical.dbusmenu.AboutToShowGroup "[0]"
    tray /MenuBar com.canonical.dbusmenu.Event 0 opened "<0>" 0
    tray /MenuBar com.canonical.dbusmenu.EventGroup "[(2, 'clicked', <0>, 0), (3, 'clicked', <0>, 0), (99, 'clicked', <0>, 0)]"
    tray /MenuBar com.canonical.dbusmenu.Event 5 clicked "<0>" 0
    tray /StatusNotifierItem org.kde.StatusNotifierItem.ProvideXdgActivationToken token
    tray /StatusNotifierItem org.kde.StatusNotifierItem.Activate 0 0
    tray /StatusNotifierItem org.kde.StatusNotifierItem.SecondaryActivate 0 0
    call $widget.UpdateChapter $((70 + round)) "Tray $round" 100 "[]" "{}"
    sleep 0.5
done
sleep 2.5 # one debounced progress reload

# The Plasma widget's long-poll, which stays blocked between changes: one answer at once, one at
# the next reload (its token taken from the first).
echo "== running watch --next (the Plasma widget's command) under callgrind"
valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/watch-first.out" "$binary" watch --format json --next \
    >"$work/first.json" 2>/dev/null
token=$(/usr/bin/python3 -c 'import json, sys; print(json.load(open(sys.argv[1]))["token"])' "$work/first.json")
valgrind --tool=callgrind --demangle=no --callgrind-out-file="$work/watch-next.out" "$binary" watch --format json --next \
    --after "$token" >/dev/null 2>&1 &
watch_pid=$!; pids+=("$watch_pid")
sleep 3 # callgrind's start
call $widget.UpdateChapter 80 "For the widget" 10 "[]" "{}"
wait "$watch_pid" || true

kill -TERM "$service_pid" "$notifier_pid"
wait "$service_pid" "$notifier_pid" || true

mkdir -p linker
/usr/bin/python3 - "$binary,$folder/dbmultiverse-service,$folder/dbmultiverse-notifier" "$work/service.out" "$work/notifier.out" "$work/watch-first.out" "$work/watch-next.out" \
    >linker/dbmultiverse.order <<'PY'
import re, subprocess, sys
binaries, outputs = sys.argv[1].split(","), sys.argv[2:]
defined = set()
for binary in binaries:
    for line in subprocess.run(["nm", binary], capture_output=True, text=True, check=True).stdout.splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[1] in "tTwW":
            defined.add(fields[2])
seen = {}  # insertion-ordered
for output in outputs:
    for line in open(output):
        match = re.match(r"c?fn=\(\d+\) (\S+)$", line.strip())
        if match and match.group(1) in defined:
            seen.setdefault(match.group(1))
print("\n".join(seen))
PY
# SwiftPM does not know the link reads this file: remove the executables so the next build relinks them.
rm -f "$binary" "$folder/dbmultiverse-service" "$folder/dbmultiverse-notifier"
echo "== linker/dbmultiverse.order: $(wc -l <linker/dbmultiverse.order) functions (the next release build relinks)"
