#!/usr/bin/env python3
"""The end of `make test`: what ran, what failed and why, what was skipped and why, and how many
inotify instances the suite held, read from Swift Testing's event stream (JSON lines, version 0).

Usage: scripts/test/test-summary.py EVENTS [--inotify PEAK_FILE] [--budget N] [--log LOG]
Skipped tests are listed with their reasons, loudly, but do not fail the run: on Debian none is
skipped; elsewhere (a browser only a snap provides) the list says what was not tested.
Exit status: 0 when the run ended, every test that ran passed, and the inotify peak is within the
budget; 1 otherwise.
"""
import argparse
import json
import os
import sys


def read_events(path):
    tests, events = {}, []
    with open(path, encoding="utf-8") as stream:
        for line in stream:
            line = line.strip()
            if not line:
                continue
            record = json.loads(line)
            payload = record.get("payload", {})
            if record.get("kind") == "test":
                tests[payload["id"]] = payload
            elif record.get("kind") == "event":
                events.append(payload)
    return tests, events


def text(payload):
    return "\n".join(message.get("text", "") for message in payload.get("messages", []))


def belongs(test_id, suite_id):
    return test_id == suite_id or test_id.startswith(suite_id + "/") or test_id.startswith(suite_id + ".")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("events")
    parser.add_argument("--inotify")
    parser.add_argument("--budget", type=int, default=64)
    parser.add_argument("--log")
    args = parser.parse_args()

    tests, events = read_events(args.events)
    functions = {test_id for test_id, test in tests.items() if test.get("kind") == "function"}
    suites = {test_id for test_id, test in tests.items() if test.get("kind") == "suite"}
    skipped = {}  # test or suite id -> reason
    failures = []  # (test id, message)
    started, run_end, run_start = set(), None, None
    cases, failed_cases = {}, set()  # test id -> its test cases' names, in order; (test id, case) that failed
    for event in events:
        kind = event.get("kind")
        case = (event.get("_testCase") or {}).get("displayName")
        if kind == "testSkipped":
            skipped[event.get("testID", "?")] = text(event)
        elif kind == "testStarted":
            started.add(event.get("testID"))
        elif kind == "testCaseStarted" and case is not None:
            names = cases.setdefault(event.get("testID"), [])
            if case not in names:
                names.append(case)
        elif kind == "issueRecorded":
            issue = event.get("issue", {})
            if not issue.get("isKnown", False):
                location = issue.get("sourceLocation") or {}
                where = "%s:%s:%s" % (location["fileID"], location.get("line"), location.get("column")) if location.get("fileID") else ""
                failures.append((event.get("testID", "(the run itself)"), where, text(event)))
                if case is not None:
                    failed_cases.add((event.get("testID"), case))
        elif kind == "runStarted":
            run_start = event.get("instant", {}).get("absolute")
        elif kind == "runEnded":
            run_end = event.get("instant", {}).get("absolute")

    skipped_functions = {f for f in functions if any(belongs(f, s) for s in skipped)}
    failed_functions = {f for f in functions for test_id, _, _ in failures if test_id and belongs(test_id, f)}
    ran = len(functions) - len(skipped_functions)
    seconds = (run_end - run_start) if run_start is not None and run_end is not None else None

    if failures:
        print("\nFailures (%d in %d of the tests):" % (len(failures), len(failed_functions)))
        for test_id, where, message in failures:
            name = "/".join(test_id.split("/")[:2])  # suite/function(), without the declaration's place
            print("✘ %s%s\n    %s" % (name, " at " + where if where else "", message.replace("\n", "\n    ")))
    if skipped:
        print("\nNOT TESTED here (skipped, %d tests):" % len(skipped_functions))
        for test_id, reason in sorted(skipped.items()):
            print("  ➜ %s: %s" % (test_id, reason))

    def named(prefix, heading, note=lambda test_id: ""):
        """The tests whose names start with `prefix`, under `heading`, each with its outcome and `note`."""
        chosen = sorted((test.get("displayName", ""), test_id) for test_id, test in tests.items()
                        if test_id in functions and test.get("displayName", "").startswith(prefix))
        if chosen:
            print("\n" + heading)
        for name, test_id in chosen:
            outcome = ("SKIPPED" if test_id in skipped_functions else "✘ failed" if test_id in failed_functions
                       else "✔ passed" if test_id in started else "not run")
            print("  %s %s%s" % (name[len(prefix):], outcome, note(test_id)))
            # A test of several cases (the looks of a desktop): each case with its own outcome.
            for case in cases.get(test_id, []):
                print("      %s %s" % ("✘" if (test_id, case) in failed_cases else "✔", case))

    def build_note(test_id):
        """What a build's test wrote of it (the Swift that built the package) to builds/FUNCTION.txt beside EVENTS."""
        function = test_id.split("/")[1].split("(")[0] if "/" in test_id else ""
        try:
            with open(os.path.join(os.path.dirname(args.events), "builds", function + ".txt"), encoding="utf-8") as note:
                return "\n      " + note.read().strip()
        except OSError:
            return ""

    # The desktops the cards ran on (tests named "Desktop: …"), the source package built on other
    # releases (tests named "Build: …") and the Debian releases the apt repository was used in
    # (tests named "Repository: …") and Debian's QA of the package ("Debian QA: …"), each with its outcome.
    named("Desktop: ", "Desktops:")
    named("Build: ", "Builds of the source package:", build_note)
    named("Repository: ", "Repository (apt in Debian's releases):")
    named("Debian QA: ", "Debian's QA of the package:")

    status = 0
    duration = " in %.1f s" % seconds if seconds is not None else ""
    outcome = "%d passed, %d failed" % (ran - len(failed_functions), len(failed_functions))
    skips = "none skipped" if not skipped_functions else "%d SKIPPED (listed above)" % len(skipped_functions)
    print("\n%d tests in %d suites ran%s: %s, %s." % (ran, len(suites), duration, outcome, skips))
    if failures or not events or run_end is None:
        status = 1
    if args.inotify:
        try:
            suite_peak, user_peak, limit = open(args.inotify).read().split()
        except (OSError, ValueError):
            print("inotify: no measurement (%s)" % args.inotify)
            status = 1
        else:
            verdict = "within" if int(suite_peak) <= args.budget else "OVER"
            print("inotify (sampled): the suite held at most %s instances at once, %s its budget of %d; all of this "
                  "user's processes held at most %s of the %s allowed (fs.inotify.max_user_instances)."
                  % (suite_peak, verdict, args.budget, user_peak, limit))
            if int(suite_peak) > args.budget:
                status = 1
    if args.log:
        print("Full output: %s" % args.log)
    return status


if __name__ == "__main__":
    sys.exit(main())
