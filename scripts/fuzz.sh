#!/bin/sh
# libFuzzer over the parsers that take outside input (issue #7): `make fuzz` or
# `scripts/fuzz.sh [SECONDS] [TARGET...]`; `scripts/fuzz.sh --seeds` rewrites the dbusbody seeds.
#
# Each target in fuzz/ is compiled with swiftc (not SwiftPM) together with the sources it
# exercises, into one module, so it reaches internal API; with -sanitize=fuzzer,address.
# Targets: deeplink, chapterjson, syncjson (Sources/ComicDomain), dbusbody (Sources/DBus,
# libdbus) and browsermessage (the browser host's framing and requests, Sources/Desktop/BrowserHost). Each runs SECONDS (default 60) on a scratch copy of its committed seed corpus
# fuzz/corpus/<target>/; crashes go to fuzz-artifacts/<target>-*. Prints per target the
# executions and whether a crash was found; exits non-zero when any target crashed.
set -eu
# Traps are reported by libFuzzer, not by the Swift runtime's backtracer (which trips ASan).
export SWIFT_BACKTRACE=enable=no

cd "$(dirname "$0")/.."
SECONDS_PER_TARGET=${1:-60}
[ $# -gt 0 ] && shift
TARGETS=${*:-deeplink chapterjson syncjson dbusbody browsermessage}
BUILD=.build-fuzz
ARTIFACTS=fuzz-artifacts
mkdir -p "$BUILD" "$ARTIFACTS"

# The package's language settings (Package.swift), so the fuzzers compile what SwiftPM compiles.
SWIFT_FLAGS="-sanitize=fuzzer,address -parse-as-library -O -g -use-ld=lld -swift-version 6 -package-name DBMultiverseDesktop
  -enable-upcoming-feature ExistentialAny -enable-upcoming-feature InternalImportsByDefault
  -enable-upcoming-feature MemberImportVisibility"
DBUS_FLAGS="-I Sources/CDBus -I Sources/CLinuxEvents -ldbus-1"
for flag in $(pkg-config --cflags dbus-1); do DBUS_FLAGS="$DBUS_FLAGS -Xcc $flag"; done

build() { # target
    case "$1" in
        deeplink) swiftc $SWIFT_FLAGS -module-name FuzzDeepLink Sources/ComicDomain/*.swift fuzz/DeepLinkFuzz.swift -o "$BUILD/deeplink" ;;
        chapterjson) swiftc $SWIFT_FLAGS -module-name FuzzChapterJSON Sources/ComicDomain/*.swift fuzz/ChapterJSONFuzz.swift -o "$BUILD/chapterjson" ;;
        syncjson) swiftc $SWIFT_FLAGS -module-name FuzzSyncJSON Sources/ComicDomain/*.swift fuzz/SyncJSONFuzz.swift -o "$BUILD/syncjson" ;;
        # The Desktop layer's entry dictionary is compiled in as one file (it needs only DBus
        # and ComicDomain), with the domain built alongside as its own module.
        dbusbody)
            swiftc -emit-module -emit-library -static $SWIFT_FLAGS -module-name ComicDomain \
                Sources/ComicDomain/*.swift -emit-module-path "$BUILD/modules/ComicDomain.swiftmodule" \
                -o "$BUILD/libComicDomain.a"
            swiftc -emit-module -emit-library -static $SWIFT_FLAGS $DBUS_FLAGS -module-name DBus \
                Sources/DBus/*.swift -emit-module-path "$BUILD/modules/DBus.swiftmodule" \
                -o "$BUILD/libDBus.a"
            swiftc $SWIFT_FLAGS $DBUS_FLAGS -I "$BUILD/modules" -module-name FuzzDBusBody \
                Sources/Desktop/Bus/EntryDictionary.swift fuzz/DBusBodyFuzz.swift \
                "$BUILD/libDBus.a" "$BUILD/libComicDomain.a" -o "$BUILD/dbusbody" ;;
        # The browser host's pure files (no Logging, no I/O) over the domain built as its own module.
        browsermessage)
            swiftc -emit-module -emit-library -static $SWIFT_FLAGS -module-name ComicDomain \
                Sources/ComicDomain/*.swift -emit-module-path "$BUILD/modules/ComicDomain.swiftmodule" \
                -o "$BUILD/libComicDomain.a"
            swiftc $SWIFT_FLAGS -I "$BUILD/modules" -module-name FuzzBrowserMessage \
                Sources/Desktop/BrowserHost/NativeMessageFraming.swift Sources/Desktop/BrowserHost/BrowserRequest.swift \
                Sources/Desktop/BrowserHost/BrowserReply.swift Sources/Desktop/BrowserHost/PageStore.swift \
                fuzz/BrowserMessageFuzz.swift "$BUILD/libComicDomain.a" -o "$BUILD/browsermessage" ;;
        *) echo "fuzz.sh: unknown target $1" >&2; exit 2 ;;
    esac
}

if [ "${SECONDS_PER_TARGET}" = "--seeds" ]; then
    # Real marshalled messages, written with Message.wireBytes() by fuzz/MakeDBusSeeds.swift.
    mkdir -p "$BUILD/seedgen" fuzz/corpus/dbusbody
    PLAIN_FLAGS="-swift-version 6 -package-name DBMultiverseDesktop -use-ld=lld $DBUS_FLAGS"
    swiftc -emit-module -emit-library -static $PLAIN_FLAGS -module-name DBus Sources/DBus/*.swift \
        -emit-module-path "$BUILD/seedgen/DBus.swiftmodule" -o "$BUILD/seedgen/libDBus.a"
    swiftc $PLAIN_FLAGS -I "$BUILD/seedgen" fuzz/MakeDBusSeeds.swift "$BUILD/seedgen/libDBus.a" \
        -o "$BUILD/make-dbus-seeds"
    # Deterministic hashing: the dictionaries, and so the seeds, come out the same every time.
    SWIFT_DETERMINISTIC_HASHING=1 "$BUILD/make-dbus-seeds" fuzz/corpus/dbusbody
    exit 0
fi

failed=""
summary=""
for target in $TARGETS; do
    echo "== $target: building"
    mkdir -p "$BUILD/modules"
    build "$target"
    corpus="$BUILD/corpus-$target"
    rm -rf "$corpus" && mkdir -p "$corpus"
    [ -d "fuzz/corpus/$target" ] && cp -R "fuzz/corpus/$target/." "$corpus/"
    echo "== $target: fuzzing for ${SECONDS_PER_TARGET}s"
    log="$BUILD/$target.log"
    status=0
    "$BUILD/$target" -max_total_time="$SECONDS_PER_TARGET" -print_final_stats=1 \
        -artifact_prefix="$ARTIFACTS/$target-" -max_len=4096 -timeout=10 -rss_limit_mb=4096 \
        "$corpus" >"$log" 2>&1 || status=$?
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    if [ "$status" -ne 0 ]; then
        result="CRASH (exit $status; see $log and $ARTIFACTS/$target-*)"
        failed="$failed $target"
        grep -E "^(==[0-9]+==ERROR|Fatal error|.*precondition|SUMMARY|artifact_prefix|Test unit written)" "$log" | head -n 8 || true
    else
        result="no crash"
    fi
    line="$target: ${SECONDS_PER_TARGET}s, ${executions:-?} executions, $result"
    echo "== $line"
    summary="$summary$line
"
done

echo
echo "fuzz summary:"
printf '%s' "$summary"
if [ -n "$failed" ]; then
    echo "crashed:$failed" >&2
    exit 1
fi
