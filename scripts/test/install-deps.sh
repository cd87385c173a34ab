#!/usr/bin/env bash
# Installs the system packages the build and the tests need, when any is missing.
# Debian/Ubuntu (apt-get); run as root or with sudo available. Prints one line for what it installs;
# apt's own output goes to INSTALL_LOG (default .build/install-deps.log) and is shown only when apt fails.
set -euo pipefail
cd "$(dirname "$0")/../.."
# python3: the test run's summary (scripts/test/test-summary.py).
# libcurl4-openssl-dev, libxml2-dev: the site code's libraries (headers; loaded with dlopen at run
# time); zlib1g-dev: the fixture site's gzip; time: the site benchmark's peak RSS; libsqlite3-dev:
# import-history; sqlite3: its tests; zip, unzip, openssl: the browser extension's archives and key.
# libjpeg-dev, libpng-dev: the tray's cover decoder (headers; loaded with dlopen at run time);
# sway, waybar, grim, gcc: the tray in a real host (TrayHostTests). appstream: the AppStream
# metadata's validator (PackagingTests). gettext: the translations (make translations, make pot);
# locales: the French locale of their tests. systemd: also systemd-xdg-autostart-generator (PackagingTests).
# libglib2.0-dev: the benchmark's GDBus reference service (Benchmarks/gdbus-reference-service.c).
# syncthing, faketime: the sync folder between two computers, two real Syncthing instances with one
# service's clock set ahead (SyncFolderSyncthingTests).
# The cards' desktops, installed without their recommendations (gdm3, sddm, ibus, KDE's
# applications, evolution-data-server, gnome-control-center…), which the tests' headless sessions
# do not use: python3-pyatspi and at-spi2-core read and press the cards as a screen reader does;
# - the GNOME Shell card (GnomeShellExtensionTests under gjs, GnomeShellCardTests in a headless
#   shell, make gnome-extension): gnome-shell (with gnome-extensions), gjs, dconf-service;
# - the Plasma widget (PlasmoidQMLTests, PlasmaCardTests): plasma-sdk (plasmoidviewer),
#   plasma-desktop (its desktop containment), xvfb, imagemagick (import: screenshots); its QML tests
#   under Qt 5 (qtdeclarative5-dev-tools: qmltestrunner, qmllint; qml-module-qttest, the Controls 2
#   and Layouts modules; libqt5svg5: the SVG icon) and Qt 6 (the same from Debian's Qt 6; libqt6svg6).
# - the notifications in a real notification server (DunstNotificationTests): dunst, under xvfb,
#   its screenshots taken with imagemagick.
# - the cards on other Debian releases, from the installed package (ReleaseCardTests): debootstrap
#   makes the releases' chroots (scripts/real-hosts/release-chroot.sh), and the package is built as debian/
#   builds it (scripts/packaging/test-package.sh: debhelper, dpkg-dev, fakeroot; iproute2: the offline build's
#   loopback); piuparts judges its install, purge and upgrade there (scripts/packaging/package-qa.sh).
# - the apt repository (make repo, MakeRepoTests, AptRepositoryTests): aptly (Debian's repository tool:
#   the indexes), gnupg (signing), sqv (the signature check Debian 13's apt runs), bzip2.
# With the argument `deb` (make dist, make deb, make deb-test), also what builds and checks the
# Debian package; iproute2: the offline build's loopback (binary-package.sh); xvfb and imagemagick:
# deb-test.sh's browsers on a display, and its screenshots.
packages=(python3 libdbus-1-dev dbus dbus-bin libglib2.0-bin systemd xdg-utils desktop-file-utils
    libcurl4-openssl-dev libxml2-dev zlib1g-dev pkg-config time libsqlite3-dev sqlite3 zip unzip openssl
    libjpeg-dev libpng-dev sway waybar grim gcc appstream gettext locales libglib2.0-dev
    debootstrap debhelper dpkg-dev fakeroot iproute2 piuparts syncthing faketime aptly gnupg sqv bzip2)
desktop_packages=(python3-pyatspi at-spi2-core
    gnome-shell gjs dconf-service
    plasma-sdk plasma-desktop xvfb imagemagick
    dunst
    qtdeclarative5-dev-tools qml-module-qttest qml-module-qtquick-controls2 qml-module-qtquick-layouts
    qml-module-qtquick-templates2 libqt5svg5
    qt6-declarative-dev-tools qml6-module-qttest qml6-module-qtquick-controls qml6-module-qtquick-layouts
    qml6-module-qtquick-templates qml6-module-qtquick-window qml6-module-qtqml-workerscript libqt6svg6)
