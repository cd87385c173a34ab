#!/usr/bin/env bash
# The project's apt repository (docs/releasing.md), static files any web host serves:
#   scripts/packaging/apt-repository.sh DIR SIGNING_KEY [DEB...]      (make repo REPO=DIR SIGNING_KEY=… DEBS="…")
# adds the DEBs to what DIR holds and publishes it all again, signed: suite `stable`, component
# `main`, amd64 (and arch-indep packages). With no DEB it publishes DIR's packages again with a new
# signature and Valid-Until: the release job's re-signing.
#   - The indexes are Debian's repository tool's (aptly, from bookworm: it keeps every version of a
#     package, so older ones stay in the pool and a downgrade is possible, and it writes the by-hash
#     indexes). aptly keeps no state here: it is given DIR's pool and the new DEBs in a scratch
#     folder each time, so DIR is all there is (a web host's copy, a gh-pages branch).
#   - The Release file then gets what aptly does not write: a Valid-Until (VALID_DAYS, default 30
#     days; the release job re-signs weekly; the tests give a negative one for an expired Release) and digests of SHA-256 or stronger only (its MD5Sum
#     and SHA1 lists and their by-hash copies removed: apt uses none of them, and Debian 13's sqv
#     refuses SHA-1). It is signed with SIGNING_KEY (a full fingerprint, from GNUPGHOME) into
#     InRelease and Release.gpg, digest SHA-512; both signatures are verified (gpgv, and sqv, the
#     verifier Debian 13's apt runs) against the exported key before anything is published.
#   - DIR also gets the key (dbmultiverse-archive-keyring.pgp, binary OpenPGP) and the deb822
#     entry readers install (dbmultiverse.sources, debian/archive-keyring/'s: the published URL).
# Refused, with DIR left as it was: no key, an unknown one or one given by less than its
# fingerprint; a .deb that is not one of debian/control's packages (nor a dbgsym: those go with the
# release, not here) or not for amd64/all; a version the pool has with other contents; a keyring
# package whose key is not SIGNING_KEY. The new state is made beside DIR and swapped in at once
# (renameat2 RENAME_EXCHANGE), so a web server never serves half of it.
# Exit status: 0 published, 1 refused or failed, 2 bad usage.
set -euo pipefail
cd "$(dirname "$0")/../.."
source_tree=$PWD
fail() { echo "make repo: $*" >&2; exit 1; }
[ $# -ge 2 ] || { echo "usage: make repo REPO=DIR SIGNING_KEY=FINGERPRINT [DEBS=\"a.deb b.deb\"] (GNUPGHOME from the environment)" >&2; exit 2; }
dir=$1 key=$2
shift 2
valid_days=${VALID_DAYS:-30}
[ -n "$dir" ] || fail "no REPO: the folder the repository is in (made when missing)"
for tool in aptly gpg gpgv sqv dpkg-deb python3; do
    command -v "$tool" >/dev/null || fail "$tool is missing (scripts/test/install-deps.sh repo installs it)"
done

# The key: a full fingerprint of a secret key in GNUPGHOME.
[ -n "$key" ] || fail "no SIGNING_KEY: give the fingerprint of the key that signs the repository (its secret key in \$GNUPGHOME)"
[[ "$key" =~ ^[0-9A-Fa-f]{40}$ ]] || fail "SIGNING_KEY must be the key's full fingerprint (40 hex digits), not '$key'"
key=${key^^}
secret=$(gpg --batch --with-colons --list-secret-keys -- "$key" 2>/dev/null) \
    || fail "no secret key $key in ${GNUPGHOME:-~/.gnupg} (GNUPGHOME)"
printf '%s\n' "$secret" | awk -F: '$1 == "fpr" { print $10 }' | grep -qx "$key" \
    || fail "no secret key $key in ${GNUPGHOME:-~/.gnupg} (GNUPGHOME)"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
gpg --batch --export -- "$key" >"$work/keyring.pgp"
keyring_fingerprints() { # KEYRING: the primary keys' fingerprints, one a line
    gpg --batch --no-default-keyring --show-keys --with-colons "$1" 2>/dev/null \
        | awk -F: '$1 == "pub" { want = 1; next } $1 == "fpr" && want { print $10; want = 0 }'
}

# The packages: ours, for amd64, each version with one content. What the pool holds, by its fields.
mapfile -t ours < <(sed -n 's/^Package: *//p' debian/control)
fields_of() { dpkg-deb --show --showformat '${Package} ${Version} ${Architecture}\n' "$1" 2>/dev/null; }
declare -A pooled=() adding=()
mapfile -t kept < <(find "$dir/pool" -type f -name '*.deb' 2>/dev/null | sort)
for deb in "${kept[@]}"; do
    fields=$(fields_of "$deb") || fail "$deb in the repository's pool is not a Debian package"
    pooled[$fields]=$deb
done
mkdir -p "$work/incoming"
for deb in "$@"; do
    [ -f "$deb" ] || fail "$deb: no such file"
    fields=$(fields_of "$deb") || fail "$deb is not a Debian package (dpkg-deb cannot read it)"
    read -r package version architecture <<<"$fields"
    case " ${ours[*]} " in *" $package "*) ;; *)
        case "$package" in *-dbgsym) fail "$deb: debug symbols ($package) go with the release's files, not into the repository" ;; esac
        fail "$deb is $package, not one of this project's packages (${ours[*]})" ;;
    esac
    case "$architecture" in amd64|all) ;; *) fail "$deb is for $architecture: the repository is amd64 (and all)" ;; esac
    if [ -n "${adding[$fields]:-}" ] && ! cmp -s "${adding[$fields]}" "$deb"; then
        fail "$deb and ${adding[$fields]} are both $package $version with other contents"
    fi
    if [ -n "${pooled[$fields]:-}" ] && ! cmp -s "${pooled[$fields]}" "$deb"; then
        fail "$deb: the repository has $package $version already, with other contents (${pooled[$fields]}); a new build needs a new version (make release-version)"
    fi
    if [ "$package" = dbmultiverse-archive-keyring ]; then
        dpkg-deb --fsys-tarfile "$deb" | tar -xOf - ./usr/share/keyrings/dbmultiverse-archive-keyring.pgp >"$work/shipped.pgp" 2>/dev/null \
            || fail "$deb has no /usr/share/keyrings/dbmultiverse-archive-keyring.pgp"
        [ "$(keyring_fingerprints "$work/shipped.pgp")" = "$key" ] \
            || fail "$deb ships the key $(keyring_fingerprints "$work/shipped.pgp" | tr '\n' ' ')but the repository is signed by $key: readers' apt would refuse it"
    fi
    adding[$fields]=$deb
    # Under Debian's name for it, whatever the file was called.
    cp "$deb" "$work/incoming/${package}_${version#*:}_$architecture.deb"
