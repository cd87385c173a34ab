#!/usr/bin/env bash
# Debian releases other than this machine's, for the cards' real-host checks from the installed
# package (docs/development.md, "The cards on other Debian releases"): debootstrap chroots from
# Debian's archive, with the desktops the checks run (GNOME Shell, plasmoidviewer, Xvfb, AT-SPI) and
# the package's dependencies preinstalled, cached under CHROOT_CACHE (default
# /var/cache/dbmultiverse-tests, which outlives a fresh clone of the repository).
#
#   scripts/real-hosts/release-chroot.sh prepare RELEASE...
#       makes (or keeps) each release's chroot: bookworm (GNOME Shell 43, Plasma 5.27), trixie
#       (GNOME Shell 48, Plasma 6.3), sid (GNOME Shell 51); or a build chroot, sid-build or
#       trixie-build: build-essential and the package's Build-Depends (`apt-get build-dep` of
#       debian/control; trixie-build with the profile pkg.dbmultiverse.swift-org and the libraries a
#       swift.org toolchain runs on, which `run --bind /opt/swift:/opt/swift` brings), and iproute2
#       (the offline build's loopback). A stamp (the hash of the release's package list, Depends or
#       Build-Depends and this script's build steps) says when one must be made again; the
#       debootstrap base (CACHE/RELEASE/base, one per release) and apt's downloads are kept apart,
#       so a changed list costs the install step only. Its output goes to CACHE/NAME/build.log.
#       Callers wait on a lock, for at most CHROOT_WAIT seconds (default 1500), then fail with the
#       end of the build's log.
#   scripts/real-hosts/release-chroot.sh run NAME [--deb FILE] [--offline] [--bind HOST:CHROOT]... [--rw-bind HOST:CHROOT]... -- COMMAND...
#       runs COMMAND (as root) in a throw-away copy of the cached chroot: an overlay whose upper
#       layer is a tmpfs, with FILE installed by `apt-get install` first, with the network off. /proc,
#       /sys, /dev, a private /dev/pts and /dev/shm, a tmpfs /tmp and /run are mounted in a mount
#       namespace of its own (unshare), so nothing stays mounted on the host, even after a crash,
#       and the cached chroot stays as it was. --offline: COMMAND too runs with the network off
#       (a network namespace with only the loopback interface, up).
#   scripts/real-hosts/release-chroot.sh ready RELEASE...  exit status 0 when each is prepared and current (its stamp),
#                                                      else 1, naming those that are not; makes nothing, waits for nothing
#   scripts/real-hosts/release-chroot.sh path RELEASE      the cached chroot's folder (prepared or not)
#   scripts/real-hosts/release-chroot.sh desktops RELEASE  the versions of GNOME Shell and Plasma it holds
# Needs root (debootstrap, chroot, mounts). Exit status: 0 done, 1 failed, 2 bad usage.
set -euo pipefail
cd "$(dirname "$0")/../.."
cache="${CHROOT_CACHE:-/var/cache/dbmultiverse-tests}"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"

usage() { sed -n '8,30p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
fail() { echo "release-chroot: $*" >&2; exit 1; }

# What the checks run (installed without recommendations, as scripts/test/install-deps.sh installs the
# host's): the GNOME Shell card (gnome-shell with gnome-extensions, gjs, dconf-service), the Plasma
# widget (plasma-sdk's plasmoidviewer, plasma-desktop's containment, Xvfb, ImageMagick's import
# and convert), both read through AT-SPI (python3-pyatspi, at-spi2-core); the sessions' tools
# (dbus-daemon, dbus-monitor, busctl, gdbus, gsettings, setpriv, pgrep); a font for the pictures;
# the package's autopkgtest, run by the release's own autopkgtest (its `null` runner, in the
# throw-away copy), with the test's dependencies (xdg-utils, desktop-file-utils: the deep-link
# handler's registration); on sid, lintian (scripts/packaging/package-qa.sh).
packages_of() {
    local common=(dbus dbus-bin dbus-user-session libglib2.0-bin systemd procps util-linux python3
        python3-pyatspi at-spi2-core xvfb imagemagick fonts-dejavu-core
        gnome-shell gjs dconf-service autopkgtest xdg-utils desktop-file-utils)
    local plasma=(plasma-sdk plasma-desktop)
    case "$1" in
        bookworm) echo "${common[@]}" "${plasma[@]}" ;;
        # Qt 6's QML test runner and modules, and msgfmt (the widget's catalogues): the Plasma
        # widget's QML tests under Plasma 6's Qt (PlasmoidQMLTests); kpackagetool6: the KDE Store's
        # .plasmoid installed as Plasma 6 installs it (StoreArtefactTests).
        trixie) echo "${common[@]}" "${plasma[@]}" gettext kpackagetool6 qt6-declarative-dev-tools qml6-module-qttest \
            qml6-module-qtquick-controls qml6-module-qtquick-layouts qml6-module-qtquick-templates \
            qml6-module-qtquick-window qml6-module-qtqml-workerscript libqt6svg6 ;;
        sid) echo "${common[@]}" lintian ;;
        # The build chroots: the rest is debian/control's Build-Depends (build_depends_profile).
        # A swift.org toolchain's programs need libedit, ncurses, SQLite, libuuid, libxml2, libcurl
        # and zlib (readelf -d of /opt/swift/usr/bin/* and its libraries).
        sid-build) echo build-essential iproute2 ;;
        trixie-build) echo build-essential iproute2 libedit2 libncurses6 libsqlite3-0 libuuid1 libxml2 libcurl4t64 zlib1g ;;
        *) fail "unknown release '$1' (bookworm, trixie, sid, sid-build or trixie-build)" ;;
    esac
}

