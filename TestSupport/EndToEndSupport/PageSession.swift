package import DBus
package import DBusTestSupport
package import DesktopTestSupport
import Foundation
package import SiteTestSupport
import Widget

/// The activated service, the fixture site serving the small comic, and a client following
/// the service's `TimelinesReloaded`.
package final class PageSession {
    package static let dest = "com.nobadi.DBMultiverse"
    package static let path = "/com/nobadi/DBMultiverse"
    package static let widget = "com.nobadi.DBMultiverse.Widget1"

    package let service: ActivatedService
    package let site: FixtureSite
    package let client: BusClient
    package let reloads: AsyncStream<Message>
    package var environment: [String: String]

    package init() async throws {
        service = try ActivatedService()
        site = try FixtureSite()
        site.publish(.small)
        client = try await BusClient.connect(.address(service.bus.address))
        reloads = try await client.signals(MatchRule(path: WidgetBus.objectPath, interface: Widget1.name, member: "TimelinesReloaded"))
        environment = service.environment
        environment["DBMULTIVERSE_DATA_DIR"] = service.folder
        environment["DBMULTIVERSE_SITE_URL"] = site.origin
        environment["HOME"] = service.folder // no config file and an English desktop: the language is en
        environment["XDG_CONFIG_HOME"] = service.folder + "/config"
        for variable in ["LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG"] { environment[variable] = nil }
        environment["LANG"] = "C.UTF-8"
    }

    deinit {
        site.stop()
        service.stop()
    }

    package func cli(_ arguments: String...) throws -> CommandResult {
        try runCommand([Binary.dbmultiverse] + arguments, environment: environment, timeout: 60)
    }

    package func tool(_ arguments: String...) throws -> CommandResult {
        try runCommand(arguments, environment: environment)
    }

    package func busctl(_ arguments: String...) throws -> CommandResult {
        try runCommand(["busctl", "--address=\(service.bus.address)"] + arguments, environment: environment)
    }

    package func property(_ names: String...) throws -> String {
        let result = try runCommand(["busctl", "--address=\(service.bus.address)", "get-property", Self.dest,
                                     Self.path, Self.widget] + names, environment: environment)
        guard result.status == 0 else { throw FixtureError("busctl get-property: \(result)") }
        return result.stdout
    }

    /// The next `TimelinesReloaded`: its reason and entry.
    /// The next reload, once the service is done with the handler that sent it: a chapter
    /// change comes from the end of its cover's read, which writes the sync state after it.
    package func nextReload(_ what: String) async throws -> ReloadSignal {
        let reload = try ReloadSignal(try await next(reloads, within: 15, what))
        _ = try property("Chapter") // a round trip
        return reload
    }

    package func storedFiles() throws -> [String: String] { try DesktopTestSupport.storedFiles(in: service.folder) }
}
