package import DBus
package import DBusTestSupport
package import Foundation

/// The built `dbmultiverse`, next to the test bundle (both for `swift test` and a direct run of
/// the `.xctest`).
package enum Binary {
    package static let dbmultiverse = builtProduct("dbmultiverse")
    /// The service's own executable, which `dbmultiverse service` and D-Bus activation run.
    package static let service = builtProduct("dbmultiverse-service")
    /// The notifier's own executable, which `dbmultiverse notifier` runs.
    package static let notifier = builtProduct("dbmultiverse-notifier")
    /// The browser host's own executable, which the installed host manifests name.
    package static let browserHost = builtProduct("dbmultiverse-browser-host")
}

/// The repository root, from this file's path.
package let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// A private bus whose service directory activates the real `dbmultiverse service` on a fresh
/// data folder, with the browser disabled.
package final class ActivatedService: Sendable {
    package let bus: PrivateBus
    package let folder: String

    /// The service's data folder is `folder` (made when missing; removed by `stop`), else a fresh one;
    /// `session` adds to the service's environment (a session's language: the view is in it).
    package init(folder: String? = nil, session: [String: String] = [:]) throws {
        guard FileManager.default.isExecutableFile(atPath: Binary.dbmultiverse) else {
            throw FixtureError("the dbmultiverse binary is not built: \(Binary.dbmultiverse)")
        }
        if let folder { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        self.folder = try folder ?? makeTemporaryDirectory()
        bus = try PrivateBus(activationEnvironment: [
            "DBMULTIVERSE_DATA_DIR": self.folder, "DBMULTIVERSE_BROWSER": "none", "DBMULTIVERSE_LOG_LEVEL": "warning",
        ].merging(session) { $1 })
        try bus.installActivationFile(name: "com.nobadi.DBMultiverse", exec: "\(Binary.dbmultiverse) service")
    }

    /// Stops the bus (an activated service exits when its bus goes away) and removes the folder.
    package func stop() {
        bus.stop()
        try? FileManager.default.removeItem(atPath: folder) // teardown of a temporary folder: best effort
    }

    /// The environment of a client of this bus (`DBUS_SESSION_BUS_ADDRESS` set).
    package var environment: [String: String] { bus.clientEnvironment }

    /// Runs `dbmultiverse` with `arguments` as a client of this bus.
    package func cli(_ arguments: String...) throws -> CommandResult {
        try runCommand([Binary.dbmultiverse] + arguments, environment: environment)
    }

    /// Runs a stock tool as a client of this bus.
    package func tool(_ arguments: String...) throws -> CommandResult {
        try runCommand(arguments, environment: environment)
    }

    /// The process id owning the service name.
    package func servicePID() throws -> pid_t {
        let result = try tool("busctl", "--address=\(bus.address)", "call", "org.freedesktop.DBus", "/org/freedesktop/DBus",
                              "org.freedesktop.DBus", "GetConnectionUnixProcessID", "s", "com.nobadi.DBMultiverse")
        guard result.status == 0, let pid = pid_t(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines).dropFirst(2)) else {
            throw FixtureError("no process owns com.nobadi.DBMultiverse: \(result)")
        }
        return pid
    }

    /// `NameOwnerChanged` for the service name, subscribed on `client` (confirmed before return).
    package func ownerChanges(_ client: BusClient) async throws -> AsyncStream<Message> {
        try await client.signals(MatchRule(sender: "org.freedesktop.DBus", interface: "org.freedesktop.DBus",
                                           member: "NameOwnerChanged", arg0: "com.nobadi.DBMultiverse"))
    }
}
