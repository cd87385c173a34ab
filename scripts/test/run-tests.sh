#!/usr/bin/env bash
# `make test` after the packages are in: builds the tests and runs the suite, showing what a reader
# needs — the build's diagnostics, each failure as it happens, and a summary (tests run, failed,
# skipped with their reasons, the suite's inotify peak). Everything the tests and their processes
# print goes to .build/test-results/output.log.
# Soak tests (make soak) and benchmarks (make bench) are separate targets, not part of this run.
# Usage: scripts/test/run-tests.sh [extra swift test arguments, e.g. --filter NAME]
set -uo pipefail
cd "$(dirname "$0")/../.."
results=.build/test-results
mkdir -p "$results"
log="$results/output.log" events="$results/events.jsonl" peak="$results/inotify-peak"
rm -f "$events" "$peak"
rm -rf "$results/builds"

# The cards on other Debian releases (ReleaseCardTests) install the .deb into cached chroots, and
# the source package is built in sid's and trixie's build chroots (SourcePackageBuildTests), and
# Debian's QA of the package (PackageQATests) judges it: a whole run (no arguments) starts all of it
# now, in the background, beside the tests' build — once the package is built, the QA's checks
# (scripts/packaging/package-qa.sh all: each waits for the chroot it needs; a verdict kept for the
# same inputs costs nothing); so does the apt repository's test (AptRepositoryTests): its fixture,
# made anew for each run (a throw-away key; the packages' second version is a cached build, made
# after the first). All of it at the lowest priority: the tests' own build and run come first (the
# tests that need it wait anyway, bounded, and show its logs when they fail).
preparation=""
rm -rf "$results/apt-repository"
# The QA's failed verdicts are kept for this run only (its tests read the background's): its id.
PACKAGE_QA_RUN="$(date +%s).$$"
export PACKAGE_QA_RUN
# make test's run: the release suites run in full, preparing what they need (a plain `swift test`
# leaves them to make test unless it is prepared: Tests/EndToEndTests/Support/ReleasePreparation.swift).
export MAKE_TEST=1
if [ $# -eq 0 ] && [ "$(id -u)" -eq 0 ]; then
    echo "preparing the release chroots and the packages, then the package's QA, in the background ($results/release-preparation.log)"
    setsid nice -n 19 bash -c 'for job in "./scripts/real-hosts/release-chroot.sh prepare trixie" \
        "./scripts/real-hosts/release-chroot.sh prepare bookworm" "./scripts/real-hosts/release-chroot.sh prepare sid" \
        "./scripts/packaging/chroot-package.sh sid" "./scripts/packaging/chroot-package.sh trixie" \
        "./scripts/packaging/repository-fixture.sh '"$results"'/apt-repository"; do
        $job & done
        ./scripts/packaging/test-package.sh && ./scripts/packaging/package-qa.sh all; wait' \
        >"$results/release-preparation.log" 2>&1 &
    preparation=$!
fi

echo "building the tests (swift build --build-tests)"
# The progress lines ("[12/440] Compiling …") are dropped; diagnostics and the result stay.
swift build --build-tests 2>&1 | grep -vE '^\[[0-9]+/[0-9]+\] |^Building for debugging'
[ "${PIPESTATUS[0]}" -eq 0 ] || { echo "make test: the build failed" >&2; [ -n "$preparation" ] && kill -KILL -- "-$preparation" 2>/dev/null; exit 1; }

echo "running the tests (swift test; their processes' output: $log)"
# Sampled every 0.1 s at the lowest priority: a sample reads every descriptor of the user's processes.
nice -n 19 python3 scripts/test/inotify-peak.py $$ "$peak" 0.1 &
sampler=$!
swift test --skip-build --quiet --skip SoakTests \
    --event-stream-output-path "$events" --event-stream-version 0 "$@" 2>&1 \
    | tee "$log" | grep --line-buffered -E '^✘ (Test|Suite) .* (recorded an issue|failed)'
status=${PIPESTATUS[0]}
kill -TERM "$sampler" 2>/dev/null
wait "$sampler"
# A run that ended before the release tests took what it prepared: its builds go with it.
[ -n "$preparation" ] && kill -KILL -- "-$preparation" 2>/dev/null
python3 scripts/test/test-summary.py "$events" --inotify "$peak" --budget 64 --log "$log" || status=1
exit "$status"