# release_of NAME: the Debian release a chroot is of (trixie for trixie-build).
release_of() { echo "${1%-build}"; }

# build_depends_profile NAME: for a build chroot, the build profile its Build-Depends are taken
# with ("-" for none): Debian's swiftlang in sid, the swift.org toolchain on trixie (debian/rules).
build_depends_profile() {
    case "$1" in
        sid-build) echo - ;;
        trixie-build) echo pkg.dbmultiverse.swift-org ;;
        *) ;;
    esac
}

# debian/control's Build-Depends field, as written (a build chroot's stamp).
build_depends() {
    awk '/^Build-Depends:/ { on = 1; next } on && /^ / { print; next } on && !/^#/ { on = 0 }' debian/control
}

# The package's own dependencies (debian/control's Depends, first of each alternative, without the
# substitution variables), preinstalled so that installing the .deb downloads nothing; with the
# libraries it loads with dlopen, which its build names (debian/dlopen-depends) by the packages of
# the release it was built on: Debian 12's names for the package built on this machine (apt picks
# libcurl4t64, which provides libcurl4, on trixie and sid; sid's libxml2 is a compatibility library
# with Debian 12's libxml2.so.2), which are also trixie's own for the one built in trixie-build;
# and in sid, sid's own for the one built in sid-build (libxml2-16).
package_depends() {
    sed -n '/^Package: dbmultiverse$/,/^$/p' debian/control \
        | awk '/^Depends:/ { on = 1; next } on && /^ / { print; next } on && !/^#/ { on = 0 }' \
        | tr ',' '\n' | sed 's/|.*//; s/(.*)//; s/^ *//; s/ *$//' | grep -v -e '^\$' -e '^$' || true
    case "$1" in
        bookworm|trixie) printf '%s\n' libcurl4 libxml2 ;;
        sid) printf '%s\n' libcurl4 libxml2 libxml2-16 ;;
        *) ;;
    esac
}

# mount_session ROOT: what programs in ROOT expect mounted, in the current mount namespace (the
# caller made a private one: in_namespace).
mount_session() {
    local root=$1
    mount -t proc proc "$root/proc"
    mount --rbind /sys "$root/sys"
    mount --bind /dev "$root/dev"
    mount -t devpts -o newinstance,ptmxmode=0666,mode=620 devpts "$root/dev/pts"
    mount -t tmpfs -o mode=1777 shm "$root/dev/shm"
    mount -t tmpfs -o mode=1777 tmp "$root/tmp"
    mount -t tmpfs -o mode=755 run "$root/run"
}

# in_namespace SCRIPT ARGS...: bash -c SCRIPT in a mount namespace of its own (every mount made in
# it goes with its last process).
in_namespace() {
    local script=$1; shift
    unshare --mount --propagation private --fork -- bash -c "set -euo pipefail; $(declare -f mount_session); $script" bash "$@"
}

build_steps_version=1 # raise when the steps below change what a chroot holds

# sid's desktop chroot is made again with its build chroot: sid moves daily, and a package built
# in a newer sid-build may need newer libraries (libc6) than an older sid chroot has.
stamp_of() {
    { echo "$build_steps_version $mirror $1"; packages_of "$1"
      if [ -n "$(build_depends_profile "$1")" ]; then build_depends_profile "$1"; build_depends; else package_depends "$1"; fi
      if [ "$1" = sid ]; then stamp_of sid-build; fi
    } | sha256sum | cut -c1-16
}