[ "${1:-}" = deb ] && packages+=(build-essential debhelper dpkg-dev fakeroot lintian git iproute2 xvfb imagemagick)
# The browsers of the extension's end-to-end tests, where the distribution has them as debs (Debian
# does; Ubuntu ships snaps). Where apt has none, the tests that need one are skipped and the test
# run's summary names them.
browsers=(chromium firefox-esr)
log="${INSTALL_LOG:-.build/install-deps.log}"

is_installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
# Whether apt has a version of $1 to install. apt-cache's output is read whole before it is searched:
# `apt-cache … | grep -q` under pipefail fails when grep stops reading at its match and apt-cache
# dies of SIGPIPE, which made every browser look unavailable.
installable() {
    local policy
    policy=$(apt-cache policy "$1" 2>/dev/null) || return 1
    [[ "$policy" =~ Candidate:\ [0-9] ]]
}
missing_browsers() { # the browsers that are not installed, each with whether apt has it
    for package in "${browsers[@]}"; do
        is_installed "$package" && continue
        if installable "$package"; then echo "$package"; else echo "!$package"; fi
    done
}

# The locales the translation tests run under (French), generated when missing, at once: localedef
# adds them to the locale archive (no reboot, no locale-gen of every language). Runs at the end,
# once the locales package is in, whatever else was installed.
test_locales=(fr_FR)
generate_locales() {
    local status=$? locale run=""
    [ "$status" -eq 0 ] || return "$status"
    [ "$(id -u)" -eq 0 ] || run="sudo"
    for locale in "${test_locales[@]}"; do
        locale -a 2>/dev/null | grep -qix "$locale\.utf-\?8" && continue
        echo "install-deps: generating the locale $locale.UTF-8 (the translation tests run under it)" >&2
        $run localedef -i "$locale" -c -f UTF-8 "$locale.UTF-8"
    done
}
trap generate_locales EXIT

missing=() missing_desktop=()
for package in "${packages[@]}"; do is_installed "$package" || missing+=("$package"); done
for package in "${desktop_packages[@]}"; do is_installed "$package" || missing_desktop+=("$package"); done
browser_state=$(missing_browsers)
[ ${#missing[@]} -eq 0 ] && [ ${#missing_desktop[@]} -eq 0 ] && [ -z "$browser_state" ] && exit 0

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
mkdir -p "$(dirname "$log")"
: >"$log"
# apt_get ARGS…: apt-get quietly, its output in the log; on failure the log's end and the status.
apt_get() {
    local status=0
    # Waits for the dpkg lock: on a fresh machine unattended-upgrades often holds it for minutes.
    DEBIAN_FRONTEND=noninteractive $sudo apt-get -o DPkg::Lock::Timeout=600 "$@" >>"$log" 2>&1 || status=$?
    if [ "$status" -ne 0 ]; then
        echo "install-deps: apt-get $1 failed (exit $status); the end of $log:" >&2
        tail -n 25 "$log" >&2
        exit "$status"
    fi
}
# An install killed half-way (a machine restarted mid-upgrade) leaves dpkg refusing every apt-get
# until its configuration is finished, and apt then says to run exactly this.
if [ -n "$(dpkg --audit 2>/dev/null)" ]; then
    echo "install-deps: dpkg was interrupted earlier; finishing it first (dpkg --configure -a)" >&2
    DEBIAN_FRONTEND=noninteractive $sudo dpkg --configure -a >>"$log" 2>&1
fi
apt_get update -qq
if [ ${#missing_desktop[@]} -gt 0 ]; then
    echo "install-deps: installing ${missing_desktop[*]} without recommendations (apt's output: $log)" >&2
    apt_get install -y -qq --no-install-recommends "${missing_desktop[@]}"
fi
# After the update, apt may know browsers it did not know before.
browser_state=$(missing_browsers)
for line in $browser_state; do
    case "$line" in
        "!"*) echo "install-deps: ${line#!} is not available from apt here; the tests that need it will be skipped" >&2 ;;
        *) missing+=("$line") ;;
    esac
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "install-deps: installing ${missing[*]} (apt's output: $log)" >&2
apt_get install -y -qq "${missing[@]}"
