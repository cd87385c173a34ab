#!/usr/bin/env bash
# The Debian package on this machine (issues 17 and 24, docs/install.md#debian-package): installs the .deb with apt-get,
# then uses what it installed — the binary started by D-Bus activation from /usr/share/dbus-1/services
# on a private bus, `xdg-open dbmultiverse://chapter/1` through the installed desktop file, the
# browsers' host manifests, the man page, the completions — and checks that installing is all it
# takes: Firefox ESR (a new profile and one that existed before the install) and Chromium (through
# Debian's /usr/bin/chromium) each load the extension from the package's folders and move the
# widget when they open a comic page (scripts/packaging/deb-test-browsers.sh), with nothing loaded by the
# test; the notifier starts exactly once at graphical login (its unit enabled for every user, its
# autostart entry hidden where the unit runs) and the timer is on; an admin's off switch survives
# an upgrade. The stock tools check it (desktop-file-validate, systemd-analyze verify, appstreamcli,
# lintian). Then `apt-get remove` (nothing left in /usr, nothing enabled, no extension in the
# browsers; only the conffiles and deb-systemd-helper's links, both inert, until purge) and
# `apt-get purge` (/usr and /etc as before), and the test's home untouched by either.
#
# Usage: scripts/packaging/deb-test.sh PACKAGE.deb   (`make deb-test` builds the package first). As root: it
# installs a package. It never leaves the package installed: the removal also runs on failure.
# Screenshots of the browsers stay in SCREENSHOT_DIR (default: a new /tmp/dbm-deb-shots.*); the
# lintian run also checks the source package beside PACKAGE.deb when there is one (make dist).
# Not part of `make test` (it changes the machine) nor of CI (a package build is a release build).
set -euo pipefail
cd "$(dirname "$0")/../.."
deb=$(realpath "${1:?usage: $0 PACKAGE.deb}")
[ "$(id -u)" -eq 0 ] || { echo "deb-test.sh: run as root (it installs $deb)" >&2; exit 2; }
package=$(dpkg-deb -f "$deb" Package)
version=$(dpkg-deb -f "$deb" Version)
autostart=/etc/xdg/autostart/com.nobadi.DBMultiverse.Notifier.desktop
if dpkg-query -W -f '${Status}' "$package" 2>/dev/null | grep -q "installed"; then
    echo "deb-test.sh: $package is installed already; remove it first" >&2
    exit 2
fi
for tool in dbus-daemon dbus-monitor gdbus xdg-open xdg-mime desktop-file-validate systemd-analyze lintian appstreamcli \
    Xvfb import firefox-esr chromium python3; do
    command -v "$tool" >/dev/null || { echo "deb-test.sh: $tool is missing (scripts/test/install-deps.sh deb installs it)" >&2; exit 2; }
done

source scripts/lib/bounded-wait.sh
source scripts/lib/private-bus.sh
source scripts/packaging/deb-test-browsers.sh

