#!/usr/bin/env bash
# What the GitHub workflows' Debian 12 container needs before `make test` (.github/workflows/): the
# swift.org toolchain of SWIFT_VERSION for Debian 12, its archive checked against swift.org's
# signing keys (gpg --verify of its .sig), unpacked in /opt/swift and linked into /usr/local/bin;
# and a Python of 3.12 or later for shexli (scripts/packaging/store-checks.sh), which Debian 12 lacks:
# uv's build of CPython 3.13, as python3.13 in /usr/local/bin. Root only (the container's user).
# Usage: scripts/ci/install-toolchain.sh SWIFT_VERSION
set -euo pipefail
version=${1:?usage: $0 SWIFT_VERSION}
uv_version=0.13.8
[ "$(id -u)" -eq 0 ] || { echo "install-toolchain.sh: run as root" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

release="swift-$version-RELEASE"
archive="$release-debian12.tar.gz"
base="https://download.swift.org/swift-$version-release/debian12/$release"
curl -fsSL --retry 3 -o "$work/$archive" "$base/$archive"
curl -fsSL --retry 3 -o "$work/$archive.sig" "$base/$archive.sig"
curl -fsSL --retry 3 -o "$work/keys.asc" https://swift.org/keys/all-keys.asc
export GNUPGHOME="$work/gnupg"
mkdir -m 700 "$GNUPGHOME"
gpg --batch --quiet --import "$work/keys.asc"
gpg --batch --verify "$work/$archive.sig" "$work/$archive"
mkdir -p /opt/swift
tar -xzf "$work/$archive" -C /opt/swift --strip-components=1
ln -sf /opt/swift/usr/bin/* /usr/local/bin/
swift --version

python3 -m venv /opt/uv
/opt/uv/bin/pip install --quiet --disable-pip-version-check "uv==$uv_version"
/opt/uv/bin/uv python install 3.13
ln -sf "$(/opt/uv/bin/uv python find 3.13)" /usr/local/bin/python3.13
python3.13 --version
