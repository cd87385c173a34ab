#!/usr/bin/env bash
# Installs the system packages the build and the tests need, when any is missing.
# Debian/Ubuntu (apt-get); run as root or with sudo available.
set -euo pipefail
# libcurl4-openssl-dev, libxml2-dev: the site code's libraries (headers; loaded with dlopen at run
# time); zlib1g-dev: the fixture site's gzip; time: the site benchmark's peak RSS; libsqlite3-dev:
# import-history; sqlite3: its tests.
packages=(libdbus-1-dev dbus dbus-bin libglib2.0-bin systemd xdg-utils desktop-file-utils
    libcurl4-openssl-dev libxml2-dev zlib1g-dev pkg-config time libsqlite3-dev sqlite3)
missing=()
for package in "${packages[@]}"; do
    dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed" || missing+=("$package")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "installing: ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
$sudo apt-get update -qq
DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}"
