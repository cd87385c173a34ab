#!/usr/bin/env bash
# The package follows the desktop's upgrade (docs/gnome-shell.md, docs/plasma.md): in a throw-away
# copy of a release's chroot (scripts/real-hosts/release-chroot.sh) with the .deb installed by apt-get
# (scripts/packaging/test-package.sh), the cards' links are put back as a Debian 12 install leaves them (GNOME
# 43–44's build, Plasma 5's), then gnome-shell and plasma-workspace are unpacked again by dpkg from
# the release's own packages, as a dist-upgrade unpacks them: dpkg's file triggers on
# /usr/bin/gnome-shell and /usr/bin/plasmashell must run the package's postinst, which points the
# links at the builds for the release's desktop. Then the package is removed: no link is left.
#   scripts/real-hosts/release-upgrade-check.sh RELEASE        (trixie: GNOME 48 and Plasma 6)
# Prints what it sees, one line each; exit status 0 when every step went as it must, 1 otherwise.
set -euo pipefail
cd "$(dirname "$0")/../.."
release=${1:?usage: $0 RELEASE}
[ "$(id -u)" -eq 0 ] || { echo "FAIL: the release checks need root (chroot, mounts)" >&2; exit 1; }

if [ "${2:-}" = --inside ]; then
    extension=/usr/share/gnome-shell/extensions/dbmultiverse@nobadi.com
    plasmoid=/usr/share/plasma/plasmoids/com.nobadi.dbmultiverse
    links() { echo "$(readlink "$extension" || echo none) $(readlink "$plasmoid" || echo none)"; }
    echo "installed: $(links)"
    ln -sfn ../../dbmultiverse/cards/gnome-shell-43 "$extension"
    ln -sfn ../../dbmultiverse/cards/plasma-5 "$plasmoid"
    echo "as after Debian 12: $(links)"
    # The release's own gnome-shell and plasma-workspace, unpacked again (what an upgrade unpacks).
    dpkg -i /archives/gnome-shell_*.deb /archives/plasma-workspace_*.deb >/tmp/dpkg.log 2>&1 \
        || { cat /tmp/dpkg.log; echo "FAIL: dpkg -i"; exit 1; }
    grep -i "dbmultiverse" /tmp/dpkg.log | sed 's/^/dpkg: /'
    echo "after the desktop's upgrade: $(links)"
    [ -z "$(dpkg --audit)" ] || { dpkg --audit; echo "FAIL: dpkg --audit"; exit 1; }
    dpkg -r dbmultiverse >/dev/null 2>&1 || { echo "FAIL: dpkg -r"; exit 1; }
    echo "removed: $(links)"
    exit 0
fi

deb="$(./scripts/packaging/test-package.sh | tail -1)" || { echo "FAIL: no package to install (above)" >&2; exit 1; }
./scripts/real-hosts/release-chroot.sh prepare "$release" >&2 || { echo "FAIL: no $release chroot (above)" >&2; exit 1; }
archives="$(dirname "$(./scripts/real-hosts/release-chroot.sh path "$release")")/archives"
echo "release: $release ($(./scripts/real-hosts/release-chroot.sh desktops "$release" | tr '\n' ' ' | sed 's/ $//')); package: ${deb##*/}"
exec ./scripts/real-hosts/release-chroot.sh run "$release" --deb "$deb" --bind "$PWD:$PWD" --bind "$archives:/archives" -- \
    env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 "$PWD/scripts/real-hosts/release-upgrade-check.sh" "$release" --inside
