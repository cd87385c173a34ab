internal import ComicDomain
internal import DBus
internal import Glibc
public import Logging

/// `dbmultiverse service`: owns `com.nobadi.DBMultiverse` until SIGTERM/SIGINT or until the bus
/// goes away. Returns the process exit status.
public enum ServiceMain {
    public static func run(environment: [String: String], logger: Logger) -> Int32 {
        // The browsers the opener starts are never waited for: let the kernel reap them.
        // Process-wide, so set here and not by the opener (a host process may wait for its children).
        signal(SIGCHLD, SIG_IGN)
        guard let process = BusProcess(address: .starter, logger: logger) else { return 1 }
        let connection = process.connection
        let folder = DataFolder.resolve(environment: environment)
        let service: WidgetService
        let application: ApplicationService
        do {
            let server = try ObjectServer(connection: connection)
            // Objects first, name second: a call that activated us must find them.
            service = try WidgetService(server: server, folder: folder, clock: LoopClock(loop: process.loop), logger: logger)
            application = try ApplicationService(widget: service, opener: ChapterOpener(environment: environment, logger: logger))
            switch try connection.requestNameBlocking(WidgetBus.busName) {
            case .primaryOwner, .alreadyOwner: break
            case .exists, .inQueue:
                logger.critical("\(WidgetBus.busName) is already owned by another process; is the service already running?")
                return 1
            }
        } catch {
            logger.critical("cannot start the service: \(error)")
            return 1
        }
        logger.info("serving \(WidgetBus.busName) from \(folder.path)")
        service.start(loop: process.loop)
        let status = process.run()

        if connection.isConnected {
            connection.releaseNameBlocking(WidgetBus.busName)
            connection.flush()
        }
        withExtendedLifetime((service, application)) {}
        return status
    }
}
