#!/usr/bin/env bash
# Installs the system packages the build and the tests need, when any is missing.
# Debian/Ubuntu (apt-get); run as root or with sudo available.
set -euo pipefail
packages=(libdbus-1-dev dbus dbus-bin libglib2.0-bin systemd xdg-utils desktop-file-utils zip unzip openssl chromium)
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
