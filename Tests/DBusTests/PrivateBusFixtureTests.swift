import DBusTestSupport
import Foundation
import Testing

/// The private-bus fixture's own failures end the test that uses it with a clear message, in
/// bounded time, and leave no process behind.
@Suite(.timeLimit(.minutes(1))) struct PrivateBusFixtureTests {
    /// A stand-in for dbus-daemon: a script that records its pid, then runs `body`.
    private func fakeDaemon(_ body: String) throws -> (script: String, pidFile: String, folder: String) {
        let folder = try makeTemporaryDirectory("dbm-fake-daemon", forPrograms: true)
        let script = folder + "/dbus-daemon", pidFile = folder + "/pid"
        try "#!/bin/sh\necho $$ > '\(pidFile)'\n\(body)\n".write(toFile: script, atomically: false, encoding: .utf8)
        guard chmod(script, 0o755) == 0 else { throw FixtureError("chmod \(script): errno \(errno)") }
        return (script, pidFile, folder)
    }

    /// Whether the process whose pid `file` holds is gone (killed and reaped).
    private func isGone(pidIn file: String) throws -> Bool {
        let text = try String(contentsOfFile: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let pid = try #require(pid_t(text))
        return kill(pid, 0) != 0 && errno == ESRCH
    }

    @Test func aDaemonThatNeverPrintsItsAddressFailsWithinTheTimeout() throws {
        let daemon = try fakeDaemon("exec sleep 600")
        defer { try? FileManager.default.removeItem(atPath: daemon.folder) }
        let clock = ContinuousClock()
        let started = clock.now
        let error = #expect(throws: FixtureError.self) { try PrivateBus(daemon: daemon.script, addressTimeout: 1) }
        #expect(clock.now - started < .seconds(10))
        #expect(error?.description == "no \(daemon.script)'s address within 1.0 s", "\(String(describing: error))")
        #expect(try isGone(pidIn: daemon.pidFile), "the silent daemon was left running")
    }

    @Test func aDaemonThatExitsWithoutAnAddressFailsAtOnce() throws {
        let daemon = try fakeDaemon("echo 'Failed to start message bus: no config' >&2\nexit 1")
        defer { try? FileManager.default.removeItem(atPath: daemon.folder) }
        let clock = ContinuousClock()
        let started = clock.now
        let error = #expect(throws: FixtureError.self) { try PrivateBus(daemon: daemon.script, addressTimeout: 30) }
        #expect(clock.now - started < .seconds(10))
        #expect(error?.description == "\(daemon.script) did not print an address (got '')", "\(String(describing: error))")
        #expect(try isGone(pidIn: daemon.pidFile))
    }
}
