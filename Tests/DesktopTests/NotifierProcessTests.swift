import DBusTestSupport
import Foundation
import Testing
import TestingTraits

/// The built `dbmultiverse notifier` as systemd runs it: exit 0 on SIGTERM, non-zero when the
/// bus goes away (so `Restart=on-failure` brings it back). Its log (stderr) is read as it comes.
@Suite(.timeLimit(.minutes(3)), .offThePool) struct NotifierProcessTests {
    /// The `dbmultiverse` binary built next to this test bundle.
    static var binary: String {
        URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("dbmultiverse").path
    }

    func startNotifier(on bus: PrivateBus) throws -> StreamingCommand {
        let notifier = try StreamingCommand(["sh", "-c", "exec \"$0\" notifier 2>&1", Self.binary],
                                            environment: bus.clientEnvironment)
        try notifier.waitForLine(timeout: 10, "the notifier's start") { $0.contains("following com.nobadi.DBMultiverse") }
        return notifier
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: binary)))
    func sigtermExitsZero() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let notifier = try startNotifier(on: bus)
        defer { notifier.stop() }
        #expect(try notifier.terminate(SIGTERM) == 0)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: binary)))
    func losingTheBusExitsNonZero() throws {
        let bus = try PrivateBus()
        let notifier = try startNotifier(on: bus)
        defer { notifier.stop() }
        bus.stop()
        try notifier.waitForLine(timeout: 10, "the lost-bus message") { $0.contains("the session bus went away") }
        #expect(try notifier.terminate(0) == 1) // signal 0: only waits for the exit
    }
}
