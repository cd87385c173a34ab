import DBusTestSupport
import DesktopTestSupport
import EndToEndSupport
import Foundation
import Testing
import TestingTraits

/// `make run`'s script (`scripts/dev/run-service.sh`, the README's first developer command after the
/// build) on a machine with no session bus, as a fresh container or an ssh login is: it starts a
/// private bus with dbus-run-session, says where, serves the widget there, and Ctrl-C (SIGINT to
/// its process group, as a terminal sends it) ends the service and the bus.
@Suite(.timeLimit(.minutes(10)), .holds(.privateBuses), .offThePool,
       .enabled(if: FileManager.default.isExecutableFile(atPath: Binary.dbmultiverse)))
struct RunServiceScriptTests {
    static let script = repositoryRoot.appendingPathComponent("scripts/dev/run-service.sh").path

    @Test func withoutASessionBusItServesOnAPrivateOneUntilCtrlC() throws {
        let folder = try makeTemporaryDirectory("dbm-run", for: .sockets)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var environment = testEnvironment() // no bus address variables
        environment["XDG_RUNTIME_DIR"] = nil
        environment["HOME"] = folder
        environment["DBMULTIVERSE_DATA_DIR"] = folder + "/data"
        environment["DBMULTIVERSE_BROWSER"] = "none"
        // SIGINT as a terminal leaves it (the test runner may ignore it, and children inherit
        // that). The command leads a process group of its own (Foundation starts it so), which
        // SIGINT reaches whole, as Ctrl-C does; its messages (stderr) are read as lines.
        let run = try StreamingCommand(["--default-signal=INT", "sh", "-c", "exec \"$0\" \"$@\" 2>&1", Self.script, Binary.dbmultiverse],
                                       environment: environment)
        defer { run.stop() }
        try run.waitForLine(timeout: 30, "the private bus notice") { $0.contains("no session bus: starting a private one (dbus-run-session); Ctrl-C stops") }
        let (_, line) = try run.waitForLine(timeout: 30, "the bus address") { $0.hasPrefix("DBUS_SESSION_BUS_ADDRESS=unix:") }
        let address = String(line.dropFirst("DBUS_SESSION_BUS_ADDRESS=".count))
        let owned = try runCommand(["gdbus", "wait", "--address", address, "--timeout", "10", "com.nobadi.DBMultiverse"],
                                   environment: testEnvironment(), timeout: 15)
        #expect(owned.status == 0, "\(owned)")
        let kind = try runCommand(["busctl", "--address=\(address)", "get-property", "com.nobadi.DBMultiverse",
                                   "/com/nobadi/DBMultiverse", "com.nobadi.DBMultiverse.Widget1", "Kind"], environment: testEnvironment())
        #expect(kind.stdout == "s \"DBMultiverseWidgets\"\n", "\(kind)")
        let status = try runCommand(["busctl", "--address=\(address)", "status", "com.nobadi.DBMultiverse"], environment: testEnvironment())
        let service = try #require(status.stdout.split(separator: "\n").first { $0.hasPrefix("PID=") }.flatMap { pid_t($0.dropFirst(4)) },
                                   "\(status)")
        #expect(getpgid(run.processIdentifier) == run.processIdentifier, "the script leads its process group")
        kill(-run.processIdentifier, SIGINT)
        _ = try run.terminate(0, timeout: 10) // waits for the exit: Ctrl-C's status is the shell's to show
        #expect(Spawn.waitUntilEnded(service, timeout: 10), "the service \(service) ended")
        let gone = try runCommand(["busctl", "--address=\(address)", "status", "com.nobadi.DBMultiverse"], environment: testEnvironment())
        #expect(gone.status != 0, "the private bus is gone: \(gone)")
    }
}
