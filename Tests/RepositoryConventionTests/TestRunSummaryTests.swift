import DBusTestSupport
import DesktopTestSupport
import Foundation
import Testing
import TestingTraits

/// `scripts/test/test-summary.py`, the end of `make test`, on event streams written here: a failure and
/// a run that did not end fail the run; a skip is listed with its reason but does not; an inotify
/// peak over the budget fails it.
@Suite(.timeLimit(.minutes(10)), .offThePool) struct TestRunSummaryTests {
    static let script = repositoryRoot.appendingPathComponent("scripts/test/test-summary.py").path

    private static let suite = #"{"kind":"test","payload":{"id":"M.S","kind":"suite","name":"S"},"version":0}"#
    private static func function(_ name: String) -> String {
        #"{"kind":"test","payload":{"id":"M.S/\#(name)()/S.swift:1:1","kind":"function","name":"\#(name)()"},"version":0}"#
    }
    private static func event(_ kind: String, _ testID: String? = nil, _ extra: String = "", messages: [String] = []) -> String {
        let id = testID.map { #","testID":"M.S/\#($0)()/S.swift:1:1""# } ?? ""
        let texts = messages.map { #"{"symbol":"fail","text":"\#($0)"}"# }.joined(separator: ",")
        return #"{"kind":"event","payload":{"kind":"\#(kind)","instant":{"absolute":10},"messages":[\#(texts)]\#(id)\#(extra)},"version":0}"#
    }
    private static let runStarted = event("runStarted"), runEnded = event("runEnded")

    private func summarise(_ lines: [String], inotify: String? = nil) throws -> CommandResult {
        let folder = try makeTemporaryDirectory("dbm-summary")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try (lines.joined(separator: "\n") + "\n").write(toFile: folder + "/events.jsonl", atomically: true, encoding: .utf8)
        var arguments = ["python3", Self.script, folder + "/events.jsonl"]
        if let inotify {
            try inotify.write(toFile: folder + "/peak", atomically: true, encoding: .utf8)
            arguments += ["--inotify", folder + "/peak", "--budget", "64"]
        }
        return try runCommand(arguments, environment: testEnvironment())
    }

    @Test func aCleanRunSaysHowManyRanAndThatNoneWasSkipped() throws {
        let run = try summarise([Self.suite, Self.function("a"), Self.function("b"), Self.runStarted, Self.runEnded], inotify: "30 41 128\n")
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("2 tests in 1 suites ran in 0.0 s: 2 passed, 0 failed, none skipped."), "\(run.stdout)")
        #expect(run.stdout.contains("inotify (sampled): the suite held at most 30 instances at once, within its budget of 64"), "\(run.stdout)")
    }

    @Test func aFailureIsListedWithItsPlaceAndFailsTheRun() throws {
        let issue = #","issue":{"isKnown":false,"sourceLocation":{"fileID":"M/S.swift","line":7,"column":9}}"#
        let run = try summarise([Self.suite, Self.function("a"), Self.function("b"), Self.runStarted,
                                 Self.event("issueRecorded", "a", issue, messages: ["Expectation failed: 1 == 2"]), Self.runEnded])
        #expect(run.status == 1, "\(run)")
        #expect(run.stdout.contains("✘ M.S/a() at M/S.swift:7:9\n    Expectation failed: 1 == 2"), "\(run.stdout)")
        #expect(run.stdout.contains("1 passed, 1 failed"), "\(run.stdout)")
    }

    /// The tests named "Desktop: …" (ReleaseCardTests) and "Repository: …" (AptRepositoryTests) are
    /// listed with their outcome, each under its heading: which desktops the cards ran on, which
    /// releases' apt used the repository.
    @Test func theDesktopsAndRepositoryReleasesAreListedWithTheirOutcome() throws {
        func named(_ name: String, _ display: String) -> String {
            #"{"kind":"test","payload":{"id":"M.S/\#(name)()/S.swift:1:1","kind":"function","name":"\#(name)()","displayName":"\#(display)"},"version":0}"#
        }
        let issue = #","issue":{"isKnown":false}"#
        let run = try summarise([Self.suite, named("g48", "Desktop: GNOME Shell 48 (Debian 13 trixie)"), named("p6", "Desktop: Plasma 6.3 (Debian 13 trixie)"),
                                 named("r12", "Repository: Debian 12 bookworm"), Self.function("a"), Self.runStarted,
                                 Self.event("testStarted", "g48"), Self.event("testStarted", "p6"), Self.event("testStarted", "r12"),
                                 Self.event("issueRecorded", "p6", issue, messages: ["no chroot"]), Self.runEnded])
        #expect(run.status == 1, "\(run)")
        #expect(run.stdout.contains("Desktops:\n  GNOME Shell 48 (Debian 13 trixie) ✔ passed\n  Plasma 6.3 (Debian 13 trixie) ✘ failed\n"), "\(run.stdout)")
        #expect(run.stdout.contains("Repository (apt in Debian's releases):\n  Debian 12 bookworm ✔ passed\n"), "\(run.stdout)")
    }

    /// The tests named "Debian QA: …" (PackageQATests) are listed under their own heading, with their
    /// outcome: which of Debian's checks the package passed.
    @Test func debiansQAIsListedWithItsOutcome() throws {
        func check(_ name: String, _ display: String) -> String {
            #"{"kind":"test","payload":{"id":"M.S/\#(name)()/S.swift:1:1","kind":"function","name":"\#(name)()","displayName":"Debian QA: \#(display)"},"version":0}"#
        }
        let issue = #","issue":{"isKnown":false}"#
        let run = try summarise([Self.suite, check("l", "lintian (sid)"), check("p", "piuparts on Debian sid"), Self.runStarted,
                                 Self.event("testStarted", "l"), Self.event("testStarted", "p"),
                                 Self.event("issueRecorded", "p", issue, messages: ["FAIL: Package purging left files on system"]), Self.runEnded])
        #expect(run.status == 1, "\(run)")
        #expect(run.stdout.contains("Debian's QA of the package:\n  lintian (sid) ✔ passed\n  piuparts on Debian sid ✘ failed\n"), "\(run.stdout)")
        #expect(!run.stdout.contains("Desktops:"), "\(run.stdout)")
    }

    /// A desktop's test of several cases (its looks) lists each case under it, with its outcome.
    @Test func aDesktopsLooksAreListedEachWithItsOutcome() throws {
        let looks = #"{"kind":"test","payload":{"id":"M.S/l()/S.swift:1:1","kind":"function","name":"l()","displayName":"Desktop: GNOME Shell 51 (Debian sid), the card in each look"},"version":0}"#
        func inCase(_ kind: String, _ look: String, _ extra: String = "", messages: [String] = []) -> String {
            Self.event(kind, "l", #","_testCase":{"displayName":"\#(look)","id":"\#(look)"}"# + extra, messages: messages)
        }
        let run = try summarise([Self.suite, looks, Self.runStarted, Self.event("testStarted", "l"),
                                 inCase("testCaseStarted", "default"), inCase("testCaseEnded", "default"),
                                 inCase("testCaseStarted", "an Arabic name"),
                                 inCase("issueRecorded", "an Arabic name", #","issue":{"isKnown":false}"#, messages: ["not aligned to the right"]),
                                 inCase("testCaseEnded", "an Arabic name"), Self.runEnded])
        #expect(run.status == 1, "\(run)")
        #expect(run.stdout.contains("Desktops:\n  GNOME Shell 51 (Debian sid), the card in each look ✘ failed\n      ✔ default\n      ✘ an Arabic name\n"),
                "\(run.stdout)")
    }

    @Test func aSkipIsLoudButDoesNotFailTheRun() throws {
        let run = try summarise([Self.suite, Self.function("a"), Self.function("b"), Self.runStarted,
                                 Self.event("testSkipped", "b", messages: ["needs Debian's chromium"]), Self.runEnded])
        #expect(run.status == 0, "\(run)")
        #expect(run.stdout.contains("NOT TESTED here (skipped, 1 tests):") && run.stdout.contains("needs Debian's chromium"), "\(run.stdout)")
        #expect(run.stdout.contains("1 tests in 1 suites ran in 0.0 s: 1 passed, 0 failed, 1 SKIPPED"), "\(run.stdout)")
    }

    @Test func aRunThatNeverEndedFails() throws {
        let run = try summarise([Self.suite, Self.function("a"), Self.runStarted])
        #expect(run.status == 1, "\(run)")
    }

    @Test func anInotifyPeakOverTheBudgetFailsTheRun() throws {
        let run = try summarise([Self.suite, Self.function("a"), Self.runStarted, Self.runEnded], inotify: "70 90 128\n")
        #expect(run.status == 1, "\(run)")
        #expect(run.stdout.contains("inotify (sampled): the suite held at most 70 instances at once, OVER its budget of 64"), "\(run.stdout)")
    }
}
