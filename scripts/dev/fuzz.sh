#!/bin/sh
# libFuzzer over the parsers that take outside input: `make fuzz` or
# `scripts/dev/fuzz.sh [SECONDS] [TARGET...]`; `scripts/dev/fuzz.sh --seeds` rewrites the dbusbody and sitemarkup seeds.
# With FUZZ_RUNS=N (`make fuzz-long`: 10 million) each target runs until N executions, SECONDS
# being then its time limit; the summary gives per target the executions, the coverage (libFuzzer's
# cov and ft) and the time taken.
#
# Each target in fuzz/ is compiled with swiftc (not SwiftPM) together with the sources it
# exercises, into one module, so it reaches internal API; with -sanitize=fuzzer,address. The
# modules those sources import (JSON, Localization; ComicDomain; EventLoop for DBus and Site) are built first as
# static libraries. Targets: deeplink, chapterjson, syncjson (Sources/ComicDomain), dbusbody
# (Sources/DBus, libdbus), sitemarkup (Sources/Site: the chapter list, page and feed extractors
# on libxml2, and the catalogue file's JSON) and browsermessage (the browser host's framing and
# requests, Sources/Recorder/BrowserHost), entrydict (the widget entry's a{sv} as clients read it,
# and the outputs made from it: Sources/Widget), watchtoken (the long-poll's token and the text
# outputs' sanitiser) and mocatalogue (the check a gettext catalogue passes before glibc reads it:
# Sources/Localization; its seeds are msgfmt's output for small catalogues). Each runs SECONDS (default 60) on a scratch copy of its
# committed seed corpus fuzz/corpus/<target>/; crashes go to fuzz-artifacts/<target>-*. Prints
# per target the executions and whether a crash was found; exits non-zero when any target crashed
# or was interrupted (libFuzzer's exit 72, on SIGINT or SIGTERM: reported as such, not as a crash).
set -eu
# Traps are reported by libFuzzer, not by the Swift runtime's backtracer (which trips ASan).
export SWIFT_BACKTRACE=enable=no

cd "$(dirname "$0")/../.."
SECONDS_PER_TARGET=${1:-60}
[ $# -gt 0 ] && shift
TARGETS=${*:-deeplink chapterjson syncjson dbusbody sitemarkup browsermessage entrydict watchtoken mocatalogue}
RUNS=${FUZZ_RUNS:-}
# A long run skips recording a stack trace at each allocation (a fifth of the string targets'
# time, measured with perf): a crash still shows where it happened, and running its artifact
# again (`.build-fuzz/TARGET fuzz-artifacts/TARGET-crash-…`) shows where the memory came from.
if [ -n "$RUNS" ]; then export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}malloc_context_size=0"; fi
BUILD=.build-fuzz
ARTIFACTS=fuzz-artifacts
mkdir -p "$BUILD" "$ARTIFACTS"

# The package's language settings (Package.swift), so the fuzzers compile what SwiftPM compiles.
SWIFT_FLAGS="-sanitize=fuzzer,address -parse-as-library -O -g -use-ld=lld -swift-version 6 -package-name DBMultiverseDesktop
  -enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault
  -enable-upcoming-feature MemberImportVisibility"
DBUS_FLAGS="-I Sources/CDBus -I Sources/CLinuxEvents -ldbus-1"
for flag in $(pkg-config --cflags dbus-1); do DBUS_FLAGS="$DBUS_FLAGS -Xcc $flag"; done

# The domain's sources with the version SwiftPM's ProjectVersion plugin writes from debian/changelog.
./scripts/build/project-version.sh swift "$BUILD/ProjectVersion.swift"
DOMAIN_SOURCES="Sources/ComicDomain/*.swift $BUILD/ProjectVersion.swift"

# module NAME [FLAGS...]: Sources/NAME as a static library and module in $BUILD (for the others to import).
module() {
    name=$1
    shift
    sources="Sources/$name/*.swift"
    [ "$name" = ComicDomain ] && sources=$DOMAIN_SOURCES
    swiftc -emit-module -emit-library -static $SWIFT_FLAGS "$@" -I "$BUILD/modules" -module-name "$name" \
        $sources -emit-module-path "$BUILD/modules/$name.swiftmodule" -o "$BUILD/lib$name.a"
}

# comic_domain: Sources/ComicDomain and the modules it imports (JSON; Localization, over libintl).
# With testing enabled: a target over another module reaches the domain's internal API through
# `@testable import ComicDomain`, as the tests do (the catalogue's decoding, a site origin).
comic_domain() {
    module JSON
    module Localization -I Sources/CIntl
    module ComicDomain -I Sources/CIntl -enable-testing
}

# domain FUZZNAME FILE OUTPUT: the domain's sources and a fuzz target, as one module over JSON and Localization.
domain() {
    module JSON
    module Localization -I Sources/CIntl
    swiftc $SWIFT_FLAGS -I "$BUILD/modules" -I Sources/CIntl -module-name "$1" $DOMAIN_SOURCES "$2" \
        "$BUILD/libJSON.a" "$BUILD/libLocalization.a" -o "$BUILD/$3"
}

