package import ComicDomain
package import DBus
package import Logging
import Widget

/// The widget service as it runs: `Widget1` and `org.freedesktop.Application` exported on an
/// object server, `com.nobadi.DBMultiverse` owned, the data folder watched. The one start-up
/// path: `ServiceMain` starts it on the session bus, the tests on a private bus with a manual
/// clock.
///
/// Confined to the server's loop thread, like the server.
package final class RunningService {
    let widget: WidgetService
    private let application: ApplicationService
    private let server: ObjectServer

    /// Exports the objects, then owns the name (in that order, so a call that activated the
    /// service finds them), then starts watching the folder and applies the rules to what changed
    /// while the service was not running.
    ///
    /// - Throws: `ServiceStartError` when another connection owns the name; the error of a failed
    ///   export or name request otherwise.
    ///
    /// - Parameter environment: where the user's config file is (`ConfigFile.load(environment:)`).
    package init(server: ObjectServer, folder: DataFolder, clock: any ServiceClock, opener: ChapterOpener,
                environment: [String: String] = [:], logger: Logger) throws {
        self.server = server
        widget = try WidgetService(server: server, folder: folder, clock: clock,
                                   config: { ConfigFile.load(environment: environment) }, environment: environment, logger: logger)
        application = try ApplicationService(widget: widget, opener: opener)
        switch try server.connection.requestNameBlocking(WidgetBus.busName) {
        case .primaryOwner, .alreadyOwner: break
        case .exists, .inQueue: throw ServiceStartError.nameTaken
        }
        logger.info("serving \(WidgetBus.busName) from \(folder.path)")
        widget.start(loop: server.connection.loop)
    }

    /// Gives up the name (blocking, for shutdown) and stops serving.
    package func stop() {
        let connection = server.connection
        if connection.isConnected {
            connection.releaseNameBlocking(WidgetBus.busName)
            connection.flush()
        }
        server.unregister()
    }
}

/// Why the service could not start.
struct ServiceStartError: Error, Sendable, Equatable, CustomStringConvertible {
    let description: String

    /// Another process owns `com.nobadi.DBMultiverse`.
    static let nameTaken = ServiceStartError(
        description: "\(WidgetBus.busName) is already owned by another process; is the service already running?")
}