# build_steps NAME STAMP: the chroot made anew in CACHE/NAME/root (the caller holds the lock).
build_steps() {
    local name=$1 stamp=$2 dir="$cache/$1" release base started=$SECONDS
    release=$(release_of "$name")
    base="$cache/$release"
    # The debootstrap base, kept: a changed package list starts again from it. One per release,
    # for its desktop and build chroots (a lock of its own: they may be prepared at once).
    mkdir -p "$base"
    (
        flock 7
        if [ ! -f "$base/base.done" ]; then
            rm -rf "$base/base"
            debootstrap --variant=minbase "$release" "$base/base" "$mirror"
            touch "$base/base.done"
        fi
    ) 7>"$base/base.lock"
    echo "debootstrap: $(( SECONDS - started )) s"
    rm -rf "$dir/root.new"
    cp -a --reflink=auto "$base/base" "$dir/root.new"
    local root="$dir/root.new"
    # No service starts in the chroot while packages install.
    printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
    chmod 755 "$root/usr/sbin/policy-rc.d"
    cat >"$root/etc/apt/apt.conf.d/90dbmultiverse-tests" <<CONF
APT::Install-Recommends "false";
APT::Install-Suggests "false";
// sid's Release file may be older than its Valid-Until by the time a cached chroot updates.
Acquire::Check-Valid-Until "false";
CONF
    echo "deb $mirror $release main" >"$root/etc/apt/sources.list"
    mkdir -p "$dir/archives/partial"
    # A build chroot also gets the Build-Depends: apt-get build-dep of debian/control, seen at /tmp/source.
    local profile
    profile=$(build_depends_profile "$name")
    # shellcheck disable=SC2016,SC2046
    in_namespace '
        root=$1 archives=$2 profile=$3 debian=$4; shift 4
        mount_session "$root"
        mount --bind "$archives" "$root/var/cache/apt/archives"
        [ -L "$root/etc/resolv.conf" ] || cp /etc/resolv.conf "$root/etc/resolv.conf"
        chroot "$root" apt-get update -q
        DEBIAN_FRONTEND=noninteractive chroot "$root" apt-get install -y -q --no-install-recommends "$@"
        if [ -n "$profile" ]; then
            mkdir -p "$root/tmp/source/debian"
            mount --bind "$debian" "$root/tmp/source/debian"
            profiles=()
            [ "$profile" = - ] || profiles=(--build-profiles="$profile")
            DEBIAN_FRONTEND=noninteractive chroot "$root" apt-get build-dep -y -q --no-install-recommends "${profiles[@]}" /tmp/source
        fi
    ' "$root" "$dir/archives" "$profile" "$PWD/debian" $(packages_of "$name") $(if [ -z "$profile" ]; then package_depends "$name"; fi)
    # D-Bus needs a machine id; the sessions run as nobody.
    [ -s "$root/etc/machine-id" ] || tr -d - </proc/sys/kernel/random/uuid >"$root/etc/machine-id"
    echo "packages: $(( SECONDS - started )) s"
    rm -rf "$dir/root"
    mv "$dir/root.new" "$dir/root"
    echo "$stamp" >"$dir/stamp"
    echo "total: $(( SECONDS - started )) s"
}

prepare_one() {
    local release=$1 dir="$cache/$1" stamp
    stamp="$(stamp_of "$release")"
    mkdir -p "$dir"
    exec 8>"$dir/lock"
    # Exclusive: one builder; runs (shared) wait for it, and it for them. Bounded: CHROOT_WAIT seconds.
    flock -w "${CHROOT_WAIT:-1500}" 8 || { tail -20 "$dir/build.log" >&2 2>/dev/null
        fail "$release: waited ${CHROOT_WAIT:-1500} s for another build of the chroot (its log's end above)"; }
    if [ -f "$dir/stamp" ] && [ "$(cat "$dir/stamp")" = "$stamp" ] && [ -d "$dir/root" ]; then
        echo "$release: cached ($dir/root)"
        exec 8>&-
        return 0
    fi
    local started=$SECONDS log="$dir/build.log"
    : >"$log"
    echo "$release: building $dir/root (log: $log)"
    # A process of its own, so that `set -e` holds in the steps (it does not under `||`).
    "$0" build-steps "$release" "$stamp" >>"$log" 2>&1 \
        || { tail -30 "$log" >&2; exec 8>&-; fail "$release: the chroot could not be made (log: $log)"; }
    echo "$release: built in $(( SECONDS - started )) s ($(du -sh "$dir/root" | cut -f1))"
    exec 8>&-
}

