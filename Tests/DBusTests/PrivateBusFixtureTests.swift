import DBusTestSupport
import Foundation
import Testing
import TestingTraits

/// The private-bus fixture's own failures end the test that uses it with a clear message, in
/// bounded time, and leave no process behind.
@Suite(.timeLimit(.minutes(10)), .holds(.privateBuses), .offThePool) struct PrivateBusFixtureTests {
    /// Starts a bus on a stand-in for dbus-daemon, a script that records its pid and then runs
    /// `body`; expects the start to fail within 10 s with `message(script path)`, leaving no
    /// process behind.
    private func expectStartFails(daemon body: String, addressTimeout: Double,
                                  message: (String) -> String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let folder = try makeTemporaryDirectory("dbm-fake-daemon", for: .programs)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let script = folder + "/dbus-daemon", pidFile = folder + "/pid"
        try writeExecutable("#!/bin/sh\necho $$ > '\(pidFile)'\n\(body)\n", to: script)

        let clock = ContinuousClock()
        let started = clock.now
        let error = #expect(throws: FixtureError.self, sourceLocation: sourceLocation) {
            try PrivateBus(daemon: script, addressTimeout: addressTimeout)
        }
        #expect(clock.now - started < .seconds(10), sourceLocation: sourceLocation)
        #expect(error?.description == message(script), sourceLocation: sourceLocation)
        let pid = try #require(pid_t(try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(kill(pid, 0) != 0 && errno == ESRCH, "the daemon \(pid) was left running", sourceLocation: sourceLocation)
    }

    @Test func aDaemonThatNeverPrintsItsAddressFailsWithinTheTimeout() throws {
        try expectStartFails(daemon: "exec sleep 600", addressTimeout: 1) { "no \($0)'s address within 1.0 s" }
    }

    @Test func aDaemonThatExitsWithoutAnAddressFailsAtOnce() throws {
        try expectStartFails(daemon: "echo 'Failed to start message bus: no config' >&2\nexit 1", addressTimeout: 30) {
            "\($0) did not print an address (got '')"
        }
    }

    /// What a daemon logs reaches the test's output, but for the warning a daemon run as root
    /// prints at every start where it may not raise its open-files limit (hundreds per suite).
    @Test func theDaemonsLogIsPassedOnWithoutTheFdLimitWarning() {
        let log = """
            dbus-daemon[10323]: [session uid=0 pid=10323] org.freedesktop.DBus.Error.AccessDenied: Failed to set fd limit to 65536: Operation not permitted
            dbus-daemon[10323]: Cannot initialize inotify: Too many open files
            Failed to start message bus: no config

            """
        #expect(PrivateBus.noteworthy(log) == [
            "dbus-daemon[10323]: Cannot initialize inotify: Too many open files", "Failed to start message bus: no config",
        ])
    }
}
