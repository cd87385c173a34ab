#!/usr/bin/env bash
# The notifier against a real notification daemon: Debian's dunst under Xvfb, a private dbus-daemon
# for the session bus, the built `dbmultiverse service` and `dbmultiverse notifier` on it, and the
# reader of scripts/lib/demo-story.sh. Checks, in order, what dunst shows and does:
#   the chapter change: its notification, drawn (screenshot chapter.png); dismissed;
#   the chapter list arriving with 3 new pages: the announcement, drawn (screenshot new-pages.png);
#   a progress change: nothing; the next chapter: a new notification, the one after it replaces it;
#   a click on it (`dunstctl action`): the service is asked to open that chapter;
#   then reads back from dunst itself (`dunstctl history`) what it displayed.
#
# Not part of `make test` by itself (DunstNotificationTests runs it). Every wait is bounded; every
# process it starts is killed at the end. Screenshots stay in SCREENSHOT_DIR (default: a new
# /tmp/dbm-notify-shots.*). The session's folder (its bus's socket) is made in NOTIFY_CHECK_FOLDER
# (default /tmp).
# Usage: scripts/real-hosts/real-notification-daemon.sh [PATH-TO-dbmultiverse]   (default: .build/debug/dbmultiverse)
# Exit status: 0 every check passed, 1 one failed, 2 bad usage, 77 skipped (the reason is printed).
set -euo pipefail
cd "$(dirname "$0")/../.."
repository="$PWD"

binary="$(realpath "${1:-.build/debug/dbmultiverse}")"
[ -x "$binary" ] || { echo "no dbmultiverse binary at $binary (swift build first)" >&2; exit 2; }
for tool in dunst dunstctl Xvfb import convert dbus-daemon dbus-monitor gdbus; do
    command -v "$tool" >/dev/null || { echo "SKIP: $tool is not installed (scripts/test/install-deps.sh installs it)" >&2; exit 77; }
done

source "$repository/scripts/lib/desktop-session.sh"
session_start "${NOTIFY_CHECK_FOLDER:-/tmp}" dbm-notify dunst notifier service
mkdir -p "$work/data dir"
source "$repository/scripts/lib/bounded-wait.sh"
source "$repository/scripts/lib/demo-story.sh"
fail() { echo "FAIL: $*" >&2; exit 1; }

# The data folder's name has a space: the cover's file:// URI must escape it.
export HOME="$work/home" XDG_RUNTIME_DIR="$work/runtime" XDG_CONFIG_HOME="$work/home/.config"
export DBMULTIVERSE_DATA_DIR="$work/data dir" DBMULTIVERSE_BROWSER=none

# An X display for dunst: Xvfb picks a free one and writes its number once it accepts clients.
exec 5>"$work/display"
Xvfb -displayfd 5 -screen 0 1280x800x24 -nolisten tcp >"$work/xvfb.log" 2>&1 &
pids+=($!)
exec 5>&-
wait_for 100 test -s "$work/display" || fail "Xvfb did not start"
export DISPLAY=":$(cat "$work/display")"

# A private session bus without service directories: nothing is activated behind our back.
source "$repository/scripts/lib/private-bus.sh"
start_private_bus "$work/bus"
export DBUS_SESSION_BUS_ADDRESS="$BUS_ADDRESS"
echo "private bus: $DBUS_SESSION_BUS_ADDRESS, display $DISPLAY"

has_owner() {
    gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
        --method org.freedesktop.DBus.NameHasOwner "$1" | grep -q true
}

"$binary" service >"$work/service.log" 2>&1 &
pids+=($!)
wait_for 100 has_owner com.nobadi.DBMultiverse || fail "the service did not take its name"

# The state at the notifier's start must not be notified: a chapter stored before it starts; and the
# chapter list a sync stored then, the comic at the reader's page.
"$binary" update --chapter 41 --name "Before the notifier" --progress 100 >/dev/null
demo_catalogue "$work/chapters-en.json" "$DEMO_PAGE"
mv "$work/chapters-en.json" "$DBMULTIVERSE_DATA_DIR/chapters-en.json"

# dunst as Debian configures it (/etc/xdg/dunst/dunstrc), but for a font that reads in a picture.
mkdir -p "$XDG_CONFIG_HOME/dunst"
sed -e 's/^\( *font = \).*/\1DejaVu Sans 10/' /etc/xdg/dunst/dunstrc >"$XDG_CONFIG_HOME/dunst/dunstrc" 2>/dev/null \
    || printf '[global]\n    font = DejaVu Sans 10\n' >"$XDG_CONFIG_HOME/dunst/dunstrc"
dunst -verbosity crit >"$work/dunst.log" 2>&1 &
pids+=($!)
wait_for 100 has_owner org.freedesktop.Notifications || fail "dunst did not take org.freedesktop.Notifications"
echo "server: $(gdbus call --session --dest org.freedesktop.Notifications --object-path /org/freedesktop/Notifications \
    --method org.freedesktop.Notifications.GetServerInformation)"
