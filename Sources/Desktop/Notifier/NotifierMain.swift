internal import DBus
public import Logging

/// `dbmultiverse notifier`: follows the widget service and shows a desktop notification at each
/// chapter change, until SIGTERM/SIGINT (exit 0) or until the bus goes away (exit 1, so systemd's
/// `Restart=on-failure` brings it back). Returns the process exit status.
public enum NotifierMain {
    public static func run(environment: [String: String], logger: Logger) -> Int32 {
        guard let process = BusProcess(address: .session, logger: logger) else { return 1 }
        let connection = process.connection
        let notifier = Notifier(connection: connection, logger: logger)
        do {
            try notifier.start()
        } catch {
            logger.critical("cannot follow the widget service: \(error)")
            return 1
        }
        logger.info("following \(WidgetBus.busName) for chapter changes")
        let status = process.run()

        notifier.stop()
        if connection.isConnected { connection.flush() }
        return status
    }
}
