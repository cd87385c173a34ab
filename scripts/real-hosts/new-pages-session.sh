#!/usr/bin/env bash
# Issue 14's session with the real pieces, headless: the fixture site (dbmultiverse-site-bench
# --serve), a private dbus-daemon, the built `dbmultiverse service` and `dbmultiverse notifier`,
# dunst under Xvfb as the notification server. The reader is on page 140; three pages are
# published; `sync` finds them; the service signals `pages-published`; the notifier announces
# them; a click on the announcement (`dunstctl action`) opens the first unread page. Then the
# reader reads past the stored chapter list (`update --page 158`): no announcement.
#
# Not part of `make test` (needs dunst and Xvfb; prints what it saw, for people).
# Usage: scripts/real-hosts/new-pages-session.sh [BUILD-BIN-DIR]   (default: .build/debug)
set -euo pipefail

bin="$(realpath "${1:-.build/debug}")"
binary="$bin/dbmultiverse"
for program in "$binary" "$bin/dbmultiverse-site-bench"; do
    [ -x "$program" ] || { echo "no $program (swift build first)" >&2; exit 2; }
done
for command in dunst dunstctl Xvfb dbus-daemon dbus-monitor gdbus; do
    command -v "$command" >/dev/null || { echo "$command is missing (scripts/test/install-deps.sh)" >&2; exit 2; }
done

source "$(dirname "$0")/../lib/desktop-session.sh"
session_start /tmp dbm-new-pages service notifier dunst
source "$(dirname "$0")/../lib/bounded-wait.sh"
source "$(dirname "$0")/../lib/private-bus.sh"

export HOME="$work/home" XDG_RUNTIME_DIR="$work/runtime" XDG_CONFIG_HOME="$work/home/.config"
export DBMULTIVERSE_DATA_DIR="$work/data" DBMULTIVERSE_BROWSER=none

# The fixture site, driven through a FIFO: `publish N` publishes N more pages.
mkfifo "$work/site.in"
"$bin/dbmultiverse-site-bench" --serve small <"$work/site.in" >"$work/site.out" 2>&1 &
pids+=($!)
exec 3>"$work/site.in"
wait_for 100 grep -q "^DBMULTIVERSE_SITE_URL=" "$work/site.out"
export "$(grep -m1 '^DBMULTIVERSE_SITE_URL=' "$work/site.out")"
publish() {
    echo "publish $1" >&3
    wait_for 100 grep -q "latest page $2" "$work/site.out"
}

display_number=$(( 90 + RANDOM % 100 ))
Xvfb ":$display_number" -nolisten tcp -screen 0 1280x800x24 >"$work/xvfb.log" 2>&1 &
pids+=($!)
export DISPLAY=":$display_number"
wait_for 100 test -S "/tmp/.X11-unix/X$display_number"

start_private_bus "$work/bus"
export DBUS_SESSION_BUS_ADDRESS="$BUS_ADDRESS"
has_owner() {
    gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
        --method org.freedesktop.DBus.NameHasOwner "$1" | grep -q true
}

"$binary" service >"$work/service.log" 2>&1 &
pids+=($!)
wait_for 100 has_owner com.nobadi.DBMultiverse
dunst -verbosity crit >"$work/dunst.log" 2>&1 &
pids+=($!)
wait_for 100 has_owner org.freedesktop.Notifications
"$binary" notifier --no-tray >"$work/notifier.log" 2>&1 &
notifier_pid=$!
pids+=("$notifier_pid")
wait_for 100 grep -q "following" "$work/notifier.log"

dbus-monitor --session "type='signal',interface='com.nobadi.DBMultiverse.Widget1'" >"$work/signals.log" 2>&1 &
pids+=($!)
dbus-monitor --session "type='method_call',interface='org.freedesktop.Notifications',member='Notify'" >"$work/notify.log" 2>&1 &
pids+=($!)
wait_for 50 grep -q "NameAcquired" "$work/signals.log"
wait_for 50 grep -q "NameAcquired" "$work/notify.log"

echo "\$ dbmultiverse update --page 140"
"$binary" update --page 140
wait_for 100 grep -q "notified chapter 5" "$work/notifier.log"

publish 3 155
echo "\$ dbmultiverse sync            # three pages published on the fixture site"
"$binary" sync
wait_for 100 grep -q "announced" "$work/notifier.log"

echo "--- the bus signal (dbus-monitor, its entry trimmed)"
grep -B2 '"pages-published"' "$work/signals.log" | grep -v '^--'
grep -A60 '"pages-published"' "$work/signals.log" | grep -A1 -E '"(chapter|latest-page|new-pages)"' | grep -v '^--' | paste - - | sed 's/  */ /g'

echo "\$ dbmultiverse entry --format json"
"$binary" entry --format json
echo "\$ dbmultiverse entry --family small"
"$binary" entry --family small
echo "--- the chapter notification's progress and stack tag (its Notify call's hints, dbus-monitor)"
awk '/member=Notify/{n++} n==1' "$work/notify.log" | grep -A1 -E '"(value|x-dunst-stack-tag|x-canonical-private-synchronous)"' | grep -v '^--' | paste - - | sed 's/  */ /g'
echo "--- the announcement's Notify call (dbus-monitor)"
awk '/member=Notify/{n++} n==2' "$work/notify.log"
wait_for 100 test "$(dunstctl count displayed)" -ge 2
echo "displayed by dunst: $(dunstctl count displayed)"

echo "--- close the chapter notification (dunstctl close: the topmost), click the announcement (dunstctl action 0)"
dunstctl close
wait_for 100 test "$(dunstctl count displayed)" -eq 1
dunstctl action 0
wait_for 100 grep -q "OpenRequested" "$work/signals.log"
grep -A2 "member=OpenRequested" "$work/signals.log"
dunstctl close-all
wait_for 50 test "$(dunstctl count history)" -ge 2 || true
echo "--- dunstctl history (what dunst showed, read back from dunst)"
dunstctl history | python3 -c '
import json, sys
for n in json.load(sys.stdin)["data"][0]:
    print(json.dumps({k: n[k]["data"] for k in ("id", "summary", "body", "category", "default_action_name") if k in n}, ensure_ascii=False))
'

publish 3 158
echo "\$ dbmultiverse update --page 158   # past the stored chapter list (155): fetches it again"
"$binary" update --page 158
wait_for 100 test "$(grep -c '"pages-published"' "$work/signals.log")" -ge 2
echo "--- its pages-published (the position was stored first: no new pages)"
awk '/"pages-published"/{n++} n==2' "$work/signals.log" | grep -A1 -E '"(chapter|latest-page|new-pages)"' | grep -v '^--' | paste - - | sed 's/  */ /g'

"$binary" update --chapter 6 --name "After the race" --progress 1 >/dev/null
wait_for 100 grep -q "notified chapter 6" "$work/notifier.log"
echo "\$ dbmultiverse entry --family small"
"$binary" entry --family small
echo "Notify calls in all: $(grep -c 'member=Notify' "$work/notify.log") (chapter 5, 15 new pages, chapter 6: nothing for page 158)"
echo "--- notifier log"
cat "$work/notifier.log"

kill -TERM "$notifier_pid"
wait "$notifier_pid" && echo "notifier exited 0 on SIGTERM" || echo "notifier exited $? on SIGTERM"
