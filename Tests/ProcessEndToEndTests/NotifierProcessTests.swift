import DBus
import DBusTestSupport
import DesktopTestSupport
import Foundation
import Testing
import TestingTraits

/// The built `dbmultiverse notifier` as systemd runs it: exit 0 on SIGTERM, non-zero when the
/// bus goes away (so `Restart=on-failure` brings it back). Its log (stderr) is read as it comes.
@Suite(.timeLimit(.minutes(10)), .holds(.privateBuses), .offThePool,
       .enabled(if: FileManager.default.isExecutableFile(atPath: Binary.dbmultiverse)))
struct NotifierProcessTests {
    func startNotifier(on bus: PrivateBus, _ options: [String] = [], environment: [String: String] = [:]) throws -> StreamingCommand {
        let notifier = try StreamingCommand(["sh", "-c", "exec \"$0\" notifier \"$@\" 2>&1", Binary.dbmultiverse] + options,
                                            environment: bus.clientEnvironment.merging(environment) { $1 })
        try notifier.waitForLine(timeout: 10, "the notifier's start") { $0.contains("following com.nobadi.DBMultiverse") }
        return notifier
    }

    @Test func sigtermExitsZero() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let notifier = try startNotifier(on: bus)
        defer { notifier.stop() }
        #expect(try notifier.terminate(SIGTERM) == 0)
    }

    @Test func losingTheBusExitsNonZero() throws {
        let bus = try PrivateBus()
        let notifier = try startNotifier(on: bus)
        defer { notifier.stop() }
        bus.stop()
        try notifier.waitForLine(timeout: 10, "the lost-bus message") { $0.contains("the session bus went away") }
        #expect(try notifier.terminate(0) == 1) // signal 0: only waits for the exit
    }

    /// One notifier per bus (docs/install.md#debian-package: an autostart entry and a systemd unit may both start
    /// one): the first owns com.nobadi.DBMultiverse.Notifier; a second says so and leaves with
    /// status 0 (no restart by systemd), and the first keeps its name and goes on.
    @Test func aSecondNotifierOnTheBusLeaves() throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        let first = try startNotifier(on: bus)
        defer { first.stop() }
        let owner = try runCommand(["busctl", "--user", "status", "com.nobadi.DBMultiverse.Notifier"], environment: bus.clientEnvironment)
        #expect(owner.status == 0 && owner.stdout.contains("Comm=dbmultiverse"), "\(owner)")
        let second = try runCommand([Binary.dbmultiverse, "notifier"], environment: bus.clientEnvironment, timeout: 10)
        #expect(second.status == 0, "\(second)")
        #expect(second.stderr.contains("another notifier runs on this session bus (it owns com.nobadi.DBMultiverse.Notifier)"), "\(second)")
        let still = try runCommand(["busctl", "--user", "status", "com.nobadi.DBMultiverse.Notifier"], environment: bus.clientEnvironment)
        #expect(still.stdout == owner.stdout, "the first notifier keeps its name")
        #expect(try first.terminate(SIGTERM) == 0)
    }

    /// The tray item is on by default, registered with the panel's watcher; `--no-tray` and
    /// `tray = no` in the config file turn it off.
    @Test func theTrayItemIsOnUnlessTurnedOff() async throws {
        let panel = try BusWithAPanel()
        defer { panel.stop() }
        let (bus, watcher) = (panel.bus, panel.watcher)
        let client = try await BusClient.connect(.address(bus.address))
        func trayNames() async throws -> [String] {
            try await client.call(BusDriver.listNames.call(on: BusDriver.object)).filter { $0.hasPrefix("org.kde.StatusNotifierItem-") }
        }

        let notifier = try startNotifier(on: bus)
        let registration = try await next(watcher.registrations, within: 10, "the notifier's tray item")
        #expect(registration.service.hasPrefix("org.kde.StatusNotifierItem-") && registration.service.hasSuffix("-1"), "\(registration)")
        #expect(try await trayNames() == [registration.service])
        #expect(try notifier.terminate(SIGTERM) == 0)

        let config = try makeTemporaryDirectory("dbm-config")
        defer { try? FileManager.default.removeItem(atPath: config) }
        try FileManager.default.createDirectory(atPath: config + "/dbmultiverse", withIntermediateDirectories: true)
        try "# no tray for me\ntray = no\n".write(toFile: config + "/dbmultiverse/config", atomically: true, encoding: .utf8)
        for (options, environment, reason) in [(["--no-tray"], [:], "--no-tray"),
                                               ([], ["XDG_CONFIG_HOME": config], "tray = no in the config file")] {
            let off = try startNotifier(on: bus, options, environment: environment)
            defer { off.stop() }
            try off.waitForLine(timeout: 10, "no tray item") { $0.contains("no tray item (\(reason))") }
            #expect(try await trayNames().isEmpty, "\(reason)")
            #expect(try off.terminate(SIGTERM) == 0)
        }
    }

    /// The notifier and the tray item follow the service through one subscription: the process
    /// asks the bus for `TimelinesReloaded` once (each asked for it before), as dbus-monitor sees.
    @Test func theNotifierAndTheTrayShareOneSubscription() async throws {
        let panel = try BusWithAPanel()
        defer { panel.stop() }
        let (bus, watcher) = (panel.bus, panel.watcher)
        let monitor = try StreamingCommand(["dbus-monitor", "--address", bus.address,
                                            "type='method_call',interface='org.freedesktop.DBus',member='AddMatch'",
                                            "type='method_call',interface='org.freedesktop.DBus',member='GetId'"])
        defer { monitor.stop() }
        try monitor.waitForLine(timeout: 10, "dbus-monitor's start") { $0.contains("NameAcquired") || $0.contains("member=GetId") || $0.contains("AddMatch") }
        let notifier = try startNotifier(on: bus)
        defer { notifier.stop() }
        _ = try await next(watcher.registrations, within: 10, "the notifier's tray item")
        // A call after the notifier's: once the monitor shows it, it has shown every AddMatch before.
        let client = try await BusClient.connect(.address(bus.address))
        _ = try await client.call(BusDriver.getID.call(on: BusDriver.object))
        try monitor.waitForLine(timeout: 10, "the round trip") { $0.contains("member=GetId") }
        let reloadRules = monitor.output.filter { $0.contains("member='TimelinesReloaded'") }
        #expect(reloadRules.count == 1, "\(reloadRules)")
        #expect(try notifier.terminate(SIGTERM) == 0)
    }
}

/// A private bus with a panel's watcher on it, for the tray item to register with.
final class BusWithAPanel {
    let bus: PrivateBus
    let watcher: FakeStatusNotifierWatcher

    init() throws {
        bus = try PrivateBus()
        watcher = FakeStatusNotifierWatcher(address: bus.address)
        do {
            try watcher.start()
        } catch {
            bus.stop()
            throw error
        }
    }

    /// Stops the watcher, then the bus.
    func stop() {
        watcher.stop()
        bus.stop()
    }
}
