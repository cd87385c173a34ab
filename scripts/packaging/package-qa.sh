#!/usr/bin/env bash
# The package judged as Debian judges packages, and its life on a reader's machine (docs/development.md,
# "The package's QA"), each check's verdict kept:
#   scripts/packaging/package-qa.sh lifecycle RELEASE    install → upgrade → downgrade → remove → purge, with a
#                                              reader's session, and what is not the package's at a card's place
#                                              (scripts/real-hosts/release-lifecycle-check.sh)
#   scripts/packaging/package-qa.sh piuparts RELEASE     piuparts (this machine's, Debian 12's 1.1.7): install and
#                                              purge, then upgrade from the previous version, on a minbase
#                                              chroot of RELEASE with systemd-sysv
#   scripts/packaging/package-qa.sh autopkgtest RELEASE  debian/tests by RELEASE's own autopkgtest (its null runner)
#                                              in a throw-away copy of RELEASE's chroot
#   scripts/packaging/package-qa.sh lintian              sid's lintian on the .deb, the source package and the .changes
#   scripts/packaging/package-qa.sh all                  every one of them, three at a time (make test starts this in
#                                              the background)
#   scripts/packaging/package-qa.sh ready                exit status 0 when every one of them has a passing verdict kept
#                                              for the package and chroots as they are, else 1: nothing is built,
#                                              run or waited for
# RELEASE is bookworm, trixie or sid. The .deb is scripts/packaging/test-package.sh's; "the previous version" is the
# same .deb repacked with a lower version (VERSION~previous, dpkg-deb -R/-b), so that an upgrade and a
# downgrade run between two versions that both carry what is tested. A verdict (the check's log and
# exit status) is kept in CACHE/qa, keyed by the hashes of what the check reads (the .deb, the
# source package, the scripts it runs, the chroot's stamp): asked again with the same inputs, the
# check prints its kept log and exits with its kept status at once (a failure is kept only for the
# test run that saw it: PACKAGE_QA_RUN). One run of a check at a time
# (a lock, waited for at most CHROOT_WAIT seconds). CACHE: CHROOT_CACHE, default
# /var/cache/dbmultiverse-tests. Needs root. Exit status: the check's (0 passed, 1 failed), 2 bad usage.
set -euo pipefail
cd "$(dirname "$0")/../.."
cache="${CHROOT_CACHE:-/var/cache/dbmultiverse-tests}"
qa="$cache/qa"
mirror="${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
usage() { sed -n '4,17p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
[ "$(id -u)" -eq 0 ] || { echo "package-qa: needs root (chroots, mounts)" >&2; exit 1; }
mkdir -p "$qa"
# Set by `ready`: each step only looks for what a run kept, and fails (status 1) where it would make something.
ready_only=""

# hash_of FILE...: of the files' contents only (not of the names they were given: this script is
# run as ./scripts/… by make test's background and by its absolute path from the tests).
hash_of() { sha256sum "$@" | cut -d' ' -f1 | sha256sum | cut -c1-16; }

# The .deb under test (test-package.sh's), copied with the rest of its build (.changes, .buildinfo,
# -dbgsym) to a folder kept per .deb: a check reads that copy, which a new build of the package
# (which first removes the last .deb) cannot take away from under it.
current_deb() {
    local built copy deb folder
    if [ -n "$ready_only" ]; then
        built=$(./scripts/packaging/test-package.sh --ready) || return 1
        deb="$qa/build-$(hash_of "$built")/${built##*/}"
        [ -f "$deb" ] && echo "$deb"
        return
    fi
    built=$(./scripts/packaging/test-package.sh | tail -1) || return 1
    copy=$(mktemp -d "$qa/build.XXXXXX")
    # shellcheck disable=SC2016
    flock -w "${CHROOT_WAIT:-1500}" "$cache/package/lock" sh -c 'cp -p "$1"/* "$2"/' sh "$(dirname "$built")" "$copy" \
        || { rm -rf "$copy"; return 1; }
    deb="$copy/${built##*/}"
    [ -f "$deb" ] || { rm -rf "$copy"; echo "package-qa: no $built after its build" >&2; return 1; }
    folder="$qa/build-$(hash_of "$deb")"
    if [ -d "$folder" ]; then rm -rf "$copy"; else mv -T "$copy" "$folder" 2>/dev/null || rm -rf "$copy"; fi
    find "$qa" -maxdepth 1 -name 'build-*' ! -path "$folder" -mmin +1440 -exec rm -rf {} +
    echo "$folder/${built##*/}"
}

# previous_deb DEB: DEB repacked as VERSION~previous (kept per DEB).
previous_deb() {
    local deb=$1 out version tree
    out="$qa/previous-$(hash_of "$deb").deb"
    [ -f "$out" ] || [ -z "$ready_only" ] || return 1
    if [ ! -f "$out" ]; then
        tree=$(mktemp -d)
        dpkg-deb -R "$deb" "$tree/root"
        version=$(dpkg-deb -f "$deb" Version)
        sed -i "s/^Version: .*/Version: $version~previous/" "$tree/root/DEBIAN/control"
        # A name of this lane's own: the lanes of `all` may make it at once (they share $$, the
        # script's pid: one lane's mv found the file already moved by the other).
        dpkg-deb -Zgzip -z1 -b "$tree/root" "$out.$BASHPID" >/dev/null
        mv "$out.$BASHPID" "$out"
        rm -rf "$tree"
    fi
    echo "$out"
}

# The source package of the tracked files (scripts/packaging/source-package.sh), kept per content.
source_package() {
    local stamp out
    stamp=$(git ls-files -z --cached | xargs -0 sha256sum 2>/dev/null | sha256sum | cut -c1-16)
    out="$qa/source-$stamp"
    [ -f "$out/done" ] || [ -z "$ready_only" ] || return 1
    if [ ! -f "$out/done" ]; then
        rm -rf "$qa"/source-*
        ./scripts/packaging/source-package.sh "$out" >"$qa/source-package.log" 2>&1 \
            || { cat "$qa/source-package.log" >&2; return 1; }
        touch "$out/done"
    fi
    echo "$out"
}

chroot_stamp() { cat "$cache/$1/stamp" 2>/dev/null || echo none; }
# release_chroot RELEASE: the release's chroot made (or, for `ready`, found current).
release_chroot() {
    if [ -n "$ready_only" ]; then ./scripts/real-hosts/release-chroot.sh ready "$1" >/dev/null
    else ./scripts/real-hosts/release-chroot.sh prepare "$1" >/dev/null; fi
}

# piuparts' base: RELEASE's debootstrap --variant=minbase (release-chroot.sh keeps it) with
# systemd-sysv, which the package's dependencies would pull in (and piuparts' purge then fault),
# kept as a folder (piuparts --existing-chroot copies it for each run).
piuparts_base() {
    local release=$1 dir="$qa/piuparts-base-$1" key
    [ -f "$cache/$release/base.done" ] || { [ -z "$ready_only" ] && ./scripts/real-hosts/release-chroot.sh prepare "$release" >&2; } || return 1
    key="1 $mirror $(stat -c %Y "$cache/$release/base.done")"
    if [ -d "$dir" ] && [ "$(cat "$dir.key" 2>/dev/null)" = "$key" ]; then echo "$dir"; return 0; fi
    [ -z "$ready_only" ] || return 1
    rm -rf "$dir" "$dir.key"
    cp -a "$cache/$release/base" "$dir.new"
    # As in release-chroot.sh: this machine's clock may be past a Release file's Valid-Until.
    printf 'Acquire::Check-Valid-Until "false";\n' >"$dir.new/etc/apt/apt.conf.d/90dbmultiverse-qa"
    # shellcheck disable=SC2016
    unshare --mount --propagation private --fork -- bash -ec '
        root=$1
        mount -t proc proc "$root/proc"
        mount --bind /dev "$root/dev"
        cp /etc/resolv.conf "$root/etc/resolv.conf"
        chroot "$root" apt-get update -q
        DEBIAN_FRONTEND=noninteractive chroot "$root" apt-get install -y -q --no-install-recommends systemd-sysv
        chroot "$root" apt-get clean
        rm -rf "$root"/var/lib/apt/lists/*
    ' bash "$dir.new" >"$qa/piuparts-base-$release.log" 2>&1 || { tail -20 "$qa/piuparts-base-$release.log" >&2; return 1; }
    mv "$dir.new" "$dir"
    echo "$key" >"$dir.key"
    echo "$dir"
}

# verdict NAME KEY COMMAND...: COMMAND's kept log and status for KEY, or COMMAND run now (its output
# to the log and the terminal) and its verdict kept. A pass is kept for good; a failure only for the
# test run that saw it (PACKAGE_QA_RUN, which scripts/test/run-tests.sh sets: its tests read the
# background's verdict), so that the next run looks again (a mirror that did not answer, a check
# being fixed).
verdict() {
    local name=$1 key=$2; shift 2
    local log="$qa/$name.$key.log" status="$qa/$name.$key.status" run="$qa/$name.$key.run"
    if [ -n "$ready_only" ]; then [ "$(cat "$status" 2>/dev/null)" = 0 ]; return; fi
    exec 7>"$qa/$name.lock"
    flock -w "${CHROOT_WAIT:-1500}" 7 || { echo "package-qa: waited ${CHROOT_WAIT:-1500} s for another run of $name" >&2; return 1; }
    if [ -f "$status" ] && { [ "$(cat "$status")" = 0 ] || { [ -n "${PACKAGE_QA_RUN:-}" ] && [ "$(cat "$run" 2>/dev/null)" = "$PACKAGE_QA_RUN" ]; }; }; then
        echo "package-qa: $name: the verdict kept for these inputs ($key)"
        cat "$log"
        exec 7>&-
        return "$(cat "$status")"
    fi
    rm -f "$qa/$name".*.log "$qa/$name".*.status "$qa/$name".*.run
    local started=$SECONDS code=0
    # Without the lock's descriptor: a process the check leaves behind would hold the lock.
    "$@" 7>&- 2>&1 | tee "$log.new" || code=${PIPESTATUS[0]}
    echo "package-qa: $name took $((SECONDS - started)) s" | tee -a "$log.new"
    mv "$log.new" "$log"
    echo "${PACKAGE_QA_RUN:-}" >"$run"
    echo "$code" >"$status"
    exec 7>&-
    return "$code"
}

check_release() {
    case "${1:-}" in bookworm|trixie|sid) ;; *) usage ;; esac
}

lifecycle() {
    local release=$1 deb previous key
    deb=$(current_deb) && previous=$(previous_deb "$deb") || return 1
    release_chroot "$release" || return 1
    key=$(hash_of "$deb" "$0" scripts/real-hosts/release-lifecycle-check.sh scripts/real-hosts/release-chroot.sh \
        scripts/lib/bounded-wait.sh <(chroot_stamp "$release"))
    verdict "lifecycle-$release" "$key" ./scripts/real-hosts/release-lifecycle-check.sh "$release" "$previous" "$deb"
}

run_autopkgtest() { # RELEASE DEB: debian/tests of this tree against DEB, in the chroot (its autopkgtest, null runner)
    local release=$1 deb=$2 debs source
    debs=$(mktemp -d)
    cp "$deb" "$debs/"
    # The tests need debian/ alone (nothing is built): a copy of its tracked files, not the working
    # tree, which the test run writes into while autopkgtest copies it ("copy-failed").
    source=$(mktemp -d)
    git ls-files -z debian | xargs -0 cp --parents -t "$source"
    local code=0
    ./scripts/real-hosts/release-chroot.sh run "$release" --bind "$source:/source" --bind "$debs:/debs" -- \
        env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 \
        autopkgtest --output-dir /tmp/autopkgtest-out /source "/debs/${deb##*/}" -- null || code=$?
    rm -rf "$debs" "$source"
    return "$code"
}

