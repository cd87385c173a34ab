#!/usr/bin/env bash
# What the repository test serves in the Debian chroots (scripts/real-hosts/apt-repository-check.sh),
# made once per test run in OUT (scripts/test/run-tests.sh empties it at the start of a run):
#   - a throw-away Ed25519 key made for the run (OUT/gnupg; never the project's), and a second one;
#   - the packages of two versions: dbmultiverse as debian/ builds it (scripts/packaging/
#     test-package.sh, and --next: a real build one version on, both cached), and
#     dbmultiverse-archive-keyring and dbmultiverse-apt-source of each version, built with the run's
#     key and the URL the test serves (an arch-indep build: seconds);
#   - the repositories `make repo` makes of them (scripts/packaging/apt-repository.sh), in OUT/srv:
#     v1/ (the first version), v2/ (v1/ with the second version added: both in the pool),
#     tampered/ (v2/ with its Packages indexes changed after signing), other-key/ (v2/ signed
#     again by the second key), expired/ (v2/ signed again with a Valid-Until 10 days ago);
#   - OUT/env: the versions and file names, for the check to source.
# Callers wait on a lock; a finished OUT (OUT/env) is reused. Its log: OUT/fixture.log.
# Usage: scripts/packaging/repository-fixture.sh OUT
set -euo pipefail
cd "$(dirname "$0")/../.."
out=$(realpath -m "${1:?usage: $0 OUT}")
url=http://127.0.0.1:8080
mkdir -p "$out"
exec 9>"$out/lock"
flock -w "${CHROOT_WAIT:-1500}" 9 || { echo "repository-fixture: waited ${CHROOT_WAIT:-1500} s for another run" >&2; exit 1; }
[ -f "$out/env" ] && exit 0

make_fixture() {
    local key other v1_deb v2_deb v1 v2 version
    rm -rf "$out/gnupg" "$out/srv" "$out/keyring" "$out/debs"
    install -d -m 700 "$out/gnupg"
    export GNUPGHOME="$out/gnupg"
    for name in "DBMultiverse repository test key (throw-away)" "Another key (throw-away)"; do
        gpg --batch --passphrase '' --quick-gen-key "$name <repository-test@invalid>" ed25519 sign 2d
    done
    key=$(gpg --batch --with-colons --list-secret-keys "DBMultiverse repository test key" | awk -F: '$1 == "fpr" { print $10; exit }')
    other=$(gpg --batch --with-colons --list-secret-keys "Another key" | awk -F: '$1 == "fpr" { print $10; exit }')

    v1_deb=$(./scripts/packaging/test-package.sh | tail -1)
    v2_deb=$(./scripts/packaging/test-package.sh --next | tail -1)
    v1=$(dpkg-deb --field "$v1_deb" Version)
    v2=$(dpkg-deb --field "$v2_deb" Version)
    mkdir -p "$out/debs"
    cp "$v1_deb" "$v2_deb" "$out/debs/"

    # The keyring package of each version: debian/ with the run's key and the served URL (what the
    # source would hold for a real release: docs/releasing.md), the changelog of that version.
    local profiles
    profiles=$(./scripts/packaging/build-profiles.sh pkg.dbmultiverse.archive-keyring | tr ' ' ,)
    for version in "$v1" "$v2"; do
        local tree="$out/keyring/$version/source"
        mkdir -p "$tree"
        cp -r debian "$tree/"
        rm -rf "$tree/debian/dbmultiverse" "$tree/debian/.debhelper"
        if [ "$version" = "$v2" ]; then
            cp "${CHROOT_CACHE:-/var/cache/dbmultiverse-tests}/package-next/source/debian/changelog" "$tree/debian/changelog"
        fi
        gpg --batch --export "$key" >"$tree/debian/archive-keyring/dbmultiverse-archive-keyring.pgp"
        sed -i "s|^URIs: .*|URIs: $url/good/|" "$tree/debian/archive-keyring/dbmultiverse.sources"
        (cd "$tree" && dpkg-buildpackage -us -uc -A -P"$profiles") >"$out/keyring/$version/build.log" 2>&1 \
            || { tail -30 "$out/keyring/$version/build.log"; echo "repository-fixture: the keyring package $version did not build"; return 1; }
        cp "$out/keyring/$version/dbmultiverse-archive-keyring_${version}_all.deb" "$out/keyring/$version/dbmultiverse-apt-source_${version}_all.deb" "$out/debs/"
    done

    local repo=scripts/packaging/apt-repository.sh srv="$out/srv"
    $repo "$srv/v1" "$key" "$out/debs/"*"_${v1}_"*.deb
    cp -a "$srv/v1" "$srv/v2"
    $repo "$srv/v2" "$key" "$out/debs/"*"_${v2}_"*.deb
    # Changed after signing: a field of every Packages index (each compression, by-hash copies too,
    # so that apt meets the change whichever it fetches) — the Release's digests no longer match.
    cp -a "$srv/v2" "$srv/tampered"
    local packages="$srv/tampered/dists/stable/main/binary-amd64" name digest
    declare -A original=()
    for name in Packages Packages.gz Packages.bz2; do
        original[$(sha256sum "$packages/$name" | cut -d' ' -f1)]=$name
        original[$(sha512sum "$packages/$name" | cut -d' ' -f1)]=$name
    done
    sed -i 's/^Priority: optional$/Priority: required/' "$packages/Packages"
    grep -q '^Priority: required$' "$packages/Packages" || { echo "repository-fixture: no Priority field to change in Packages"; return 1; }
    gzip -9n <"$packages/Packages" >"$packages/Packages.gz"
    bzip2 -9 <"$packages/Packages" >"$packages/Packages.bz2"
    # aptly's by-hash files are hard links to the indexes: those of the compressed ones changed with
    # them, that of Packages (replaced by sed) is written again.
    for file in "$packages"/by-hash/*/*; do
        digest=$(basename "$file")
        if [ -n "${original[$digest]:-}" ] && ! cmp -s "$packages/${original[$digest]}" "$file"; then
            cp "$packages/${original[$digest]}" "$file"
        fi
    done
    cp -a "$srv/v2" "$srv/other-key"
    $repo "$srv/other-key" "$other"
    cp -a "$srv/v2" "$srv/expired"
    VALID_DAYS=-10 $repo "$srv/expired" "$key"
    ln -sfn v1 "$srv/good"

    cat >"$out/env.new" <<ENV
v1=$v1
v2=$v2
key=$key
other_key=$other
ENV
    mv "$out/env.new" "$out/env"
}
started=$SECONDS
make_fixture >"$out/fixture.log" 2>&1 || { tail -30 "$out/fixture.log" >&2; echo "repository-fixture: failed (log: $out/fixture.log)" >&2; exit 1; }
echo "repository-fixture: made in $(( SECONDS - started )) s: $(cat "$out/env" | tr '\n' ' ')"
