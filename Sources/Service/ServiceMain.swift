import ComicDomain
import DBus
import Glibc
package import Logging
import Widget

/// `dbmultiverse service`: owns `com.nobadi.DBMultiverse` until SIGTERM/SIGINT, until the bus
/// goes away, or until its executable is replaced or removed (an upgrade or removal: the bus starts
/// the installed one at the next call, or none). Returns the process exit status.
package enum ServiceMain {
    package static func run(environment: [String: String], logger: Logger) -> Int32 {
        // The browsers the opener starts are never waited for: let the kernel reap them.
        // Process-wide, so set here and not by the opener (a host process may wait for its children).
        signal(SIGCHLD, SIG_IGN)
        let folder: DataFolder
        do {
            folder = try DataFolder.resolve(environment: environment)
        } catch {
            logger.critical("cannot start the service: \(error.message)")
            return 1
        }
        guard let process = BusProcess(address: .starter, logger: logger) else { return 1 }
        let service: RunningService
        do {
            service = try RunningService(
                server: ObjectServer(connection: process.connection), folder: folder, clock: LoopClock(loop: process.loop),
                opener: ChapterOpener(environment: environment, logger: logger), environment: environment, logger: logger)
        } catch {
            logger.critical("cannot start the service: \(error)")
            return 1
        }
        process.stopWhenReplaced()
        let status = process.run()
        service.stop()
        return status
    }
}
