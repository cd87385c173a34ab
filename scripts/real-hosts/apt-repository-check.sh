#!/usr/bin/env bash
# The apt repository as a reader meets it, in a Debian release's chroot (docs/releasing.md):
#   scripts/real-hosts/apt-repository-check.sh RELEASE        (bookworm, trixie, sid)
# Makes (or reuses) the run's fixture (scripts/packaging/repository-fixture.sh: two versions of
# the packages, the repositories `make repo` makes of them, signed by a throw-away key) and the
# release's chroot (scripts/real-hosts/release-chroot.sh), then, in a throw-away copy of the
# chroot with a network of its own (loopback only), serves the repositories on 127.0.0.1:8080 and
# runs every step there with apt itself, each printed as "ok: …" (or FAIL: … and exit 1):
#   - refused: a Packages index changed after signing, a repository signed by another key, a
#     Release past its Valid-Until — apt-get update fails, nothing can be installed;
#   - the README's steps: the key and the .sources file from the repository, apt-get update
#     verifies it, apt-get install dbmultiverse installs it (and the apt-source and keyring
#     packages it brings, which take over the two files unchanged, without a question), the service
#     answers on a private bus, chapter 42 and its progress are stored;
#   - the second version published: apt-get upgrade installs it, keeps the chapter and its
#     progress, the cards stay linked, doctor names the repository;
#   - apt-get install dbmultiverse=FIRST --allow-downgrades goes back; purge leaves no file of the
#     packages' (the reader's data folder stays);
#   - the downloaded .deb files installed with apt, then apt-get upgrade brings the second version.
# Exit status: 0 when every step went as it must, 1 otherwise, 2 bad usage.
set -euo pipefail
cd "$(dirname "$0")/../.."
release=${1:-}
case "$release" in bookworm|trixie|sid) ;; *) echo "usage: $0 bookworm|trixie|sid" >&2; exit 2 ;; esac

