#!/usr/bin/env bash
# The KDE Store's .plasmoid as a reader's Plasma takes it ("Get New Widgets" installs with KPackage):
#   scripts/real-hosts/plasmoid-store-check.sh FILE.plasmoid 5|6
# installs FILE with kpackagetool5 (Plasma 5) or kpackagetool6 (Plasma 6) -t Plasma/Applet --install
# into a home of its own, checks kpackagetool lists it with the project's version, then has a real
# plasmoidviewer (under Xvfb, on a private bus) load it from there: its main.qml runs (it asks the
# CLI for the entry, and says so) and Plasma reports no QML error in its files. Run on this machine
# for Plasma 5.27 and in the Debian 13 chroot for Plasma 6 (StoreArtefactTests).
# Exit status: 0 installed and loaded, 1 not, 2 bad usage.
set -euo pipefail
cd "$(dirname "$0")/../.."
repository="$PWD"
file=$(realpath "${1:-}" 2>/dev/null || true)
plasma=${2:-}
[ -f "$file" ] && { [ "$plasma" = 5 ] || [ "$plasma" = 6 ]; } || { echo "usage: $0 FILE.plasmoid 5|6" >&2; exit 2; }
kpackagetool=kpackagetool$plasma
for tool in "$kpackagetool" plasmoidviewer Xvfb dbus-daemon; do
    command -v "$tool" >/dev/null || { echo "FAIL: $tool is not installed" >&2; exit 1; }
done
id=com.nobadi.dbmultiverse
source "$repository/scripts/lib/desktop-session.sh"
session_start "${TMPDIR:-/tmp}" dbm-plasmoid-store kpackagetool viewer
source "$repository/scripts/lib/bounded-wait.sh"
source "$repository/scripts/lib/private-bus.sh"
fail() { echo "FAIL: $*" >&2; exit 1; }
export HOME="$work/home" XDG_RUNTIME_DIR="$work/runtime" XDG_CONFIG_HOME="$work/home/.config"
export XDG_DATA_HOME="$work/home/.local/share" XDG_CACHE_HOME="$work/home/.cache"

"$kpackagetool" -t Plasma/Applet --install "$file" >"$work/kpackagetool.log" 2>&1 || fail "$kpackagetool --install $file"
grep -q "Successfully installed" "$work/kpackagetool.log" || fail "$kpackagetool did not say it installed $file"
"$kpackagetool" -t Plasma/Applet --show "$id" >"$work/show.log" 2>&1 || fail "$kpackagetool --show $id"
grep -qE "Path *: $XDG_DATA_HOME/plasma/plasmoids/$id/?$" "$work/show.log" || { cat "$work/show.log" >&2; fail "$kpackagetool does not list $id in the home's plasmoids"; }
version=$(sed -n 's/^ *"Version": "\(.*\)",$/\1/p' "$XDG_DATA_HOME/plasma/plasmoids/$id/metadata.json")
echo "$kpackagetool: installed $(basename "$file") as $id $version in ~/.local/share/plasma/plasmoids"

start_private_bus "$work/bus"
export DBUS_SESSION_BUS_ADDRESS="$BUS_ADDRESS"
pids+=("$BUS_PID")
: >"$work/display"
exec 5>"$work/display"
Xvfb -displayfd 5 -screen 0 1280x800x24 -nolisten tcp >"$work/xvfb.log" 2>&1 &
pids+=($!)
exec 5>&-
wait_for 100 test -s "$work/display" || fail "Xvfb did not start"
export DISPLAY=":$(cat "$work/display")" QT_QPA_PLATFORM=xcb
plasmoidviewer -a "$id" >"$work/viewer.log" 2>&1 &
pids+=($!)
# The widget's main.qml asks the CLI (/usr/bin/dbmultiverse, absent here) for the entry and logs
# what it got: the widget is loaded and running.
wait_for 600 grep -q "qml: dbmultiverse: " "$work/viewer.log" || fail "plasmoidviewer never ran the widget's main.qml"
if grep -E "plasmoids/$id/.*(rror|is not a type|is not installed|not found|Cannot)" "$work/viewer.log" | grep -v "exited 127"; then
    fail "plasmoidviewer reported errors in the widget's files (above)"
fi
echo "plasmoidviewer: loaded $id $version from the installed .plasmoid (Plasma $plasma); main.qml ran: $(grep -m1 "qml: dbmultiverse: " "$work/viewer.log" | cut -c1-80)"