run_one() {
    local release=$1; shift
    local deb="" offline="" binds=() rw_binds=()
    while [ $# -gt 0 ]; do
        case "$1" in
            --deb) deb="$(realpath "$2")"; shift 2 ;;
            --offline) offline=1; shift ;;
            --bind) binds+=("$2"); shift 2 ;;
            --rw-bind) rw_binds+=("$2"); shift 2 ;;
            --) shift; break ;;
            *) usage ;;
        esac
    done
    [ $# -gt 0 ] || usage
    local dir="$cache/$release"
    [ -d "$dir/root" ] || fail "$release: no chroot in $dir (scripts/real-hosts/release-chroot.sh prepare $release)"
    [ -z "$deb" ] || [ -f "$deb" ] || fail "no package at $deb"
    exec 8>"$dir/lock"
    flock -w "${CHROOT_WAIT:-1500}" -s 8 || fail "$release: waited ${CHROOT_WAIT:-1500} s for the chroot (a build holds it)" # not rebuilt under a run
    # shellcheck disable=SC2016
    in_namespace '
        lower=$1 deb=$2 binds=$3 rw_binds=$4 offline=$5; shift 5
        layer=$(mktemp -d /tmp/dbm-chroot.XXXXXX)
        mount -t tmpfs -o mode=755 layer "$layer"
        mkdir -p "$layer/upper" "$layer/work" "$layer/root"
        mount -t overlay overlay -o "lowerdir=$lower,upperdir=$layer/upper,workdir=$layer/work" "$layer/root"
        root=$layer/root
        mount_session "$root"
        bind() { # HOST:CHROOT [ro]
            local host=${1%%:*} inside=${1#*:}
            mkdir -p "$root$inside"
            mount --bind "$host" "$root$inside"
            [ "${2:-}" = ro ] && mount -o remount,bind,ro "$root$inside"
            return 0
        }
        IFS=$'"'"'\n'"'"'
        for b in $binds; do bind "$b" ro; done
        for b in $rw_binds; do bind "$b"; done
        unset IFS
        if [ -n "$deb" ]; then
            cp "$deb" "$root/tmp/"
            # With the network off (a network namespace of its own): what the package needs is in
            # the chroot already, or the install fails. (apt-get --no-download refuses a .deb file.)
            if ! DEBIAN_FRONTEND=noninteractive unshare --net chroot "$root" apt-get install -y -q --no-install-recommends \
                "/tmp/${deb##*/}" >"$root/tmp/install.log" 2>&1; then
                cat "$root/tmp/install.log" >&2
                echo "release-chroot: apt-get install of ${deb##*/} failed (above)" >&2
                exit 1
            fi
        fi
        status=0
        # Without the lock descriptor: a process the command leaves behind would hold the chroot.
        if [ -n "$offline" ]; then
            # The loopback interface up: Foundation'"'"'s run loop wakes itself through a socket pair on it.
            unshare --net sh -c '"'"'ip link set dev lo up && exec chroot "$@"'"'"' offline "$root" "$@" 8>&- || status=$?
        else
            chroot "$root" "$@" 8>&- || status=$?
        fi
        rmdir "$layer" 2>/dev/null || true
        exit "$status"
    ' "$dir/root" "$deb" "$(printf '%s\n' "${binds[@]}")" "$(printf '%s\n' "${rw_binds[@]}")" "$offline" "$@"
}

[ "$(id -u)" -eq 0 ] || fail "needs root (debootstrap, chroot and mounts)"
case "${1:-}" in
    prepare)
        shift; [ $# -gt 0 ] || usage
        command -v debootstrap >/dev/null || fail "debootstrap is not installed (scripts/test/install-deps.sh installs it)"
        for release in "$@"; do packages_of "$release" >/dev/null; done
        for release in "$@"; do prepare_one "$release"; done ;;
    run) shift; [ $# -gt 0 ] || usage; run_one "$@" ;;
    ready)
        shift; [ $# -gt 0 ] || usage
        missing=()
        for release in "$@"; do
            stamp="$(stamp_of "$release")"
            [ -d "$cache/$release/root" ] && [ "$(cat "$cache/$release/stamp" 2>/dev/null)" = "$stamp" ] || missing+=("$release")
        done
        [ ${#missing[@]} -eq 0 ] || { echo "not prepared: ${missing[*]}"; exit 1; } ;;
    build-steps) build_steps "$2" "$3" ;; # prepare's own step, in a process of its own
    path) echo "$cache/${2:?release}/root" ;;
    desktops)
        root="$cache/${2:?release}/root"
        [ -d "$root" ] || fail "no chroot at $root"
        chroot "$root" dpkg-query -W -f='${Package} ${Version}\n' gnome-shell plasma-workspace 2>/dev/null || true ;;
    *) usage ;;
esac