autopkgtest_check() {
    local release=$1 deb key
    deb=$(current_deb) || return 1
    release_chroot "$release" || return 1
    key=$(hash_of "$deb" "$0" debian/tests/* scripts/real-hosts/release-chroot.sh <(chroot_stamp "$release"))
    verdict "autopkgtest-$release" "$key" run_autopkgtest "$release" "$deb"
}

run_lintian() { # SOURCE_DIR BUILD_DIR: sid's lintian on the source package and the binary build
    local source=$1 build=$2
    ./scripts/real-hosts/release-chroot.sh run sid --bind "$source:/source-package" --bind "$build:/build" -- \
        env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin LANG=C.UTF-8 sh -c '
            echo "lintian $(dpkg-query -W -f "\${Version}" lintian) (sid):"
            lintian --fail-on error,warning --no-tag-display-limit --info --display-experimental --pedantic \
                /source-package/*.dsc /build/*.changes
            status=$?
            echo "lintian exited $status"
            exit $status'
}

lintian_check() {
    local deb build source key
    deb=$(current_deb) && source=$(source_package) || return 1
    build=$(dirname "$deb") # the copy of the build: the .deb, the -dbgsym, the .changes
    release_chroot sid || return 1
    key=$(hash_of "$build"/*.deb "$build"/*.changes "$source"/*.dsc "$0" <(chroot_stamp sid))
    verdict lintian "$key" run_lintian "$source" "$build"
}

run_piuparts() { # RELEASE BASE DEB PREVIOUS
    local release=$1 base=$2 deb=$3 previous=$4 repository
    # The previous version in a repository of its own, which piuparts' upgrade test installs first.
    repository=$(mktemp -d /tmp/dbm-piuparts-repository.XXXXXX)
    cp "$previous" "$repository/"
    (cd "$repository" && dpkg-scanpackages --multiversion . /dev/null >Packages 2>/dev/null)
    local code=0
    piuparts --existing-chroot "$base" --distribution "$release" --mirror "$mirror main" \
        --bindmount "$repository" --extra-repo "deb [trusted=yes] file://$repository ./" \
        --warn-on-debsums-errors "$deb" || code=$?
    rm -rf "$repository"
    return "$code"
}

piuparts_check() {
    local release=$1 deb previous base key
    command -v piuparts >/dev/null || { echo "package-qa: piuparts is not installed (scripts/test/install-deps.sh installs it)" >&2; return 1; }
    deb=$(current_deb) && previous=$(previous_deb "$deb") && base=$(piuparts_base "$release") || return 1
    key=$(hash_of "$deb" "$previous" "$base.key" "$0" <(dpkg-query -W -f '${Version}' piuparts))
    verdict "piuparts-$release" "$key" run_piuparts "$release" "$base" "$deb" "$previous"
}

case "${1:-}" in
    lifecycle) check_release "${2:-}"; lifecycle "$2" ;;
    piuparts) check_release "${2:-}"; piuparts_check "$2" ;;
    autopkgtest) check_release "${2:-}"; autopkgtest_check "$2" ;;
    lintian) lintian_check ;;
    ready)
        ready_only=1
        for check in "lifecycle bookworm" "lifecycle trixie" "lifecycle sid" "piuparts_check bookworm" "piuparts_check trixie" \
            "piuparts_check sid" "autopkgtest_check bookworm" "autopkgtest_check trixie" "autopkgtest_check sid" lintian_check; do
            $check >/dev/null 2>&1 || exit 1
        done ;;
    all)
        # Three lanes at once (much of each check is dpkg, the network and waiting): piuparts needs
        # only the package and a minbase chroot, so its lane starts while the release chroots may
        # still be made; the others wait for them.
        lane() { local status=0 check; for check in "$@"; do $check >/dev/null || status=1; done; return "$status"; }
        lane "piuparts_check bookworm" "piuparts_check trixie" "piuparts_check sid" & piuparts=$!
        lane "autopkgtest_check bookworm" "autopkgtest_check trixie" "autopkgtest_check sid" lintian_check & others=$!
        status=0
        lane "lifecycle bookworm" "lifecycle trixie" "lifecycle sid" || status=1
        wait "$piuparts" || status=1
        wait "$others" || status=1
        exit "$status" ;;
    *) usage ;;
esac
