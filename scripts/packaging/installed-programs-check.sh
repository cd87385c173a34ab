#!/usr/bin/env bash
# The installed package's programs at work, without a desktop (SourcePackageBuildTests runs it in a
# chroot of the release the package was built for, with the network off but the loopback):
#   scripts/packaging/installed-programs-check.sh VERSION
# - each program prints VERSION (dbmultiverse and its programs in /usr/libexec/dbmultiverse);
# - on a private bus (dbus-run-session), `dbmultiverse update` stores a chapter through the service
#   that D-Bus activates from the package's service file, and `dbmultiverse entry` reads it back;
# - `dbmultiverse sync` against a site on the loopback interface (python3's http.server, a feed
#   that lists no pages): libcurl fetches the feed and libxml2 parses it, each loaded with dlopen
#   by the soname the build chose, so it fails with "the feed lists no pages", not "cannot load".
# Prints what each step printed and a ✓ or ✘ line per check. Exit status: 0 all passed, 1 otherwise.
set -uo pipefail
source "$(dirname "$0")/../lib/bounded-wait.sh"
version=${1:?usage: $0 VERSION}
work=$(mktemp -d)
server=""
trap '[ -n "$server" ] && kill "$server" 2>/dev/null; rm -rf "$work"' EXIT
export HOME="$work/home" XDG_RUNTIME_DIR="$work/runtime"
mkdir -p "$HOME" "$XDG_RUNTIME_DIR"
chmod 700 "$XDG_RUNTIME_DIR"
status=0
check() { # description, command...
    local description=$1; shift
    if "$@"; then echo "✓ $description"; else echo "✘ $description"; status=1; fi
}

for program in /usr/bin/dbmultiverse /usr/libexec/dbmultiverse/dbmultiverse-*; do
    printed=$(timeout 20 "$program" --version 2>&1)
    check "$program --version prints $version (it printed: $printed)" test "$printed" = "$version"
done

entry=$(timeout 60 dbus-run-session -- sh -c \
    'dbmultiverse update --chapter 42 --name "Goku & Vegeta Unite!" --progress 35 && dbmultiverse entry --format json' 2>"$work/bus.log")
echo "entry: $entry"
check "on a private bus, the activated service stores chapter 42 at 35% and dbmultiverse entry reads it back" \
    grep -q '"chapter":42,"name":"Goku & Vegeta Unite!","progress":35' <<<"$entry"
[ "$status" -eq 0 ] || cat "$work/bus.log"

mkdir "$work/site"
printf '<?xml version="1.0"?>\n<rss version="2.0"><channel><title>DBMultiverse</title></channel></rss>\n' >"$work/site/flux.rss.php"
python3 -u -m http.server --bind 127.0.0.1 --directory "$work/site" 8000 >"$work/server.log" 2>&1 &
server=$!
wait_for 100 grep -q "Serving HTTP" "$work/server.log"
sync=$(DBMULTIVERSE_SITE_URL=http://127.0.0.1:8000 timeout 60 dbmultiverse sync 2>&1)
echo "sync: $sync"
check "sync fetches the feed with libcurl and parses it with libxml2 (\"the feed lists no pages\")" \
    grep -q "the feed lists no pages" <<<"$sync"
exit "$status"