work=$(mktemp -d /tmp/dbm-deb-test.XXXXXX)
chmod 755 "$work"
shots=${SCREENSHOT_DIR:-$(mktemp -d /tmp/dbm-deb-shots.XXXXXX)}
mkdir -p "$shots"
installed=no
bus_pid=""
monitor_pid=""
passes=0
failures=0
cleanup() {
    local status=$?
    browsers_stop
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

# The test's home (every process below runs with it), and the browsers' side that exists before
# the package: the fixture site, a display, an existing Firefox ESR profile.
mkdir -p "$work/home/.config" "$work/home/.local/share" "$work/data" "$work/run" "$work/bus"
chmod 700 "$work/run"
browsers_prepare

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
check "the bus activated the installed service (/usr/libexec/dbmultiverse/dbmultiverse-service)" \
    test "$service_exe" = /usr/libexec/dbmultiverse/dbmultiverse-service
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

browsers_visit

step "dbmultiverse doctor on the installed package"
doctor=$(/usr/bin/dbmultiverse doctor 2>&1) && doctor_status=0 || doctor_status=$?
printf '%s\n' "$doctor" | sed 's/^/    /'
check "doctor says the essentials work (exit 0)" test "$doctor_status" -eq 0
# After the browsers' visits: each extension talked to the host, through the system manifests.
check "doctor: Firefox ESR's extension talked to the host, through the system manifest" \
    grep -q '^✓ browser firefox-esr: host manifest /usr/lib/mozilla/native-messaging-hosts/com.nobadi.dbmultiverse.json ✓, the extension last talked' <<<"$doctor"
check "doctor: Chromium's too" \
    grep -q '^✓ browser chromium: host manifest /etc/chromium/native-messaging-hosts/com.nobadi.dbmultiverse.json ✓, the extension last talked' <<<"$doctor"

step "the stock validators on the installed files"
output=$(desktop-file-validate /usr/share/applications/com.nobadi.DBMultiverse.desktop 2>&1) && [ -z "$output" ] \
    && pass "desktop-file-validate /usr/share/applications/com.nobadi.DBMultiverse.desktop" \
    || fail "desktop-file-validate: $output"
output=$(desktop-file-validate "$autostart" 2>&1) && [ -z "$output" ] \
    && pass "desktop-file-validate $autostart" || fail "desktop-file-validate: $output"
units=(/usr/lib/systemd/user/dbmultiverse*)
echo "user units: ${units[*]}"
output=$(systemd-analyze --user verify "${units[@]}" 2>&1) && [ -z "$output" ] \
    && pass "systemd-analyze --user verify (${#units[@]} units)" || fail "systemd-analyze verify: $output"
output=$(appstreamcli validate --no-net /usr/share/metainfo/com.nobadi.DBMultiverse.metainfo.xml 2>&1) \
    && pass "appstreamcli validate --no-net: $(tail -n 1 <<<"$output")" || fail "appstreamcli validate: $output"
for unit in "${units[@]}"; do
    for link in $(sed -n 's|^Documentation=file://||p' "$unit"); do
        check "$(basename "$unit")'s Documentation= file exists ($link)" test -f "$link"
    done
done
check "man -w dbmultiverse finds the man page" test "$(man -w dbmultiverse)" = /usr/share/man/man1/dbmultiverse.1.gz
check "the man page documents the subcommands" grep -q "import-history" <(MANWIDTH=80 man dbmultiverse 2>/dev/null)

step "the completions swift-argument-parser wrote (bash runs its own; zsh's and fish's are checked by name)"
completion=$(bash -c 'source /usr/share/bash-completion/completions/dbmultiverse
    COMP_WORDS=(dbmultiverse imp); COMP_CWORD=1; COMP_LINE="dbmultiverse imp"; COMP_POINT=${#COMP_LINE}
    _dbmultiverse dbmultiverse imp dbmultiverse; echo "${COMPREPLY[*]}"' 2>&1)
check "bash completes 'dbmultiverse imp' to import-history (got: $completion)" test "$completion" = import-history
check "zsh's is a #compdef dbmultiverse function" test "$(head -n 1 /usr/share/zsh/vendor-completions/_dbmultiverse)" = "#compdef dbmultiverse"
check "fish's completes the import-history subcommand" grep -q "^complete -c 'dbmultiverse' .* -fa 'import-history'" /usr/share/fish/vendor_completions.d/dbmultiverse.fish

step "at graphical login: the notifier exactly once, the timer on"
# Sessions managed by the systemd user instance start graphical-session.target: the unit, enabled
# for every user, runs the notifier there.
for unit_target in dbmultiverse-notifier.service:graphical-session.target dbmultiverse-sync.timer:timers.target; do
    unit=${unit_target%%:*} target=${unit_target#*:}
    check "systemctl --global is-enabled $unit: enabled" test "$(systemctl --global is-enabled "$unit" 2>&1)" = enabled
    check "$unit is wanted by $target for every user (/etc/systemd/user/$target.wants)" \
        test "$(readlink "/etc/systemd/user/$target.wants/$unit")" = "/usr/lib/systemd/user/$unit"
done
# systemd-xdg-autostart-generator (what Plasma's systemd startup and other systemd sessions run the
# autostart entries with) on the installed autostart folders: no unit for our entry, so no second
# copy. The same entry without X-systemd-skip does get one: the check can fail.
generate() { # AUTOSTART_CONFIG_DIR OUTPUT_DIR: the generator's units for the autostart entries there
    mkdir -p "$2"
    env XDG_CONFIG_DIRS="$1" XDG_CONFIG_HOME="$work/home/.config" /usr/lib/systemd/user-generators/systemd-xdg-autostart-generator "$2" "$2" "$2"
    grep -l "SourcePath=.*com.nobadi.DBMultiverse.Notifier.desktop" "$2"/*.service 2>/dev/null || true
}
generated=$(generate /etc/xdg "$work/generated")
check "the generator makes no unit for $autostart (X-systemd-skip)" test -z "$generated"
mkdir -p "$work/control/autostart"
grep -v '^X-systemd-skip=' "$autostart" > "$work/control/autostart/com.nobadi.DBMultiverse.Notifier.desktop"
generated=$(generate "$work/control" "$work/generated-control")
check "control: without X-systemd-skip it makes one ($(basename "${generated:-none}"))" test -n "$generated"
# gnome-session 43 (Debian 12) skips an autostart entry with X-GNOME-HiddenUnderSystemd=true when
# it runs under systemd (gsm-autostart-app.c: is_disabled, mask_systemd = systemd_managed), and runs
# it otherwise, when nothing starts graphical-session.target. XFCE 4.18 (xfsm-global.c) honours
# Hidden, OnlyShowIn, NotShowIn, TryExec and never starts graphical-session.target: it runs the entry.
check "the entry has X-GNOME-HiddenUnderSystemd=true (gnome-session under systemd skips it)" grep -qx "X-GNOME-HiddenUnderSystemd=true" "$autostart"
check "the entry has no OnlyShowIn/NotShowIn/Hidden (XFCE and the other desktops run it)" sh -c "! grep -qE '^(OnlyShowIn|NotShowIn|Hidden)=' '$autostart'"
check "the entry runs the installed notifier" grep -qx "Exec=/usr/bin/dbmultiverse notifier" "$autostart"
check "the unit stops with the graphical session (PartOf=graphical-session.target)" \
    grep -qx "PartOf=graphical-session.target" /usr/lib/systemd/user/dbmultiverse-notifier.service

step "an admin's off switch survives an upgrade"
systemctl --global disable dbmultiverse-sync.timer 2>&1 | sed 's/^/    /'
dpkg -i "$deb" 2>&1 | grep -E "^(Unpacking|Setting up)" || true
check "after dpkg -i, the timer is still disabled" test "$(systemctl --global is-enabled dbmultiverse-sync.timer 2>&1)" = disabled
check "and the notifier still enabled" test "$(systemctl --global is-enabled dbmultiverse-notifier.service 2>&1)" = enabled
systemctl --global enable dbmultiverse-sync.timer 2>&1 | sed 's/^/    /'

step "the browsers' host manifests"
# Each names the installed binary and allows exactly what the source manifest allows (our extension).
for family_manifest in firefox:/usr/lib/mozilla/native-messaging-hosts/com.nobadi.dbmultiverse.json \
                       chromium:/etc/chromium/native-messaging-hosts/com.nobadi.dbmultiverse.json \
                       chromium:/etc/opt/chrome/native-messaging-hosts/com.nobadi.dbmultiverse.json \
                       chromium:/etc/opt/vivaldi/native-messaging-hosts/com.nobadi.dbmultiverse.json \
                       chromium:/etc/opt/edge/native-messaging-hosts/com.nobadi.dbmultiverse.json; do
    family=${family_manifest%%:*} manifest=${family_manifest#*:}
    allowed=$(grep '"allowed_' "desktop/com.nobadi.dbmultiverse.$family.json")
    if [ -f "$manifest" ] && grep -q '"path": "/usr/libexec/dbmultiverse/dbmultiverse-browser-host"' "$manifest" && grep -qxF "$allowed" "$manifest" \
        && [ "$(grep -c '"allowed_' "$manifest")" -eq 1 ]; then
        pass "$manifest ($(readlink -f "$manifest")): /usr/libexec/dbmultiverse/dbmultiverse-browser-host,$allowed"
    else
        fail "$manifest"
    fi
done
# The host as Firefox starts it (manifest path, extension id), asked about another site's page:
# a framed error reply, nothing stored but the note of the extension's visit (for doctor).
request='{"type":"page","url":"https://example.com/en/page-1.html"}'
stored_pages() { find "$work/data" -mindepth 1 -maxdepth 1 ! -name browserContacts.json -printf '%f %s %T@\n' | sort; }
stored=$(stored_pages)
length=${#request}
reply=$({ printf "\\x$(printf %02x $((length & 255)))\\x$(printf %02x $((length >> 8)))\\x00\\x00"; printf '%s' "$request"; } \
    | /usr/libexec/dbmultiverse/dbmultiverse-browser-host /usr/lib/mozilla/native-messaging-hosts/com.nobadi.dbmultiverse.json dbmultiverse@nobadi.com \
    | tail -c +5)
echo "host reply: $reply"
check "the installed host answers a framed request with an error for another site" grep -q '"ok":false' <<<"$reply"
check "and stores nothing" test "$(stored_pages)" = "$stored"
check "but notes that Firefox's extension talked to the host" grep -q '"firefox":{"at":' "$work/data/browserContacts.json"

step "the cards, system-wide: the user's one step is to turn them on"
extension=/usr/share/gnome-shell/extensions/dbmultiverse@nobadi.com
check "the GNOME Shell extension is in $extension, built for Debian 12's GNOME 43–44" \
    grep -q '"shell-version": \[ *"43", *"44" *\]' "$extension/metadata.json"
plasmoid=/usr/share/plasma/plasmoids/com.nobadi.dbmultiverse
check "the Plasma widget is in $plasmoid and runs the installed binary" grep -q '"/usr/bin/dbmultiverse"' "$plasmoid/contents/ui/main.qml"

step "what the binary loads with dlopen is declared by its Debian package"
libraries=$(./scripts/packaging/dlopen-check.sh "$deb") && declared=yes || declared=no
sed 's/^/  /' <<<"$libraries"
check "the four libraries the binaries load (libcurl, libxml2, libjpeg, libpng) are in Depends or Recommends" test "$declared" = yes

step "the maintainer scripts never touch a user's files"
dpkg-deb -e "$deb" "$work/control"
check "no maintainer script names HOME, /home or .local" \
    test -z "$(grep -lE 'HOME|/home|\.local' "$work"/control/{preinst,postinst,prerm,postrm} 2>/dev/null)"

step "lintian"
mkdir -p "$work/lintian"
cp "$deb" "$work/lintian/"
lint=("$work/lintian/$(basename "$deb")")
source_package="$(dirname "$deb")/${package}_$version.dsc"
if [ -f "$source_package" ]; then
    cp "$source_package" "$(dirname "$deb")/${package}_$version.tar.xz" "$work/lintian/"
    lint+=("$work/lintian/$(basename "$source_package")")
fi
chmod -R a+rX "$work/lintian"
for file in "${lint[@]}"; do
    lintian_output=$(runuser -u nobody -- env HOME="$work/lintian" lintian "$file" 2>&1) && [ -z "$lintian_output" ] \
        && pass "lintian $(basename "$file"): no tags (overrides: debian/dbmultiverse.lintian-overrides)" \
        || fail "lintian $(basename "$file"): $lintian_output"
done

step "apt-get remove $package"
kill "$monitor_pid" 2>/dev/null; wait "$monitor_pid" 2>/dev/null || true; monitor_pid=""
kill "$bus_pid"; bus_pid=""
# The service exits when its bus goes away; wait for it so that nothing of the package still runs.
wait_for 100 sh -c "! kill -0 $owner_pid" || fail "the service outlived its bus"
home_files() { find "$work/home" -printf '%y %p %s %T@\n' | LC_ALL=C sort; }
home_files > "$work/home.before-remove"
conffiles=$(dpkg-query -W -f '${Conffiles}' "$package" | awk 'NF { print $1 }')
apt-get remove -y "$package" 2>&1 | grep -E "^(Removing|Processing triggers|[0-9]+ upgraded)" || true
files > "$work/removed.files"
echo "dpkg status after remove: $(dpkg-query -W -f '${db:Status-Abbrev}' "$package")(its conffiles and postrm wait for purge)"
leftovers=$(diff "$work/before.files" "$work/removed.files" | grep '^[<>]' || true)
nothing_under_usr() { ! grep -q '^[<>] [a-z] /usr' <<<"$leftovers"; }
check "after remove, /usr is as before" nothing_under_usr
# What Debian keeps until purge, none of which starts anything: the conffiles (the autostart entry,
# whose TryExec names the removed binary; Firefox's pref file), and deb-systemd-helper's links in
# /etc/systemd/user, which point at the removed units (with the folders they are in).
unexpected=""
while read -r kind path; do
    case "$kind $path" in
        "f "*) grep -qxF "$path" <<<"$conffiles" || unexpected+="$kind $path"$'\n' ;;
        "l /etc/systemd/user/"*) [ ! -e "$path" ] || unexpected+="$kind $path (resolves)"$'\n' ;;
        "d /etc/systemd/user/"*|"d /etc/xdg/autostart"|"d /etc/firefox-esr") ;;
        *) unexpected+="$kind $path"$'\n' ;;
    esac
done < <(sed -n 's/^> //p' <<<"$leftovers")
removed_paths=$(sed -n 's/^< //p' <<<"$leftovers")
if [ -z "$unexpected" ] && [ -z "$removed_paths" ]; then
    pass "after remove, /etc keeps only the conffiles and the dangling unit links:"
    sed -n 's/^> /    /p' <<<"$leftovers"
else
    fail "after remove, /etc has more (or less) than the conffiles and dangling links:"
    printf '%s%s\n' "$unexpected" "$removed_paths" | sed 's/^/    /'
fi
for folder in "$firefox_extension" /usr/share/chromium/extensions/dbmultiverse /usr/share/chromium/extensions; do
    check "no $folder, and dpkg -S knows none" sh -c "[ ! -e '$folder' ] && ! dpkg -S '$folder' >/dev/null 2>&1"
done
for unit in dbmultiverse-notifier.service dbmultiverse-sync.timer; do
    state=$(systemctl --global is-enabled "$unit" 2>&1 || true)
    check "systemctl --global is-enabled $unit: not enabled ($state)" sh -c "[ '$state' != enabled ]"
done
generated=$(generate /etc/xdg "$work/generated-removed")
check "the generator makes no unit for the kept autostart entry" test -z "$generated"
grep -v '^X-systemd-skip=' "$autostart" > "$work/control/autostart/com.nobadi.DBMultiverse.Notifier.desktop"
generated=$(generate "$work/control" "$work/generated-control-removed")
check "nor for it without X-systemd-skip: TryExec=/usr/bin/dbmultiverse is gone" test -z "$generated"
check "the test's home is as before the removal" diff "$work/home.before-remove" <(home_files)
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
check "dpkg -L $package knows nothing" sh -c "! dpkg -L '$package' >/dev/null 2>&1"
check "the test's home is as before the removal" diff "$work/home.before-remove" <(home_files)
echo "screenshots: $shots"

printf '\n%d passed, %d failed (%d s)\n' "$passes" "$failures" $((SECONDS - started))
[ "$failures" -eq 0 ]
