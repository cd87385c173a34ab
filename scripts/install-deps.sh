#!/usr/bin/env bash
# Installs the system packages the build and the tests need, when any is missing.
# Debian/Ubuntu (apt-get); run as root or with sudo available.
set -euo pipefail
# libcurl4-openssl-dev, libxml2-dev: the site code's libraries (headers; loaded with dlopen at run
# time); zlib1g-dev: the fixture site's gzip; time: the site benchmark's peak RSS; libsqlite3-dev:
# import-history; sqlite3: its tests; zip, unzip, openssl: the browser extension's archives and key.
# libjpeg-dev, libpng-dev: the tray's cover decoder (headers; loaded with dlopen at run time);
# sway, waybar, grim, gcc: the tray in a real host (TrayHostTests).
# The Plasma widget (PlasmoidQMLTests, PlasmaCardTests): plasma-sdk (plasmoidviewer), plasma-desktop
# (its desktop containment), xvfb, imagemagick (import: screenshots), python3-pyatspi and
# at-spi2-core (reading and pressing it as a screen reader does); its QML tests under Qt 5
# (qtdeclarative5-dev-tools: qmltestrunner, qmllint; qml-module-qttest, the Controls 2 and Layouts
# modules; libqt5svg5: the SVG icon) and Qt 6 (the same from Debian's Qt 6; libqt6svg6).
# With the argument `deb` (make deb, make deb-test), also what builds and checks the Debian package.
packages=(libdbus-1-dev dbus dbus-bin libglib2.0-bin systemd xdg-utils desktop-file-utils
    libcurl4-openssl-dev libxml2-dev zlib1g-dev pkg-config time libsqlite3-dev sqlite3 zip unzip openssl
    libjpeg-dev libpng-dev sway waybar grim gcc
    plasma-sdk plasma-desktop xvfb imagemagick python3-pyatspi at-spi2-core
    qtdeclarative5-dev-tools qml-module-qttest qml-module-qtquick-controls2 qml-module-qtquick-layouts
    qml-module-qtquick-templates2 libqt5svg5
    qt6-declarative-dev-tools qml6-module-qttest qml6-module-qtquick-controls qml6-module-qtquick-layouts
    qml6-module-qtquick-templates qml6-module-qtquick-window qml6-module-qtqml-workerscript libqt6svg6)
[ "${1:-}" = deb ] && packages+=(build-essential debhelper dpkg-dev fakeroot lintian)
# The browsers of the extension's end-to-end tests, where the distribution has them as debs
# (Debian does; Ubuntu ships snaps): without them those tests are skipped.
browsers=(chromium firefox-esr)
is_installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q "install ok installed"; }
available_browsers() { # the missing browsers apt can install
    for package in "${browsers[@]}"; do
        is_installed "$package" || ! apt-cache policy "$package" 2>/dev/null | grep -q "Candidate: [0-9]" || echo "$package"
    done
}
missing=()
for package in "${packages[@]}"; do is_installed "$package" || missing+=("$package"); done
[ ${#missing[@]} -eq 0 ] && [ -z "$(available_browsers)" ] && exit 0
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -qq
read -r -a wanted <<< "$(available_browsers | tr '\n' ' ')"
missing+=(${wanted[@]+"${wanted[@]}"})
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}" >&2
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