echo "capabilities: $(gdbus call --session --dest org.freedesktop.Notifications --object-path /org/freedesktop/Notifications \
    --method org.freedesktop.Notifications.GetCapabilities)"

"$binary" notifier --no-tray >"$work/notifier.log" 2>&1 &
pids+=($!)
wait_for 100 grep -q "following" "$work/notifier.log" || fail "the notifier did not start"

# The service's OpenRequested (what a click on a notification leads to), and every Notify call as
# dunst received it.
dbus-monitor --session "member='OpenRequested'" >"$work/monitor.log" 2>&1 &
pids+=($!)
dbus-monitor --session "type='method_call',interface='org.freedesktop.Notifications',member='Notify'" >"$work/notify-calls.log" 2>&1 &
pids+=($!)
wait_for 50 grep -q NameAcquired "$work/monitor.log"
wait_for 50 grep -q NameAcquired "$work/notify-calls.log"

displayed() { [ "$(dunstctl count displayed)" -eq "$1" ]; }
notify_calls() { grep -c "member=Notify" "$work/notify-calls.log" || true; }
# drawn FILE: the screen, taken until it shows a notification (dunst maps its window, then draws:
# nothing on the bus says when), into FILE; the root window is black elsewhere.
drawn() {
    import -window root "$1" && [ "$(convert "$1" -fuzz 2% -trim -format '%w' info: 2>/dev/null)" -ge 200 ]
}
screenshot() { wait_for 50 drawn "$shots/$1" || fail "dunst drew no notification for $1"; echo "screenshot: $shots/$1"; }

# ---- The chapter changes: its notification, with the cover.
demo_cover "$work/cover.png"
"$binary" update --chapter "$DEMO_CHAPTER" --name "$DEMO_NAME" --progress "$DEMO_PROGRESS" \
    --cover "$work/cover.png" --page "$DEMO_PAGE" || fail "dbmultiverse update"
wait_for 100 displayed 1 || fail "dunst displays no notification for chapter $DEMO_CHAPTER"
screenshot chapter.png
# Dismissed, as a user does: the notifier forgets it (NotificationClosed).
dunstctl close
wait_for 50 displayed 0 || fail "dunstctl close left the notification"

# ---- The next sync's chapter list: 3 pages published after the reader's, announced.
demo_catalogue "$work/chapters-en.json"
mv "$work/chapters-en.json" "$DBMULTIVERSE_DATA_DIR/chapters-en.json"
wait_for 100 grep -q "announced" "$work/notifier.log" || fail "the notifier announced no new pages"
wait_for 100 displayed 1 || fail "dunst displays no announcement"
screenshot new-pages.png
dunstctl close-all
wait_for 50 displayed 0

# ---- A progress change notifies nothing; the next chapter is a new notification (the last one was
# closed); the one after it replaces it.
"$binary" progress 60
calls="$(notify_calls)"
"$binary" update --chapter 43 --name "The Universe 18 Tournament" --progress 5
wait_for 100 grep -q "notified chapter 43" "$work/notifier.log" || fail "chapter 43 was not notified"
[ "$(notify_calls)" -eq $(( calls + 1 )) ] || fail "the progress change was notified"
"$binary" update --chapter 44 --name "Nothing to <escape> & all" --progress 100
wait_for 100 grep -q "notified chapter 44" "$work/notifier.log" || fail "chapter 44 was not notified"
wait_for 50 displayed 1 || fail "chapter 44 did not replace chapter 43's notification ($(dunstctl count displayed) displayed)"
echo "chapter 43, then 44: $(dunstctl count displayed) notification displayed"

# ---- A click on it: the default action, the service opens the chapter.
dunstctl action 0
wait_for 100 grep -q "member=OpenRequested" "$work/monitor.log" || fail "the click opened nothing"
echo "click → $(grep -A2 'member=OpenRequested' "$work/monitor.log" | grep -E 'int32|string' | tr -s ' ' | tr '\n' ' ')"
dunstctl close-all
wait_for 50 displayed 0

echo "--- dunstctl history (what dunst displayed, read back from dunst, newest first)"
dunstctl history | python3 -c '
import json, sys
for n in json.load(sys.stdin)["data"][0]:
    pick = {k: n[k]["data"] for k in ("summary", "body", "icon_path", "progress", "urgency", "category", "default_action_name", "stack_tag") if k in n}
    print(json.dumps(pick, ensure_ascii=False))
'
echo "--- the first Notify call, as dbus-monitor saw it on the bus"
awk '/member=Notify/{n++} n==1' "$work/notify-calls.log"
echo "--- notifier log"
cat "$work/notifier.log"
echo "PASS"
