#!/usr/bin/env bash
# The package's life on a reader's machine (docs/install.md), in a throw-away copy of a release's
# chroot (scripts/real-hosts/release-chroot.sh), as root, with apt-get:
#   install the previous version → a reader's session (a private session bus, the notifier started
#   as the autostart entry starts it, the service by D-Bus activation, a chapter, settings, a
#   catalogue and the browsers' contact record stored) → upgrade → the notifier runs the installed
#   binary within 10 s (the same process), the service ends and the bus starts the installed one →
#   the reader's files and position kept → downgrade (the same again) → remove: nothing of ours runs
#   within 10 s, the service no longer answers → purge: no file or folder of the package's is left,
#   the reader's data folder is.
# Then what is not the package's at a card's place (another extension's folder, a folder at
# LINK.new, an admin's link to a checkout, a plasmoids folder that is a link elsewhere) is left as it
# is by install and purge, which succeed and say so, and so does doctor; a gnome-shell that hangs
# costs the install, the dpkg trigger and doctor their deadline only and leaves nothing running; a
# root apt run with a user's HOME (su without -) writes nothing in that home.
#
#   scripts/real-hosts/release-lifecycle-check.sh RELEASE PREVIOUS.deb CURRENT.deb
# PREVIOUS and CURRENT are two versions of the package (scripts/packaging/package-qa.sh makes the
# previous one). Prints one line per check ("ok: …" or "FAIL: …"); exit status 0 when every check
# passed, 1 otherwise, 2 bad usage.
set -uo pipefail
cd "$(dirname "$0")/../.."
[ "$(id -u)" -eq 0 ] || { echo "FAIL: the release checks need root (chroot, mounts)" >&2; exit 1; }

