#!/usr/bin/env bash
# The translations (docs/translations.md): one catalogue, text domain dbmultiverse, po/ at the root.
#   translations.sh pot [FILE]   the template from po/POTFILES (default: po/dbmultiverse.pot)
#   translations.sh build DIR    DIR/locale/<ll>/LC_MESSAGES/dbmultiverse.mo for po/LINGUAS, and the
#                                desktop files and the AppStream metainfo with the translations merged
#   translations.sh check        every language complete: no untranslated, no fuzzy message against a
#                                freshly made template (msgfmt --check --statistics, one line each)
#   translations.sh update       po/*.po merged with a fresh template (msgmerge), for translators
set -euo pipefail
cd "$(dirname "$0")/../.."
domain=dbmultiverse
pot=po/$domain.pot
languages() { grep -v '^\s*\(#\|$\)' po/LINGUAS; }
sources() { grep -v '^\s*\(#\|$\)' po/POTFILES; }

make_pot() { # $1: the template to write
    local out=$1 swift=() javascript=() qml=() other=()
    while read -r file; do
        case "$file" in
            *.swift) swift+=("$file");;
            # The Plasma widget's scripts call KDE's i18n, as its QML does.
            *.qml|desktop/plasma/*.js) qml+=("$file");;
            *.js) javascript+=("$file");;
            *) other+=("$file");;
        esac
    done < <(sources)
    local common=(--from-code=UTF-8 --add-comments=TRANSLATORS: --add-location=file --sort-by-file
        --package-name=dbmultiverse --msgid-bugs-address=https://github.com/nobadi/dbmultiverse-desktop/issues)
    # An empty template to join into, its charset UTF-8 (xgettext leaves CHARSET for translators).
    xgettext "${common[@]}" --force-po --language=C -o - /dev/null | sed 's/charset=CHARSET/charset=UTF-8/' > "$out.tmp"
    # Swift has no xgettext parser; C's reads its literals, and the message functions
    # (gettext, ngettext, pgettext) take one literal each (Sources/Localization).
    # Swift's multi-line literals (""") read as C are "unterminated": said once per file, harmless.
    [ ${#swift[@]} -eq 0 ] || xgettext "${common[@]}" --join-existing --language=C -o "$out.tmp" "${swift[@]}" \
        2> >(grep -v 'warning: unterminated \(string literal\|character constant\)$' >&2)
    [ ${#javascript[@]} -eq 0 ] || xgettext "${common[@]}" --join-existing --language=JavaScript \
        --keyword=_ --keyword=ngettext:1,2 --keyword=C_:1c,2 -o "$out.tmp" "${javascript[@]}"
    [ ${#qml[@]} -eq 0 ] || xgettext "${common[@]}" --join-existing --language=JavaScript \
        --keyword=i18n --keyword=i18nc:1c,2 --keyword=i18np:1,2 --keyword=i18ncp:1c,2,3 -o "$out.tmp" "${qml[@]}"
    # .desktop files by their own parser; the metainfo by AppStream's ITS rules.
    [ ${#other[@]} -eq 0 ] || xgettext "${common[@]}" --join-existing -o "$out.tmp" "${other[@]}"
    mv "$out.tmp" "$out"
}

case "${1:-}" in
    pot)
        make_pot "${2:-$pot}"
        ;;
    build)
        dir=${2:?usage: translations.sh build DIR}
        mkdir -p "$dir"
        # Each output is written beside its place and renamed into it: several `make install`s
        # (the tests run them side by side) share DIR, and a reader must never see a half-written file.
        publish() { mv -f "$1.$$.tmp" "$1"; }
        for lang in $(languages); do
            mkdir -p "$dir/locale/$lang/LC_MESSAGES"
            msgfmt --check -o "$dir/locale/$lang/LC_MESSAGES/$domain.mo.$$.tmp" "po/$lang.po"
            publish "$dir/locale/$lang/LC_MESSAGES/$domain.mo"
        done
        for file in com.nobadi.DBMultiverse.desktop com.nobadi.DBMultiverse.Notifier.desktop; do
            msgfmt --desktop -d po --template "desktop/$file" -o "$dir/$file.$$.tmp"
            publish "$dir/$file"
        done
        msgfmt --xml -d po --template desktop/com.nobadi.DBMultiverse.metainfo.xml -o "$dir/com.nobadi.DBMultiverse.metainfo.xml.$$.tmp"
        publish "$dir/com.nobadi.DBMultiverse.metainfo.xml"
        ;;
    check)
        fresh=$(mktemp -d)
        trap 'rm -rf "$fresh"' EXIT
        make_pot "$fresh/$domain.pot"
        status=0
        for lang in $(languages); do
            msgmerge --quiet --no-fuzzy-matching -o "$fresh/$lang.po" "po/$lang.po" "$fresh/$domain.pot"
            line=$(msgfmt --check --statistics -o /dev/null "$fresh/$lang.po" 2>&1)
            echo "$lang: $line"
            case "$line" in *untranslated*|*fuzzy*) status=1;; esac
        done
        exit $status
        ;;
    update)
        make_pot "$pot"
        for lang in $(languages); do msgmerge --quiet --update --backup=none "po/$lang.po" "$pot"; done
        ;;
    *)
        sed -n '2,9p' "$0" >&2
        exit 2
        ;;
esac
