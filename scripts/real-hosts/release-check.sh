#!/usr/bin/env bash
# A card's real-host check on another Debian release, from the installed package:
#   scripts/real-hosts/release-check.sh RELEASE CHECK [--built-in sid|trixie]
# CHECK is gnome-shell-check.sh or plasma-card-check.sh, or their looks (gnome-shell-looks.sh,
# plasma-card-looks.sh). Builds (or reuses) the .deb — on this machine
# (scripts/packaging/test-package.sh), or with --built-in from the source package in that
# release's build chroot (scripts/packaging/chroot-package.sh) — and the release's chroot
# (scripts/real-hosts/release-chroot.sh prepare), installs
# the .deb with apt-get into a throw-away copy of the chroot, and runs `CHECK --installed` there as
# root (the check itself runs its desktop as nobody where it would on this machine). The
# repository is seen read-only at its own path, SCREENSHOT_DIR (default: a new /tmp/dbm-RELEASE-shots.*)
# read-write at its own: the screenshots stay on this machine. Prints the release's desktop
# versions first, then what the check prints. Exit status: the check's (0 passed, 1 failed), 2 bad usage.
set -euo pipefail
cd "$(dirname "$0")/../.."
repository="$PWD"
release=${1:-} check=${2:-} built_in=""
usage() { echo "usage: $0 bookworm|trixie|sid gnome-shell-check.sh|plasma-card-check.sh|gnome-shell-looks.sh|plasma-card-looks.sh [--built-in sid|trixie]" >&2; exit 2; }
case "$check" in
    gnome-shell-check.sh|plasma-card-check.sh|gnome-shell-looks.sh|plasma-card-looks.sh) ;;
    *) usage ;;
esac
case "${3:-}" in
    "") ;;
    --built-in) built_in=${4:-}; case "$built_in" in sid|trixie) ;; *) usage ;; esac ;;
    *) usage ;;
esac
[ "$(id -u)" -eq 0 ] || { echo "FAIL: the release checks need root (chroot, mounts)" >&2; exit 1; }
shots="${SCREENSHOT_DIR:-$(mktemp -d "/tmp/dbm-$release-shots.XXXXXX")}"
mkdir -p "$shots"
chmod 777 "$shots" # the check's session writes them as nobody

if [ -n "$built_in" ]; then
    deb="$(./scripts/packaging/chroot-package.sh "$built_in" | tail -1)" || { echo "FAIL: no package built in $built_in (above)" >&2; exit 1; }
else
    deb="$(./scripts/packaging/test-package.sh | tail -1)" || { echo "FAIL: no package to install (above)" >&2; exit 1; }
fi
./scripts/real-hosts/release-chroot.sh prepare "$release" >&2 || { echo "FAIL: no $release chroot (above)" >&2; exit 1; }
echo "release: $release ($(./scripts/real-hosts/release-chroot.sh desktops "$release" | tr '\n' ' ' | sed 's/ $//')); package: ${deb##*/}, built ${built_in:+in $built_in}${built_in:-on this machine}"
exec ./scripts/real-hosts/release-chroot.sh run "$release" --deb "$deb" --bind "$repository:$repository" --rw-bind "$shots:$shots" -- \
    env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 SCREENSHOT_DIR="$shots" PLASMA_IDLE_SECONDS="${PLASMA_IDLE_SECONDS:-10}" \
    "$repository/scripts/real-hosts/$check" --installed
