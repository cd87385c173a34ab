#!/usr/bin/env bash
# The Debian package on this machine (issue 17): installs the .deb with apt-get, then uses what it
# installed — the binary started by D-Bus activation from /usr/share/dbus-1/services on a private
# bus, `xdg-open dbmultiverse://chapter/1` through the installed desktop file, the browsers' host
# manifests, the man page — checks it with the stock tools (desktop-file-validate, systemd-analyze
# verify, lintian), removes the package and checks that nothing of it is left in /usr and /etc.
#
# Usage: scripts/deb-test.sh PACKAGE.deb   (`make deb-test` builds the package first). As root: it
# installs a package. It never leaves the package installed: the removal also runs on failure.
# Not part of `make test` (it changes the machine) nor of CI (a package build is a release build).
set -euo pipefail
cd "$(dirname "$0")/.."
deb=$(realpath "${1:?usage: $0 PACKAGE.deb}")
[ "$(id -u)" -eq 0 ] || { echo "deb-test.sh: run as root (it installs $deb)" >&2; exit 2; }
package=$(dpkg-deb -f "$deb" Package)
version=$(dpkg-deb -f "$deb" Version)
if dpkg-query -W -f '${Status}' "$package" 2>/dev/null | grep -q "installed"; then
    echo "deb-test.sh: $package is installed already; remove it first" >&2
    exit 2
fi
for tool in dbus-daemon dbus-monitor gdbus xdg-open xdg-mime desktop-file-validate systemd-analyze lintian; do
    command -v "$tool" >/dev/null || { echo "deb-test.sh: $tool is missing (scripts/install-deps.sh deb installs it)" >&2; exit 2; }
done

source scripts/bounded-wait.sh
source scripts/private-bus.sh

work=$(mktemp -d /tmp/dbm-deb-test.XXXXXX)
chmod 755 "$work"
installed=no
bus_pid=""
monitor_pid=""
passes=0
failures=0
cleanup() {
    local status=$?
    [ -n "$monitor_pid" ] && kill "$monitor_pid" 2>/dev/null
    [ -n "$bus_pid" ] && kill "$bus_pid" 2>/dev/null
    if [ "$installed" = yes ]; then
        echo "deb-test.sh: purging $package after a failure" >&2
        apt-get purge -y -qq "$package" >/dev/null 2>&1 || true
    fi
    rm -rf "$work"
    exit "$status"
}
trap cleanup EXIT INT TERM

step() { printf '\n== %s\n' "$*"; }
pass() { printf 'ok   %s\n' "$*"; passes=$((passes + 1)); }
fail() { printf 'FAIL %s\n' "$*"; failures=$((failures + 1)); }
check() { # description, command...: passes when the command succeeds
    local description=$1; shift
    if "$@"; then pass "$description"; else fail "$description"; fi
}

# What is on the machine: the files under /usr and /etc (with their kind), deb-systemd-helper's
# state for user units (what `remove` keeps and `purge` drops), and the installed packages.
files() { find /usr /etc -xdev -printf '%y %p\n' | LC_ALL=C sort; }
unit_state() { find /var/lib/systemd -xdev -path '*deb-systemd-user-helper*' -printf '%y %p\n' 2>/dev/null | LC_ALL=C sort; }
packages() { dpkg-query -W -f '${db:Status-Abbrev} ${Package}\n' | LC_ALL=C sort; }

started=$SECONDS
step "the package's dependencies, so that installing it adds only itself"
apt-get satisfy -y -qq "$(dpkg-deb -f "$deb" Depends), $(dpkg-deb -f "$deb" Recommends)" >/dev/null
files > "$work/before.files"
unit_state > "$work/before.state"
packages > "$work/before.packages"

step "apt-get install $deb"
apt-get install -y "$deb" 2>&1 | grep -E "^(Setting up|Unpacking|Processing triggers|[0-9]+ upgraded)" || true
installed=yes
packages > "$work/installed.packages"
check "apt-get installed $package $version and nothing else" \
    test "$(diff "$work/before.packages" "$work/installed.packages" | grep '^[<>]')" = "> ii  $package"