done
debs=("$work/incoming"/*.deb)
[ -e "${debs[0]}" ] || debs=()
[ ${#debs[@]} -gt 0 ] || [ ${#kept[@]} -gt 0 ] || fail "no packages: DIR's pool is empty and no DEBS were given"

# The indexes, by aptly, in the scratch folder.
cat >"$work/aptly.conf" <<CONF
{"rootDir": "$work/aptly", "architectures": ["amd64"], "gpgDisableSign": true, "gpgDisableVerify": true}
CONF
aptly_run() { aptly -config="$work/aptly.conf" "$@" >>"$work/aptly.log" 2>&1 || { cat "$work/aptly.log" >&2; fail "aptly $1 $2 failed (above)"; }; }
aptly_run repo create -distribution=stable -component=main dbmultiverse
for deb in "${kept[@]}" "${debs[@]}"; do aptly_run repo add dbmultiverse "$deb"; done
aptly_run publish repo -skip-signing -acquire-by-hash -architectures=amd64 \
    -origin="DBMultiverse Desktop" -label="DBMultiverse Desktop" dbmultiverse
public="$work/aptly/public"
release="$public/dists/stable/Release"

# Valid-Until after Date; the MD5Sum and SHA1 lists out (a list is a field and its indented lines).
[[ "$valid_days" =~ ^-?[0-9]+$ ]] || fail "VALID_DAYS must be a number of days, not '$valid_days'"
valid_until=$(LC_ALL=C date -u -d "$valid_days days" '+%a, %d %b %Y %H:%M:%S UTC')
awk -v until="$valid_until" '
    /^[^ ]/ { skip = ($1 == "MD5Sum:" || $1 == "SHA1:") }
    skip { next }
    { print }
    /^Date: / { print "Valid-Until: " until }' "$release" >"$release.new"
mv "$release.new" "$release"
grep -q '^Valid-Until: ' "$release" && grep -q '^SHA256:' "$release" && ! grep -qE '^(MD5Sum|SHA1):' "$release" \
    || fail "aptly's Release file is not as expected (no Date or SHA256 list): $release"
find "$public/dists" -type d \( -path '*/by-hash/MD5Sum' -o -path '*/by-hash/SHA1' \) -prune -exec rm -rf {} +

# Signed, then verified as apt would, with the key alone.
sign() { gpg --batch --yes --local-user "$key" --digest-algo SHA512 "$@"; }
sign --clearsign --output "$public/dists/stable/InRelease" "$release" 2>>"$work/gpg.log" \
    && sign --armor --detach-sign --output "$public/dists/stable/Release.gpg" "$release" 2>>"$work/gpg.log" \
    || { cat "$work/gpg.log" >&2; fail "gpg could not sign with $key (above)"; }
gpgv --keyring "$work/keyring.pgp" "$public/dists/stable/InRelease" >>"$work/gpg.log" 2>&1 \
    && sqv --keyring "$work/keyring.pgp" "$public/dists/stable/Release.gpg" "$release" >>"$work/gpg.log" 2>&1 \
    || { cat "$work/gpg.log" >&2; fail "the signatures made with $key do not verify with gpgv and sqv (above)"; }
cp "$work/keyring.pgp" "$public/dbmultiverse-archive-keyring.pgp"
cp "$source_tree/debian/archive-keyring/dbmultiverse.sources" "$public/dbmultiverse.sources"
chmod -R u=rwX,go=rX "$public"

# Into place: made beside DIR (same file system), then swapped with it in one rename.
mkdir -p "$(dirname "$dir")"
target=$(realpath -m "$dir")
staged="$(dirname "$target")/.$(basename "$target").new.$$"
rm -rf "$staged"
cp -a "$public" "$staged"
if [ -d "$target" ]; then
    python3 - "$staged" "$target" <<'PYTHON' || { rm -rf "$staged"; fail "could not swap the new repository into $target"; }
import ctypes, os, sys
libc = ctypes.CDLL(None, use_errno=True)
AT_FDCWD, RENAME_EXCHANGE = -100, 2
if libc.renameat2(AT_FDCWD, sys.argv[1].encode(), AT_FDCWD, sys.argv[2].encode(), RENAME_EXCHANGE) != 0:
    error = ctypes.get_errno()
    sys.exit("renameat2: " + os.strerror(error))
PYTHON
    rm -rf "$staged" # now the old state
else
    mv "$staged" "$target"
fi
echo "make repo: $target: $(find "$target/pool" -name '*.deb' | wc -l) packages ($(find "$target/pool" -name '*.deb' -printf '%f ' | sed 's/ $//')), signed by $key, valid until $valid_until"
