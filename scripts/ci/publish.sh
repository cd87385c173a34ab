#!/usr/bin/env bash
# The release workflow's steps after `make test` (.github/workflows/release.yml, docs/releasing.md):
#   scripts/ci/publish.sh import-key       ARCHIVE_SIGNING_KEY (the archive key's armored secret key,
#                                          from the environment's secrets) into a GNUPGHOME of the
#                                          run's; it must be the key debian/archive-keyring/ ships
#   scripts/ci/publish.sh release          make release, SHA256SUMS signed with that key
#   scripts/ci/publish.sh github-release   the tag's GitHub release with dist/release/'s files (gh)
#   scripts/ci/publish.sh repository       the gh-pages branch (what GitHub Pages serves): its apt
#                                          repository with dist/release/'s packages added by make repo,
#                                          or, without a dist/release (the weekly run), signed again
# GITHUB_REPOSITORY, GITHUB_REF_NAME and GH_TOKEN come from the workflow.
set -euo pipefail
cd "$(dirname "$0")/../.."
export GNUPGHOME="${RUNNER_TEMP:-/tmp}/archive-gnupg"
fail() { echo "publish.sh: $*" >&2; exit 1; }
fingerprint() { cat "$GNUPGHOME/fingerprint"; }

case "${1:-}" in
    import-key)
        [ -n "${ARCHIVE_SIGNING_KEY:-}" ] || fail "the release environment has no ARCHIVE_SIGNING_KEY secret (docs/releasing.md)"
        install -d -m 700 "$GNUPGHOME"
        printf '%s\n' "$ARCHIVE_SIGNING_KEY" | gpg --batch --quiet --import
        key=$(gpg --batch --with-colons --list-secret-keys | awk -F: '$1 == "fpr" { print $10; exit }')
        [ -n "$key" ] || fail "ARCHIVE_SIGNING_KEY holds no secret key"
        shipped=debian/archive-keyring/dbmultiverse-archive-keyring.pgp
        [ -f "$shipped" ] || fail "$shipped is missing: the package must ship the key that signs (docs/releasing.md)"
        gpg --batch --no-default-keyring --show-keys --with-colons "$shipped" | grep -q "^fpr:.*:$key:\$" \
            || fail "ARCHIVE_SIGNING_KEY ($key) is not the key $shipped holds"
        echo "$key" >"$GNUPGHOME/fingerprint"
        echo "publish.sh: the archive key is $key" ;;
    release)
        make release SIGNING_KEY="$(fingerprint)" ;;
    github-release)
        version=$(./scripts/build/project-version.sh)
        [ "${GITHUB_REF_NAME:-}" = "v$version" ] || fail "the tag ${GITHUB_REF_NAME:-?} is not v$version, debian/changelog's version"
        dpkg-parsechangelog -SChanges | tail -n +4 | sed 's/^ //; s/^\.$//' >"${RUNNER_TEMP:-/tmp}/notes.md"
        gh release create "v$version" dist/release/* --repo "$GITHUB_REPOSITORY" --verify-tag \
            --title "DBMultiverse Desktop $version" --notes-file "${RUNNER_TEMP:-/tmp}/notes.md" ;;
    repository)
        work=$(mktemp -d)
        remote="https://x-access-token:$GH_TOKEN@github.com/$GITHUB_REPOSITORY.git"
        if git clone --quiet --branch gh-pages --depth 1 "$remote" "$work/site" 2>/dev/null; then
            mv "$work/site/.git" "$work/git"
        else # the first release: a branch of its own
            mkdir -p "$work/site"
            git init --quiet --initial-branch gh-pages "$work/site"
            mv "$work/site/.git" "$work/git"
            rm -rf "$work/site"
        fi
        debs=()
        [ -d dist/release ] && debs=(dist/release/dbmultiverse_*.deb dist/release/dbmultiverse-apt-source_*.deb dist/release/dbmultiverse-archive-keyring_*.deb)
        make repo REPO="$work/site" SIGNING_KEY="$(fingerprint)" DEBS="${debs[*]}"
        touch "$work/site/.nojekyll" # static files: no Jekyll on GitHub Pages
        git="git --git-dir=$work/git --work-tree=$work/site"
        $git add --all
        $git -c user.name="DBMultiverse Desktop release" -c user.email="releases@users.noreply.github.com" \
            commit --quiet -m "apt repository: ${debs[*]:-signed again}"
        $git push --quiet "$remote" HEAD:gh-pages ;;
    *) sed -n '2,12p' "$0" >&2; exit 2 ;;
esac