check "dbmultiverse --version is the package's version ($version)" test "$(/usr/bin/dbmultiverse --version)" = "$version"

step "dpkg -i over the installed package (the upgrade path of the maintainer scripts)"
dpkg -i "$deb" 2>&1 | grep -E "^(Preparing|Unpacking|Setting up)" || true
check "still installed and configured" test "$(dpkg-query -W -f '${db:Status-Abbrev}' "$package")" = "ii "
check "the links under /etc survive the upgrade" test -f /etc/opt/chrome/native-messaging-hosts/com.nobadi.dbmultiverse.json

step "the installed binary on a private bus, activated from /usr/share/dbus-1/services"
mkdir -p "$work/home/.config" "$work/home/.local/share" "$work/data" "$work/run" "$work/bus"
chmod 700 "$work/run"
cat > "$work/record-browser" <<'SCRIPT'
#!/bin/sh
# Stands in for the browser: records the URL it is asked to open.
printf '%s\n' "$*" >> "$(dirname "$0")/browser.log"
SCRIPT
chmod 755 "$work/record-browser"
# What the activated service inherits from the bus: a temporary home and data folder, and the
# recording browser, so nothing of the machine's user is read or written and nothing real opens.
export HOME="$work/home" XDG_CONFIG_HOME="$work/home/.config" XDG_DATA_HOME="$work/home/.local/share"
export XDG_RUNTIME_DIR="$work/run" DBMULTIVERSE_DATA_DIR="$work/data" DBMULTIVERSE_BROWSER="$work/record-browser"
export LANG=C.UTF-8
unset XDG_CURRENT_DESKTOP DESKTOP_SESSION KDE_FULL_SESSION GNOME_DESKTOP_SESSION_ID WAYLAND_DISPLAY
start_private_bus "$work/bus" /usr/share/dbus-1/services
bus_pid=$BUS_PID
export DBUS_SESSION_BUS_ADDRESS="$BUS_ADDRESS"
echo "private bus: $DBUS_SESSION_BUS_ADDRESS"
dbus-monitor --address "$BUS_ADDRESS" "type='signal',interface='com.nobadi.DBMultiverse.Widget1',member='OpenRequested'" \
    > "$work/monitor.log" 2>&1 &
monitor_pid=$!
wait_for 50 grep -q NameAcquired "$work/monitor.log"

/usr/bin/dbmultiverse update --chapter 42 --name "A Packaged Chapter" --progress 35
owner_pid=$(gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
    --method org.freedesktop.DBus.GetConnectionUnixProcessID com.nobadi.DBMultiverse | grep -o '[0-9]\+' | tail -1)
service_exe=$(readlink "/proc/$owner_pid/exe")
echo "com.nobadi.DBMultiverse is process $owner_pid: $service_exe"
check "the bus activated the installed service (/usr/bin/dbmultiverse)" test "$service_exe" = /usr/bin/dbmultiverse
entry=$(/usr/bin/dbmultiverse entry --format json)
echo "entry: $entry"
check "the service serves the stored chapter" grep -q '"chapter":42' <<<"$entry"

step "xdg-open dbmultiverse://chapter/1 through the installed desktop file"
handler=$(xdg-mime query default x-scheme-handler/dbmultiverse)
echo "x-scheme-handler/dbmultiverse: $handler"
check "xdg-mime names the installed desktop file" test "$handler" = com.nobadi.DBMultiverse.desktop
check "the desktop database (dpkg trigger) lists it in /usr/share/applications" \
    grep -q "^x-scheme-handler/dbmultiverse=com.nobadi.DBMultiverse.desktop;" /usr/share/applications/mimeinfo.cache