# The entry's keys with the Widget1 declaration they name and the view they publish (its texts
# through Localization, over libintl).
ENTRY_SOURCES="Sources/Widget/EntryKeys.swift Sources/Widget/Widget1.swift Sources/Widget/ReloadReasonArgument.swift
    Sources/Widget/EntryView.swift Sources/Widget/ApplicationAction.swift"

build() { # target
    case "$1" in
        deeplink) domain FuzzDeepLink fuzz/DeepLinkFuzz.swift deeplink ;;
        chapterjson) domain FuzzChapterJSON fuzz/ChapterJSONFuzz.swift chapterjson ;;
        syncjson) domain FuzzSyncJSON fuzz/SyncJSONFuzz.swift syncjson ;;
        # The entry's keys (EntryKeys, with the Widget1 declaration they name) are compiled in (they
        # need only DBus, ComicDomain and JSON), with those built alongside as their own modules.
        dbusbody)
            comic_domain
            module EventLoop -I Sources/CLinuxEvents
            module DBus $DBUS_FLAGS
            swiftc $SWIFT_FLAGS $DBUS_FLAGS -I Sources/CIntl -I "$BUILD/modules" -module-name FuzzDBusBody \
                $ENTRY_SOURCES fuzz/DBusBodyFuzz.swift \
                "$BUILD/libDBus.a" "$BUILD/libEventLoop.a" "$BUILD/libComicDomain.a" "$BUILD/libJSON.a" "$BUILD/libLocalization.a" \
                -o "$BUILD/dbusbody" ;;
        # The entry's keys, formats and token (Sources/Widget), as dbusbody builds them.
        entrydict | watchtoken)
            comic_domain
            module EventLoop -I Sources/CLinuxEvents
            module DBus $DBUS_FLAGS
            source=fuzz/EntryDictionaryFuzz.swift
            [ "$1" = watchtoken ] && source=fuzz/WatchTokenFuzz.swift
            swiftc $SWIFT_FLAGS $DBUS_FLAGS -I Sources/CIntl -I "$BUILD/modules" -module-name "Fuzz$1" \
                $ENTRY_SOURCES Sources/Widget/EntryFormat.swift "$source" \
                "$BUILD/libDBus.a" "$BUILD/libEventLoop.a" "$BUILD/libComicDomain.a" "$BUILD/libJSON.a" "$BUILD/libLocalization.a" \
                -o "$BUILD/$1" ;;
        # The site module with its C shim (compiled by clang with the fuzzer's coverage, given a
        # module map here as SwiftPM would), the modules it imports built alongside.
        sitemarkup)
            comic_domain
            module EventLoop -I Sources/CLinuxEvents
            mkdir -p "$BUILD/csite"
            printf 'module CSiteLibraries {\n    header "%s"\n    export *\n}\n' \
                "$PWD/Sources/CSiteLibraries/include/CSiteLibraries.h" > "$BUILD/csite/module.modulemap"
            clang -c -O1 -g -fsanitize=fuzzer-no-link,address $(pkg-config --cflags libxml-2.0) \
                -I Sources/CSiteLibraries/include Sources/CSiteLibraries/CSiteLibraries.c -o "$BUILD/csite/CSiteLibraries.o"
            # libxml2's own heap bypasses ASan (fuzz/SiteMarkupAllocator.c says why): not instrumented.
            clang -c -O2 fuzz/SiteMarkupAllocator.c -o "$BUILD/csite/SiteMarkupAllocator.o"
            swiftc $SWIFT_FLAGS -I "$BUILD/modules" -I "$BUILD/csite" -I Sources/CLinuxEvents -I Sources/CIntl -module-name FuzzSiteMarkup \
                Sources/Site/*.swift fuzz/SiteMarkupFuzz.swift "$BUILD/csite/CSiteLibraries.o" "$BUILD/csite/SiteMarkupAllocator.o" "$BUILD/libComicDomain.a" \
                "$BUILD/libJSON.a" "$BUILD/libLocalization.a" "$BUILD/libEventLoop.a" -o "$BUILD/sitemarkup" ;;
        # The browser host's pure files (no Logging, no I/O) over the domain built as its own module.
        browsermessage)
            comic_domain
            swiftc $SWIFT_FLAGS -I "$BUILD/modules" -I Sources/CIntl -module-name FuzzBrowserMessage \
                Sources/Recorder/BrowserHost/NativeMessageFraming.swift Sources/Recorder/BrowserHost/BrowserRequest.swift \
                Sources/Recorder/BrowserHost/BrowserReply.swift Sources/Recorder/BrowserHost/PageStore.swift \
                fuzz/BrowserMessageFuzz.swift "$BUILD/libComicDomain.a" "$BUILD/libJSON.a" "$BUILD/libLocalization.a" -o "$BUILD/browsermessage" ;;
        # The catalogue check with Sources/Localization, over libintl's header (CIntl).
        mocatalogue)
            swiftc $SWIFT_FLAGS -I Sources/CIntl -module-name FuzzMessageCatalogue \
                Sources/Localization/*.swift fuzz/MessageCatalogueFuzz.swift -o "$BUILD/mocatalogue" ;;
        *) echo "fuzz.sh: unknown target $1" >&2; exit 2 ;;
    esac
}

if [ "${SECONDS_PER_TARGET}" = "--seeds" ]; then
    # Real marshalled messages, written with Message.wireBytes() by fuzz/MakeDBusSeeds.swift.
    mkdir -p "$BUILD/seedgen" fuzz/corpus/dbusbody
    PLAIN_FLAGS="-swift-version 6 -package-name DBMultiverseDesktop -use-ld=lld $DBUS_FLAGS -I $BUILD/seedgen"
    swiftc -emit-module -emit-library -static $PLAIN_FLAGS -module-name EventLoop Sources/EventLoop/*.swift \
        -emit-module-path "$BUILD/seedgen/EventLoop.swiftmodule" -o "$BUILD/seedgen/libEventLoop.a"
    swiftc -emit-module -emit-library -static $PLAIN_FLAGS -module-name DBus Sources/DBus/*.swift \
        -emit-module-path "$BUILD/seedgen/DBus.swiftmodule" -o "$BUILD/seedgen/libDBus.a"
    swiftc $PLAIN_FLAGS fuzz/MakeDBusSeeds.swift "$BUILD/seedgen/libDBus.a" "$BUILD/seedgen/libEventLoop.a" \
        -o "$BUILD/make-dbus-seeds"
    # Deterministic hashing: the dictionaries, and so the seeds, come out the same every time.
    SWIFT_DETERMINISTIC_HASHING=1 "$BUILD/make-dbus-seeds" fuzz/corpus/dbusbody
    # The fixture comic's markup (TestSupport/SiteTestSupport/FixtureComic.swift), by fuzz/MakeSiteSeeds.swift.
    mkdir -p fuzz/corpus/sitemarkup
    swiftc -parse-as-library -swift-version 6 -use-ld=lld TestSupport/SiteTestSupport/FixtureComic.swift fuzz/MakeSiteSeeds.swift \
        -o "$BUILD/make-site-seeds"
    "$BUILD/make-site-seeds" fuzz/corpus/sitemarkup
    exit 0
fi

failed=""
stopped=""
summary=""
for target in $TARGETS; do
    echo "== $target: building"
    mkdir -p "$BUILD/modules"
    build "$target"
    corpus="$BUILD/corpus-$target"
    rm -rf "$corpus" && mkdir -p "$corpus"
    [ -d "fuzz/corpus/$target" ] && cp -R "fuzz/corpus/$target/." "$corpus/"
    echo "== $target: fuzzing for ${RUNS:+$RUNS executions, at most }${SECONDS_PER_TARGET}s"
    log="$BUILD/$target.log"
    status=0
    started=$(date +%s)
    # Inputs up to 4 KiB; the token target's are a token and a name, whose checks go scalar by
    # scalar: longer ones add no paths, only time (each builds the entry's view three times or four).
    max_len=4096
    [ "$target" = watchtoken ] && max_len=512
    "$BUILD/$target" -max_total_time="$SECONDS_PER_TARGET" ${RUNS:+-runs="$RUNS"} -print_final_stats=1 \
        -artifact_prefix="$ARTIFACTS/$target-" -max_len="$max_len" -timeout=10 -rss_limit_mb=4096 \
        "$corpus" >"$log" 2>&1 || status=$?
    took=$(( $(date +%s) - started ))
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    # libFuzzer's last status line: "#N DONE cov: C ft: F corp: …" (or the last progress line).
    coverage=$(grep -E '^#[0-9]+' "$log" | tail -n 1 | sed -n 's/.*cov: \([0-9]*\) ft: \([0-9]*\).*/cov \1, ft \2/p')
    if [ "$status" -eq 72 ]; then
        # libFuzzer's exit on SIGINT or SIGTERM: the run was stopped, nothing was found.
        result="interrupted before the end, no crash"
        stopped="$stopped $target"
    elif [ "$status" -ne 0 ]; then
        result="CRASH (exit $status; see $log and $ARTIFACTS/$target-*)"
        failed="$failed $target"
        grep -E "^(==[0-9]+==ERROR|Fatal error|.*precondition|SUMMARY|artifact_prefix|Test unit written)" "$log" | head -n 8 || true
    else
        result="no crash"
    fi
    line="$target: ${took}s, ${executions:-?} executions, ${coverage:-cov ?}, $result"
    echo "== $line"
    summary="$summary$line
"
done

echo
echo "fuzz summary:"
printf '%s' "$summary"
[ -z "$stopped" ] || echo "interrupted:$stopped" >&2
if [ -n "$failed" ]; then
    echo "crashed:$failed" >&2
    exit 1
fi
[ -z "$stopped" ] || exit 1
