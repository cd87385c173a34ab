internal import DBus
internal import Glibc
public import Logging

/// `dbmultiverse notifier`: follows the widget service and shows a desktop notification at each
/// chapter change, until SIGTERM/SIGINT (exit 0) or until the bus goes away (exit 1, so systemd's
/// `Restart=on-failure` brings it back). Returns the process exit status.
public enum NotifierMain {
    public static func run(environment: [String: String], logger: Logger) -> Int32 {
        let loop: EventLoop
        let signals: EventLoop.IOSource
        var status: Int32 = 0
        do {
            loop = try EventLoop()
            // Before anything else: the signalfd only sees signals blocked in every thread.
            signals = try loop.handleSignals([SIGTERM, SIGINT]) { signal in
                logger.info("stopping on signal \(signal)")
                loop.stop()
            }
        } catch {
            logger.critical("cannot set up the event loop: \(error.message)")
            return 1
        }

        let connection: Connection
        do {
            connection = try Connection(.session, loop: loop)
        } catch {
            logger.critical("cannot connect to the session bus: \(error.message)")
            return 1
        }
        connection.onDisconnect = {
            logger.critical("the session bus went away")
            status = 1
            loop.stop()
        }

        let notifier = Notifier(connection: connection, logger: logger)
        do {
            try notifier.start()
        } catch {
            logger.critical("cannot follow the widget service: \(error)")
            return 1
        }
        logger.info("following \(WidgetBus.busName) for chapter changes")
        loop.run()

        notifier.stop()
        if connection.isConnected { connection.flush() }
        withExtendedLifetime(signals) {}
        return status
    }
}
