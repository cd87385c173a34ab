#!/bin/sh
# The dbmultiverse(1) man page, generated from the binary's own help (every subcommand's --help) by
# swift-argument-parser's generate-manual tool (`swift build --product generate-manual`):
#   scripts/packaging/man-page.sh BINARY GENERATE_MANUAL OUTPUT_DIR [YYYY-MM-DD]
# writes OUTPUT_DIR/dbmultiverse.1, dated YYYY-MM-DD (default: today; debian/rules passes the
# changelog's date so the page is the same at every build). Nothing generated is committed.
set -eu
binary=$(realpath "${1:?usage: $0 BINARY GENERATE_MANUAL OUTPUT_DIR [YYYY-MM-DD]}")
generator=${2:?usage: $0 BINARY GENERATE_MANUAL OUTPUT_DIR [YYYY-MM-DD]}
out=${3:?usage: $0 BINARY GENERATE_MANUAL OUTPUT_DIR [YYYY-MM-DD]}
date=${4:-$(date -u +%Y-%m-%d)}

# generate-manual reads the tool's `--experimental-dump-help` JSON and silently drops every
# non-ASCII character ("1…99999" came out as "199999"): hand it the help transliterated to ASCII.
# The binary runs under the C locale: the page is the English one whatever the builder's session
# (the help is translated otherwise, docs/translations.md).
staging=$(mktemp -d)
trap 'rm -rf "$staging"' EXIT
cat > "$staging/dbmultiverse" <<WRAPPER
#!/bin/sh
LC_ALL=C "$binary" "\$@" | LC_ALL=C.UTF-8 iconv -f UTF-8 -t ASCII//TRANSLIT
WRAPPER
chmod 755 "$staging/dbmultiverse"
"$staging/dbmultiverse" --experimental-dump-help | grep -q '"command"' \
    || { echo "man-page.sh: $binary gave no help to generate the page from" >&2; exit 1; }

mkdir -p "$out"
"$generator" "$staging/dbmultiverse" --date "$date" --section 1 --output-directory "$out"
echo "$out/dbmultiverse.1"
