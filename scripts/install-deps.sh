#!/usr/bin/env bash
# Installs the system packages the build and the tests need, when any is missing.
# Debian/Ubuntu (apt-get); run as root or with sudo available.
set -euo pipefail
# libcurl4-openssl-dev, libxml2-dev: the site code's libraries (headers; loaded with dlopen at run
# time); zlib1g-dev: the fixture site's gzip; time: the site benchmark's peak RSS; libsqlite3-dev:
# import-history; sqlite3: its tests; zip, unzip, openssl: the browser extension's archives and key.
# libjpeg-dev, libpng-dev: the tray's cover decoder (headers; loaded with dlopen at run time);
# sway, waybar, grim, gcc: the tray in a real host (TrayHostTests).
# gnome-shell (with gnome-extensions), gjs, python3-pyatspi, at-spi2-core, dconf-service: the GNOME
# Shell card (GnomeShellExtensionTests under gjs, GnomeShellCardTests in a headless shell read
# through AT-SPI, make gnome-extension): installed without their recommendations (gdm3, ibus,
# evolution-data-server, gnome-control-center…), which the headless shell of the tests does not use.
# With the argument `deb` (make deb, make deb-test), also what builds and checks the Debian package.
packages=(libdbus-1-dev dbus dbus-bin libglib2.0-bin systemd xdg-utils desktop-file-utils
    libcurl4-openssl-dev libxml2-dev zlib1g-dev pkg-config time libsqlite3-dev sqlite3 zip unzip openssl
    libjpeg-dev libpng-dev sway waybar grim gcc)
shell_packages=(gnome-shell gjs python3-pyatspi at-spi2-core dconf-service)
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
missing=() missing_shell=()
for package in "${packages[@]}"; do is_installed "$package" || missing+=("$package"); done
for package in "${shell_packages[@]}"; do is_installed "$package" || missing_shell+=("$package"); done
[ ${#missing[@]} -eq 0 ] && [ ${#missing_shell[@]} -eq 0 ] && [ -z "$(available_browsers)" ] && exit 0
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -qq
if [ ${#missing_shell[@]} -gt 0 ]; then
    echo "installing: ${missing_shell[*]} (without recommendations)" >&2
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing_shell[@]}"
fi
read -r -a wanted <<< "$(available_browsers | tr '\n' ' ')"
missing+=(${wanted[@]+"${wanted[@]}"})
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}" >&2
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