# A display name so that xdg-open's generic path consults the scheme handlers; nothing connects to it.
DISPLAY=:dbmultiverse-deb-test xdg-open dbmultiverse://chapter/1
if wait_for 150 grep -q 'string "dbmultiverse://chapter/1"' "$work/monitor.log"; then
    pass "OpenRequested(1, dbmultiverse://chapter/1) on the bus"
    grep -A2 "member=OpenRequested" "$work/monitor.log" | sed 's/^/    /'
else
    fail "no OpenRequested for chapter 1"; cat "$work/monitor.log"
fi
if wait_for 150 test -s "$work/browser.log"; then
    echo "browser asked to open: $(cat "$work/browser.log")"
    check "the browser was asked for the comic's site" grep -q "^https://www.dragonball-multiverse.com/en/" "$work/browser.log"
else
    fail "the browser was never started"
fi

step "the stock validators on the installed files"
output=$(desktop-file-validate /usr/share/applications/com.nobadi.DBMultiverse.desktop 2>&1) && [ -z "$output" ] \
    && pass "desktop-file-validate /usr/share/applications/com.nobadi.DBMultiverse.desktop" \
    || fail "desktop-file-validate: $output"
units=(/usr/lib/systemd/user/dbmultiverse*)
echo "user units: ${units[*]}"
output=$(systemd-analyze --user verify "${units[@]}" 2>&1) && [ -z "$output" ] \
    && pass "systemd-analyze --user verify (${#units[@]} units)" || fail "systemd-analyze verify: $output"
enabled=$(find /etc/systemd/user -name 'dbmultiverse*' 2>/dev/null || true)
check "no unit is enabled for the users (dh_installsystemduser --no-enable)" test -z "$enabled"
for unit in "${units[@]}"; do
    for link in $(sed -n 's|^Documentation=file://||p' "$unit"); do
        check "$(basename "$unit")'s Documentation= file exists ($link)" test -f "$link"
    done
done
check "man -w dbmultiverse finds the man page" test "$(man -w dbmultiverse)" = /usr/share/man/man1/dbmultiverse.1.gz
check "the man page documents the subcommands" grep -q "import-history" <(MANWIDTH=80 man dbmultiverse 2>/dev/null)