if [ "${2:-}" = --inside ]; then
    v1=$3 v2=$4
    url=http://127.0.0.1:8080
    fail() { echo "FAIL: $*"; exit 1; }
    ok() { echo "ok: $*"; }
    apt_get() { apt-get -q -y -o Dpkg::Use-Pty=0 -o Acquire::Check-Valid-Until=true -o APT::Install-Recommends=true "$@" </dev/null; }
    installed() { dpkg-query -W -f='${db:Status-Abbrev}${Version}' "$1" 2>/dev/null | sed -n 's/^ii *//p'; }
    # Only the repository under test: Debian's archive is not reachable from here.
    rm -f /etc/apt/sources.list /etc/apt/sources.list.d/*
    rm -rf /var/lib/apt/lists/*

    # The web host: the fixture's repositories (read-only), `good` the one readers use.
    mkdir -p /srv/www
    for name in v1 v2 tampered other-key expired; do ln -s "/srv/repository/$name" "/srv/www/$name"; done
    ln -s v1 /srv/www/good
    mkfifo /tmp/http.ready
    python3 -c '
import functools, http.server, sys
handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory="/srv/www")
server = http.server.ThreadingHTTPServer(("127.0.0.1", 8080), handler)
with open("/tmp/http.ready", "w") as ready: ready.write("listening\n")
server.serve_forever()' >/tmp/http.log 2>&1 &
    server=$!
    trap 'kill "$server" 2>/dev/null' EXIT
    read -r -t 20 state </tmp/http.ready || fail "the web server did not start ($(cat /tmp/http.log))"
    [ "$state" = listening ] || fail "the web server did not start"
    fetch() { python3 -c 'import sys, urllib.request; sys.stdout.buffer.write(urllib.request.urlopen(sys.argv[1], timeout=20).read())' "$1"; }

    # The README's two files, as a reader writes them (the .sources file's URIs pointing here).
    add_repository() { # NAME: the repository the .sources file names
        fetch "$url/good/dbmultiverse-archive-keyring.pgp" >/usr/share/keyrings/dbmultiverse-archive-keyring.pgp
        fetch "$url/good/dbmultiverse.sources" | sed "s|^URIs: .*|URIs: $url/$1/|" >/etc/apt/sources.list.d/dbmultiverse.sources
    }

    # Refused: each fails apt-get update, and nothing can be installed from it.
    for bad in tampered other-key expired; do
        add_repository "$bad"
        if apt_get update >"/tmp/update-$bad.log" 2>&1; then cat "/tmp/update-$bad.log"; fail "apt-get update accepted the $bad repository"; fi
        case $bad in
            tampered) expected='Hash Sum mismatch|File has unexpected size' ;;
            other-key) expected='NO_PUBKEY|Missing key|not signed|signatures were invalid|could not be verified' ;;
            expired) expected='is expired' ;;
        esac
        grep -qE "$expected" "/tmp/update-$bad.log" || { cat "/tmp/update-$bad.log"; fail "apt-get update refused the $bad repository, but not for its reason ($expected)"; }
        if apt_get install dbmultiverse >"/tmp/install-$bad.log" 2>&1; then fail "apt-get install dbmultiverse worked from the $bad repository"; fi
        [ -z "$(installed dbmultiverse)" ] || fail "dbmultiverse got installed from the $bad repository"
        ok "refused: $bad ($(grep -oE "$expected" "/tmp/update-$bad.log" | head -1)), nothing installed"
        rm -rf /var/lib/apt/lists/*
    done

    # The reader adds the repository and installs.
    add_repository good
    cp /etc/apt/sources.list.d/dbmultiverse.sources /tmp/readers.sources
    apt_get update >/tmp/update.log 2>&1 || { cat /tmp/update.log; fail "apt-get update of the repository"; }
    grep -q "$url/good stable InRelease" /tmp/update.log || { cat /tmp/update.log; fail "apt-get update fetched no InRelease"; }
    ok "apt-get update verified the repository's InRelease"
    apt_get install dbmultiverse >/tmp/install.log 2>&1 || { cat /tmp/install.log; fail "apt-get install dbmultiverse"; }
    for package in dbmultiverse dbmultiverse-apt-source dbmultiverse-archive-keyring; do
        [ "$(installed $package)" = "$v1" ] || fail "installed: $package $(installed $package), not $v1"
    done
    cmp -s /tmp/readers.sources /etc/apt/sources.list.d/dbmultiverse.sources && [ "$(dpkg -S /etc/apt/sources.list.d/dbmultiverse.sources | cut -d: -f1)" = dbmultiverse-apt-source ] \
        && [ "$(dpkg -S /usr/share/keyrings/dbmultiverse-archive-keyring.pgp | cut -d: -f1)" = dbmultiverse-archive-keyring ] \
        || fail "the packages did not take over the reader's two files unchanged"
    ok "apt-get install dbmultiverse: $v1, with dbmultiverse-apt-source and dbmultiverse-archive-keyring $v1 (the reader's two files now theirs, unchanged)"

    # The reader's session: a private bus; the data folder in root's home, as the reader's.
    in_session() { env HOME=/root LANG=C.UTF-8 dbus-run-session -- sh -c "$1" 2>&1; }
    entry=$(in_session 'dbmultiverse update --chapter 42 --name "Goku & Vegeta Unite!" --progress 35 && dbmultiverse entry --format json') \
        || fail "the service did not answer: $entry"
    case "$entry" in *'"chapter":42'*'"progress":35'*|*'"progress":35'*'"chapter":42'*) ;; *) fail "the service answered without chapter 42 at 35%: $entry" ;; esac
    ok "the service answers: chapter 42 stored, 35% read"
    links() { for link in /usr/share/gnome-shell/extensions/dbmultiverse@nobadi.com /usr/share/plasma/plasmoids/com.nobadi.dbmultiverse; do
        [ -e /usr/bin/gnome-shell ] || [ "${link#*plasma}" != "$link" ] || continue
        [ -e /usr/bin/plasmashell ] || [ "${link#*gnome-shell}" != "$link" ] || continue
        [ -L "$link" ] && [ -f "$link/metadata.json" ] || fail "$1: $link is not a link to a card ($(ls -l "$link" 2>&1))"
        printf '%s ' "$(readlink "$link")"
    done; }
    echo "cards: $(links "after the install")"

    # The second version published: apt upgrade.
    ln -sfn v2 /srv/www/good
    apt_get update >/tmp/update2.log 2>&1 || { cat /tmp/update2.log; fail "apt-get update after the second version"; }
    apt_get upgrade >/tmp/upgrade.log 2>&1 || { cat /tmp/upgrade.log; fail "apt-get upgrade"; }
    for package in dbmultiverse dbmultiverse-apt-source dbmultiverse-archive-keyring; do
        [ "$(installed $package)" = "$v2" ] || fail "after apt-get upgrade: $package $(installed $package), not $v2"
    done
    # ---- After the upgrade, the running service and notifier are the new version (the life-cycle
    # ---- work's assertion goes here, before the entry is read again).
    entry=$(in_session 'dbmultiverse entry --format json; dbmultiverse --version; dbmultiverse doctor | grep "^. updates: "') || true
    case "$entry" in *'"chapter":42'*'"progress":35'*|*'"progress":35'*'"chapter":42'*) ;; *) fail "after the upgrade the entry lost chapter 42 at 35%: $entry" ;; esac
    printf '%s\n' "$entry" | grep -qx "$v2" || fail "after the upgrade dbmultiverse --version is not $v2: $entry"
    printf '%s\n' "$entry" | grep -q "^✓ updates: from $url/good/, suite stable (/etc/apt/sources.list.d/dbmultiverse.sources)" \
        || fail "doctor does not name the repository: $entry"
    ok "apt-get upgrade: $v2; chapter 42 at 35% kept; cards still linked ($(links "after the upgrade")); doctor: updates from $url/good/"

    apt_get install --allow-downgrades "dbmultiverse=$v1" >/tmp/downgrade.log 2>&1 || { cat /tmp/downgrade.log; fail "the downgrade to $v1"; }
    [ "$(installed dbmultiverse)" = "$v1" ] || fail "after the downgrade: dbmultiverse $(installed dbmultiverse)"
    entry=$(in_session 'dbmultiverse entry --format json') || fail "after the downgrade the service did not answer: $entry"
    case "$entry" in *'"chapter":42'*) ;; *) fail "after the downgrade the entry lost chapter 42: $entry" ;; esac
    ok "apt-get install dbmultiverse=$v1 --allow-downgrades: $v1, chapter 42 kept"

    # Purge: no file or link of the packages' is left; the reader's data stays.
    dpkg -L dbmultiverse dbmultiverse-apt-source dbmultiverse-archive-keyring | sort -u >/tmp/files.list
    apt_get purge dbmultiverse dbmultiverse-apt-source dbmultiverse-archive-keyring >/tmp/purge.log 2>&1 || { cat /tmp/purge.log; fail "apt-get purge"; }
    left=$(while read -r path; do [ -d "$path" ] && [ ! -L "$path" ] && continue; [ -e "$path" ] || [ -L "$path" ] && echo "$path"; done </tmp/files.list || true)
    for link in /usr/share/gnome-shell/extensions/dbmultiverse@nobadi.com /usr/share/plasma/plasmoids/com.nobadi.dbmultiverse; do
        [ -e "$link" ] || [ -L "$link" ] && left="$left $link"
    done
    [ -z "$left" ] || fail "purge left: $left"
    [ -z "$(installed dbmultiverse)" ] && [ ! -e /etc/apt/sources.list.d/dbmultiverse.sources ] || fail "purge left the package or its .sources file"
    [ -d /root/.local/share/dbmultiverse ] || fail "purge removed the reader's data folder"
    ok "apt-get purge: no file or link of the packages' left ($(wc -l </tmp/files.list) paths checked), the reader's data folder kept"

    # The downloaded .deb files, then apt upgrade brings the second version.
    apt_get install "/srv/debs/dbmultiverse_${v1}_amd64.deb" "/srv/debs/dbmultiverse-apt-source_${v1}_all.deb" "/srv/debs/dbmultiverse-archive-keyring_${v1}_all.deb" >/tmp/local.log 2>&1 \
        || { cat /tmp/local.log; fail "apt-get install of the downloaded .deb files"; }
    apt_get update >/tmp/update3.log 2>&1 && apt_get upgrade >/tmp/upgrade3.log 2>&1 || { cat /tmp/update3.log /tmp/upgrade3.log; fail "update and upgrade after installing the downloaded files"; }
    [ "$(installed dbmultiverse)" = "$v2" ] || fail "after installing the downloaded $v1 and apt upgrade: dbmultiverse $(installed dbmultiverse)"
    ok "the downloaded $v1 .deb files, then apt-get upgrade: $v2"
    echo "repository check: every step passed on $release"
    exit 0
fi

[ "$(id -u)" -eq 0 ] || { echo "FAIL: the repository check needs root (chroot, mounts, a network namespace)" >&2; exit 1; }
fixture=$(realpath -m "${REPOSITORY_FIXTURE:-.build/test-results/apt-repository}")
./scripts/packaging/repository-fixture.sh "$fixture" >&2 || { echo "FAIL: no repository fixture (above)" >&2; exit 1; }
./scripts/real-hosts/release-chroot.sh prepare "$release" >&2 || { echo "FAIL: no $release chroot (above)" >&2; exit 1; }
# shellcheck disable=SC1091
. "$fixture/env"
echo "release: $release; versions $v1 and $v2; signed by $key"
# A network of its own, with loopback up, for the chroot's web server and apt.
exec unshare --net -- sh -c 'ip link set lo up && exec "$@"' sh \
    ./scripts/real-hosts/release-chroot.sh run "$release" --bind "$fixture/srv:/srv/repository" --bind "$fixture/debs:/srv/debs" --bind "$PWD:$PWD" -- \
    env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 "$PWD/scripts/real-hosts/apt-repository-check.sh" "$release" --inside "$v1" "$v2"