if [ "${4:-}" != --inside ]; then
    [ $# -eq 3 ] && [ -f "$2" ] && [ -f "$3" ] || { echo "usage: $0 RELEASE PREVIOUS.deb CURRENT.deb" >&2; exit 2; }
    release=$1
    debs="$(mktemp -d /tmp/dbm-lifecycle-debs.XXXXXX)"
    trap 'rm -rf "$debs"' EXIT
    cp "$2" "$debs/previous.deb"
    cp "$3" "$debs/current.deb"
    ./scripts/real-hosts/release-chroot.sh prepare "$release" >&2 || { echo "FAIL: no $release chroot (above)"; exit 1; }
    echo "release: $release; previous: $(dpkg-deb -f "$2" Version), current: $(dpkg-deb -f "$3" Version)"
    ./scripts/real-hosts/release-chroot.sh run "$release" --bind "$PWD:$PWD" --bind "$debs:/debs" -- \
        env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 "$PWD/scripts/real-hosts/release-lifecycle-check.sh" "$release" /debs/previous.deb /debs/current.deb --inside
    exit $?
fi

# ---- inside the chroot -------------------------------------------------------------------------
# shellcheck source=scripts/lib/bounded-wait.sh
. "$PWD/scripts/lib/bounded-wait.sh"
previous=$2 current=$3
failures=0
ok() { echo "ok: $*"; }
fail() { echo "FAIL: $*"; failures=$((failures + 1)); }
# check DESCRIPTION COMMAND...: ok or FAIL, by COMMAND's status.
check() { local what=$1; shift; if "$@"; then ok "$what"; else fail "$what"; fi; }
export DEBIAN_FRONTEND=noninteractive
# apt_get ARGUMENTS...: apt-get, its output in /tmp/apt.log; when it fails, the end of it.
apt_get() {
    apt-get -y -q -o Dpkg::Use-Pty=0 "$@" >/tmp/apt.log 2>&1 && return 0
    local status=$?
    tail -12 /tmp/apt.log | sed 's/^/    apt: /'
    return "$status"
}
libexec=/usr/libexec/dbmultiverse
extension=/usr/share/gnome-shell/extensions/dbmultiverse@nobadi.com
plasmoid=/usr/share/plasma/plasmoids/com.nobadi.dbmultiverse
version_of() { dpkg-query -W -f '${Version}' dbmultiverse 2>/dev/null; }
healthy() { [ -z "$(dpkg --audit 2>&1)" ]; }
# doctor's card lines (and their fixes), as it printed them.
doctor_cards() { grep -A1 -E "^. (GNOME Shell extension|Plasma widget):" /tmp/doctor.log | grep -v '^--$' | sed 's/^/    doctor: /'; }

# What the file system holds outside the places that change by themselves (and the reader's home).
snapshot() {
    find / -xdev \( -path /proc -o -path /sys -o -path /dev -o -path /run -o -path /tmp -o -path /home \
        -o -path /root -o -path /var/lib/dpkg -o -path /var/lib/apt -o -path /var/cache -o -path /var/log \
        -o -path /debs -o -path "$PWD" -o -path /etc/ld.so.cache \) -prune -o -print 2>/dev/null | sort
}

# ---- the reader and their session --------------------------------------------------------------
useradd -m -s /bin/sh reader
snapshot >/tmp/before-install.list
uid=$(id -u reader)
runtime=/run/user/$uid
install -d -m 700 -o reader -g reader "$runtime"
bus="unix:path=$runtime/bus"
# as_reader COMMAND...: COMMAND as the reader, in the session's environment.
as_reader() {
    runuser -u reader -- env -i HOME=/home/reader USER=reader LANG=C.UTF-8 PATH=/usr/local/bin:/usr/bin:/bin \
        XDG_RUNTIME_DIR="$runtime" DBUS_SESSION_BUS_ADDRESS="$bus" "$@"
}
start_session() {
    as_reader dbus-daemon --session --address="$bus" --fork --print-pid >/tmp/bus.pid 2>/tmp/bus.log
}
# The notifier, as the autostart entry starts it (Exec=/usr/bin/dbmultiverse notifier).
start_notifier() {
    as_reader setsid /usr/bin/dbmultiverse notifier >>/tmp/notifier.log 2>&1 </dev/null &
    wait_for 100 owner_pid com.nobadi.DBMultiverse.Notifier
}
# owner_pid NAME: the pid of the connection owning NAME on the session bus (fails when none).
owner_pid() {
    local reply
    reply=$(as_reader gdbus call --session --dest org.freedesktop.DBus --object-path /org/freedesktop/DBus \
        --method org.freedesktop.DBus.GetConnectionUnixProcessID "$1" 2>/dev/null) || return 1
    reply=${reply#(uint32 }
    echo "${reply%,)}"
}
# runs_installed PID PROGRAM: PID runs the file installed at $libexec/PROGRAM now.
runs_installed() {
    [ -e "/proc/$1/exe" ] && [ -e "$libexec/$2" ] && [ "$(stat -L -c %d:%i "/proc/$1/exe")" = "$(stat -c %d:%i "$libexec/$2")" ]
}
# ours_running: the processes that run one of the package's executables.
ours_running() {
    local exe
    for exe in /proc/[0-9]*/exe; do
        case "$(readlink "$exe" 2>/dev/null)" in "$libexec"/*|/usr/bin/dbmultiverse*) echo "${exe%/exe}" ;; esac
    done
}
nothing_of_ours_runs() { [ -z "$(ours_running)" ]; }
gone() { [ ! -e "/proc/$1" ]; }
service_replaced() { gone "$1" || runs_installed "$1" dbmultiverse-service; }

# The reader's files, which no maintainer script touches: settings, a catalogue, the browsers'
# contact record; the chapter and its progress go through the service.
store_reader_files() {
    as_reader sh -c 'mkdir -p ~/.config/dbmultiverse ~/.local/share/dbmultiverse && chmod 700 ~/.local/share/dbmultiverse
        printf "# my settings\nlanguage = en\n" >~/.config/dbmultiverse/config
        printf "%s\n" "{\"language\": \"en\", \"latestPage\": 990, \"chapters\": [{\"number\": 42, \"name\": \"Goku & Vegeta Unite!\", \"startPage\": 950, \"endPage\": 990, \"universe\": null, \"thumbnailURL\": \"https://www.dragonball-multiverse.com/en/pages/final/0950.jpg\"}], \"fetch\": {\"url\": \"https://www.dragonball-multiverse.com/en/chapters.html\", \"etag\": null, \"lastModified\": null, \"fetchedAt\": 1795640000}}" >~/.local/share/dbmultiverse/chapters-en.json
        printf "%s\n" "{\"firefox\": {\"at\": 1795640000, \"browser\": \"firefox-esr\"}}" >~/.local/share/dbmultiverse/browserContacts.json'
    as_reader dbmultiverse update --chapter 42 --name "Goku & Vegeta Unite!" --progress 35 >/tmp/update.log 2>&1
}
reader_files() {
    (cd /home/reader && sha256sum .config/dbmultiverse/config .local/share/dbmultiverse/chapters-en.json \
        .local/share/dbmultiverse/browserContacts.json .local/share/dbmultiverse/currentChapterData.json 2>&1)
}
position_kept() { [ "$(as_reader dbmultiverse entry 2>&1)" = "Chapter 42: Goku & Vegeta Unite! — 35% read" ]; }
links_are() { [ "$(readlink "$extension")" = "../../dbmultiverse/cards/$1" ] && [ "$(readlink "$plasmoid")" = "../../dbmultiverse/cards/$2" ]; }
case "$1" in
    bookworm) builds="gnome-shell-43 plasma-5" ;;
    trixie) builds="gnome-shell-45 plasma-6" ;;
    *) builds="gnome-shell-45 plasma-6" ;; # sid: GNOME 51, no Plasma (the Plasma 6 build is the default)
esac

# change_to DEB VERB: apt-get installs DEB (an upgrade or downgrade); then what runs is replaced.
change_to() {
    local deb=$1 verb=$2 notifier service before
    notifier=$(owner_pid com.nobadi.DBMultiverse.Notifier) service=$(owner_pid com.nobadi.DBMultiverse)
    before=$(reader_files)
    check "$verb to $(dpkg-deb -f "$deb" Version): apt-get exits 0, dpkg healthy" eval 'apt_get install --allow-downgrades "$deb" && healthy'
    check "$verb: the cards are linked again ($builds)" links_are $builds
    check "$verb: the notifier (pid $notifier) runs the installed binary within 10 s, in the same process" \
        wait_for 100 runs_installed "$notifier" dbmultiverse-notifier
    check "$verb: the notifier owns its name again" eval '[ "$(owner_pid com.nobadi.DBMultiverse.Notifier)" = "$notifier" ]'
    check "$verb: the service that ran (pid $service) ended or runs the installed binary within 10 s" wait_for 100 service_replaced "$service"
    check "$verb: the reading position is kept (Ch. 42 · 35%), the service answering" position_kept
    local answering
    answering=$(owner_pid com.nobadi.DBMultiverse)
    check "$verb: the service that answers (pid $answering) runs the installed binary" runs_installed "$answering" dbmultiverse-service
    check "$verb: the settings, catalogue, contact record and chapter files are unchanged" eval '[ "$(reader_files)" = "$before" ]'
    as_reader dbmultiverse doctor >/tmp/doctor.log 2>&1
    check "$verb: doctor: ✓ notifier: running (pid $notifier)" grep -qx "✓ notifier: running (pid $notifier)" /tmp/doctor.log
    check "$verb: doctor: the service line names the installed binary, not a replaced one" \
        eval 'grep "^✓ service:" /tmp/doctor.log | grep -q "; $libexec/dbmultiverse-service $(dbmultiverse --version)\$"'
}

# ---- install, upgrade, downgrade, remove, purge -------------------------------------------------
check "install $(dpkg-deb -f "$previous" Version): apt-get exits 0, dpkg healthy" eval 'apt_get install "$previous" && healthy'
check "install: the cards are linked ($builds)" links_are $builds
start_session
store_reader_files
check "a chapter stored through the service (dbmultiverse update)" position_kept
check "the notifier starts as its autostart entry starts it" start_notifier
check "the service started by D-Bus activation" eval 'owner_pid com.nobadi.DBMultiverse >/dev/null'

change_to "$current" upgrade
change_to "$previous" downgrade
change_to "$current" upgrade

before=$(reader_files)
notifier=$(owner_pid com.nobadi.DBMultiverse.Notifier)
check "remove: apt-get exits 0, dpkg healthy" eval 'apt_get remove dbmultiverse && healthy'
check "remove: nothing of the package's runs within 10 s (the notifier, pid $notifier, and the service end)" wait_for 100 nothing_of_ours_runs
check "remove: the service no longer answers" eval '! as_reader dbus-send --session --print-reply --dest=com.nobadi.DBMultiverse / org.freedesktop.DBus.Peer.Ping >/dev/null 2>&1'
check "remove: the cards' links are gone" eval '[ ! -L "$extension" ] && [ ! -L "$plasmoid" ]'
check "purge: apt-get exits 0, dpkg healthy" eval 'apt_get purge dbmultiverse && healthy'
snapshot >/tmp/after-purge.list
check "purge: no file or folder of the package's is left, nothing else is gone" \
    eval 'diff /tmp/before-install.list /tmp/after-purge.list >/tmp/purge.diff'
[ -s /tmp/purge.diff ] && sed 's/^/    /' /tmp/purge.diff | head -20
check "purge: the reader's files are untouched" eval '[ "$(reader_files)" = "$before" ]'
# SIGKILL: a test runner may start this with SIGTERM blocked, and the daemon keeps the mask.
kill -KILL "$(cat /tmp/bus.pid)" 2>/dev/null

# ---- what is not the package's at a card's place -----------------------------------------------
other_metadata='{"uuid": "other@example.org", "name": "Another extension", "shell-version": ["43", "48", "51"]}'
mkdir -p "$extension" "$plasmoid.new"
echo "$other_metadata" >"$extension/metadata.json"
echo "an admin's file" >"$plasmoid.new/keep"
check "another extension's folder at the card's place, a folder at LINK.new: install exits 0, dpkg healthy" \
    eval 'apt_get install "$current" && healthy'
check "  install says it left the folder" grep -q "select-cards: $extension is a folder that is not DBMultiverse's card link" /tmp/apt.log
check "  the other extension's folder is as it was" eval '[ ! -L "$extension" ] && [ "$(cat "$extension/metadata.json")" = "$other_metadata" ]'
check "  the Plasma card is linked, the folder at LINK.new untouched" \
    eval '[ "$(readlink "$plasmoid")" = "../../dbmultiverse/cards/${builds#* }" ] && [ "$(cat "$plasmoid.new/keep")" = "an admin'"'"'s file" ]'
as_reader dbmultiverse doctor >/tmp/doctor.log 2>&1
doctor_cards
check "  doctor says the folder holds another extension, and what to do" \
    eval 'grep -q "^✗ GNOME Shell extension: $extension holds other@example.org, not DBMultiverse'"'"'s card" /tmp/doctor.log && grep -q "fix: move it out of /usr/share/gnome-shell/extensions, then run" /tmp/doctor.log'
check "  purge exits 0 and leaves both folders" \
    eval 'apt_get purge dbmultiverse && healthy && [ "$(cat "$extension/metadata.json")" = "$other_metadata" ] && [ -f "$plasmoid.new/keep" ]'
rm -rf "$extension" "$plasmoid.new"

mkdir -p /srv/checkout/dbmultiverse@nobadi.com /srv/plasmoids /usr/share/gnome-shell/extensions
echo '{"uuid": "dbmultiverse@nobadi.com", "shell-version": ["43", "48", "51"]}' >/srv/checkout/dbmultiverse@nobadi.com/metadata.json
ln -s /srv/checkout/dbmultiverse@nobadi.com "$extension"
plasmoids_before=absent
if [ -d /usr/share/plasma/plasmoids ]; then plasmoids_before=folder; cp -a /usr/share/plasma/plasmoids/. /srv/plasmoids/; rm -rf /usr/share/plasma/plasmoids; fi
mkdir -p /usr/share/plasma
ln -s /srv/plasmoids /usr/share/plasma/plasmoids
check "an admin's link at the card's place, a plasmoids folder that is a link elsewhere: install exits 0, dpkg healthy" \
    eval 'apt_get install "$current" && healthy'
check "  the admin's link is as it was" eval '[ "$(readlink "$extension")" = /srv/checkout/dbmultiverse@nobadi.com ]'
check "  no link that would point nowhere is made in the folder the plasmoids link leads to" eval '[ ! -e /srv/plasmoids/com.nobadi.dbmultiverse ] && [ ! -L /srv/plasmoids/com.nobadi.dbmultiverse ]'
check "  install says it left both" eval 'grep -q "is a link to /srv/checkout/dbmultiverse@nobadi.com, not one of select-cards'"'"' own" /tmp/apt.log && grep -q "leads to /srv/plasmoids through a link" /tmp/apt.log'
as_reader dbmultiverse doctor >/tmp/doctor.log 2>&1
doctor_cards
check "  doctor names the admin's link" grep -q "GNOME Shell extension: installed in $extension, a link of your own to /srv/checkout/dbmultiverse@nobadi.com" /tmp/doctor.log
if command -v plasmashell >/dev/null; then
    check "  doctor says the plasmoids folder leads elsewhere, with the link to make" \
        eval 'grep -q "^✗ Plasma widget: not installed: /usr/share/plasma/plasmoids leads to /srv/plasmoids through a link" /tmp/doctor.log && grep -q "fix: sudo ln -s /usr/share/dbmultiverse/cards/plasma-[56] /srv/plasmoids/com.nobadi.dbmultiverse" /tmp/doctor.log'
fi
check "  purge exits 0 and leaves the admin's link and the plasmoids link" \
    eval 'apt_get purge dbmultiverse && healthy && [ "$(readlink "$extension")" = /srv/checkout/dbmultiverse@nobadi.com ] && [ "$(readlink /usr/share/plasma/plasmoids)" = /srv/plasmoids ]'
rm -f "$extension" /usr/share/plasma/plasmoids
if [ "$plasmoids_before" = folder ]; then mv /srv/plasmoids /usr/share/plasma/plasmoids; fi
rm -rf /srv/checkout /srv/plasmoids

# ---- a root apt run with a user's HOME; a gnome-shell that hangs ---------------------------------
check "apt-get install as root with the reader's HOME (su without -): exits 0" eval 'HOME=/home/reader apt_get install "$current" && healthy'
check "  nothing is written in the reader's home (no root-owned ~/.cache)" eval '[ -z "$(find /home/reader -user root)" ] && [ ! -e /home/reader/.cache ]'
cp -a /usr/bin/gnome-shell /tmp/gnome-shell.real
# A sleep of this run's own length (the chroot shares the machine's processes: another release's
# check, run at the same time, has a hung gnome-shell of its own).
hang="3600.$$$RANDOM"
printf '#!/bin/sh\nexec sleep %s\n' "$hang" >/usr/bin/gnome-shell
started=$SECONDS
check "a gnome-shell that hangs: apt-get install --reinstall exits 0 within 60 s, dpkg healthy" \
    eval 'timeout 60 apt-get -y -q install --reinstall "$current" >/tmp/apt.log 2>&1 && healthy'
echo "    (took $((SECONDS - started)) s)"
check "  the cards are linked from dpkg's record of gnome-shell ($builds)" links_are $builds
check "  nothing of the hung gnome-shell is left running" eval '! pgrep -f "sleep $hang" >/dev/null'
started=$SECONDS
check "  the dpkg trigger on /usr/bin/gnome-shell runs within 60 s" \
    eval 'dpkg-trigger --by-package=gnome-shell --no-await /usr/bin/gnome-shell && timeout 60 dpkg --triggers-only --pending >/tmp/trigger.log 2>&1 && grep -q "Processing triggers for dbmultiverse" /tmp/trigger.log && healthy'
echo "    (took $((SECONDS - started)) s)"
check "  nothing of the hung gnome-shell is left running" eval '! pgrep -f "sleep $hang" >/dev/null'
started=$SECONDS
as_reader timeout 60 dbmultiverse doctor >/tmp/doctor.log 2>&1
took=$((SECONDS - started))
doctor_cards
check "  doctor takes less than 10 s ($took s) and names the card's build against the shell's version" \
    eval '[ "$took" -lt 10 ] && grep -q "GNOME Shell extension: installed in $extension (the build for GNOME [0-9–]*; GNOME Shell [0-9.]* here)" /tmp/doctor.log'
check "  nothing of the hung gnome-shell is left running after doctor" eval '! pgrep -f "sleep $hang" >/dev/null'
cp -a /tmp/gnome-shell.real /usr/bin/gnome-shell
check "purge exits 0" eval 'apt_get purge dbmultiverse && healthy'

echo "$failures failed"
[ "$failures" -eq 0 ]