step "the browsers' host manifests"
# Each names the installed binary and allows exactly what the source manifest allows (our extension).
for family_manifest in firefox:/usr/lib/mozilla/native-messaging-hosts/com.nobadi.dbmultiverse.json \
                       chromium:/etc/chromium/native-messaging-hosts/com.nobadi.dbmultiverse.json \
                       chromium:/etc/opt/chrome/native-messaging-hosts/com.nobadi.dbmultiverse.json \
                       chromium:/etc/opt/vivaldi/native-messaging-hosts/com.nobadi.dbmultiverse.json \
                       chromium:/etc/opt/edge/native-messaging-hosts/com.nobadi.dbmultiverse.json; do
    family=${family_manifest%%:*} manifest=${family_manifest#*:}
    allowed=$(grep '"allowed_' "desktop/com.nobadi.dbmultiverse.$family.json")
    if [ -f "$manifest" ] && grep -q '"path": "/usr/bin/dbmultiverse"' "$manifest" && grep -qxF "$allowed" "$manifest" \
        && [ "$(grep -c '"allowed_' "$manifest")" -eq 1 ]; then
        pass "$manifest ($(readlink -f "$manifest")): /usr/bin/dbmultiverse,$allowed"
    else
        fail "$manifest"
    fi
done
# The host as Firefox starts it (manifest path, extension id), asked about another site's page:
# a framed error reply, nothing stored.
request='{"type":"page","url":"https://example.com/en/page-1.html"}'
stored=$(ls -l --time-style=full-iso "$work/data")
length=${#request}
reply=$({ printf "\\x$(printf %02x $((length & 255)))\\x$(printf %02x $((length >> 8)))\\x00\\x00"; printf '%s' "$request"; } \
    | /usr/bin/dbmultiverse /usr/lib/mozilla/native-messaging-hosts/com.nobadi.dbmultiverse.json dbmultiverse@nobadi.com \
    | tail -c +5)
echo "host reply: $reply"
check "the installed host answers a framed request with an error for another site" grep -q '"ok":false' <<<"$reply"
check "and stores nothing" test "$(ls -l --time-style=full-iso "$work/data")" = "$stored"

step "what the binary loads with dlopen is declared by its Debian package"
declared="$(dpkg-deb -f "$deb" Depends), $(dpkg-deb -f "$deb" Recommends)"
declares() { [ -n "$1" ] && grep -qE "(^|[ ,|])$1([ ,(]|$)" <<<"$declared"; }
sonames=$(strings /usr/bin/dbmultiverse | grep -E '^lib(curl|xml2|jpeg|png[0-9]*)\.so\.[0-9]+$' | sort -u || true)
check "the binary names the four libraries it loads (libcurl, libxml2, libjpeg, libpng)" test "$(wc -w <<<"$sonames")" -eq 4
for soname in $sonames; do
    path=$(ldconfig -p | awk -v name="$soname" -v dir="/$(dpkg-architecture -qDEB_HOST_MULTIARCH)/" \
        '$1 == name && index($NF, dir) { print $NF; exit }')
    owner=$(dpkg -S "$(readlink -f "$path")" 2>/dev/null | cut -d: -f1 || true)
    check "$soname is ${owner:-no package}'s, named in Depends or Recommends" declares "$owner"
done

step "the maintainer scripts never touch a user's files"
dpkg-deb -e "$deb" "$work/control"
check "no maintainer script names HOME, /home or .local" \
    test -z "$(grep -lE 'HOME|/home|\.local' "$work"/control/{preinst,postinst,prerm,postrm} 2>/dev/null)"

step "lintian"
cp "$deb" "$work/"
lintian_output=$(runuser -u nobody -- env HOME="$work" lintian "$work/$(basename "$deb")" 2>&1) && [ -z "$lintian_output" ] \
    && pass "lintian $(basename "$deb"): no tags (overrides: debian/dbmultiverse.lintian-overrides)" \
    || fail "lintian: $lintian_output"

step "apt-get remove $package"
kill "$monitor_pid" 2>/dev/null; wait "$monitor_pid" 2>/dev/null || true; monitor_pid=""
kill "$bus_pid"; bus_pid=""
# The service exits when its bus goes away; wait for it so that nothing of the package still runs.
wait_for 100 sh -c "! kill -0 $owner_pid" || fail "the service outlived its bus"
apt-get remove -y "$package" 2>&1 | grep -E "^(Removing|Processing triggers|[0-9]+ upgraded)" || true
files > "$work/removed.files"
leftovers=$(diff "$work/before.files" "$work/removed.files" | grep '^[<>]' || true)
if [ -z "$leftovers" ]; then
    pass "after remove, /usr and /etc are as before ($(wc -l < "$work/before.files") entries)"
else
    fail "after remove, /usr or /etc changed:"; sed 's/^/    /' <<<"$leftovers"
fi
echo "dpkg status after remove: $(dpkg-query -W -f '${db:Status-Abbrev}' "$package")(its postrm waits for purge)"
kept=$(diff "$work/before.state" <(unit_state) | sed -n 's/^> /    /p' || true)
echo "deb-systemd-helper's state kept for purge:"
echo "${kept:-    (none)}"

step "apt-get purge $package"
apt-get purge -y "$package" 2>&1 | grep -E "^(Purging|[0-9]+ upgraded)" || true
installed=no
files > "$work/after.files"
check "after purge, /usr and /etc are as before" diff "$work/before.files" "$work/after.files"
check "deb-systemd-helper's state is as before" diff "$work/before.state" <(unit_state)
check "the installed packages are as before ($package unknown to dpkg)" diff "$work/before.packages" <(packages)

printf '\n%d passed, %d failed (%d s)\n' "$passes" "$failures" $((SECONDS - started))
[ "$failures" -eq 0 ]
