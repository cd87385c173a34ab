package import DBus
package import EventLoop
import Glibc
package import Logging

/// The shell of a long-running bus process (the service, the notifier): an event loop, SIGTERM
/// and SIGINT through a signalfd (a clean stop, status 0), a bus connection whose loss stops
/// the loop with status 1 so systemd's `Restart=on-failure` brings the process back, and (when
/// asked) a watch on its own executable that stops it, status 0, when an upgrade replaces the file
/// or a removal deletes it (`stopWhenReplaced`).
package final class BusProcess {
    package let loop: EventLoop
    package let connection: Connection
    private let logger: Logger
    private var signals: EventLoop.IOSource?
    private(set) var status: Int32 = 0
    private var executableWatch: ExecutableWatch?
    /// Why the process stopped, when its executable was replaced or removed.
    package private(set) var executableChange: ExecutableWatch.Change?
    /// Set by SIGTERM/SIGINT: a bus that goes away afterwards (dbus-run-session, logout) is no failure.
    /// A box, because the signal handler is made before `self` is fully initialised.
    private let stopping = Flag()

    private final class Flag {
        var isSet = false
    }

    /// Nil (after logging why) when the loop or the connection can't be set up.
    package init?(address: Connection.Address, logger: Logger) {
        self.logger = logger
        do {
            loop = try EventLoop()
        } catch {
            logger.critical("cannot set up the event loop: \(error)")
            return nil
        }
        do {
            // Blocked before any other thread exists: the signalfd only sees signals blocked in every thread.
            // `weak loop`: the loop owns this handler (through the source); a strong capture would
            // be a cycle keeping the loop, its timers and their targets alive after `run()`.
            signals = try loop.handleSignals([SIGTERM, SIGINT]) { [weak loop, stopping] signal in
                logger.info("stopping on signal \(signal)")
                stopping.isSet = true
                loop?.stop()
            }
        } catch {
            logger.critical("cannot set up signal handling: \(error)")
            return nil
        }
        do {
            connection = try Connection(address, loop: loop)
        } catch {
            logger.critical("cannot connect to the session bus: \(error.message)")
            return nil
        }
        connection.onDisconnect = { [unowned self] in
            guard !stopping.isSet else { return }
            logger.critical("the session bus went away")
            status = 1
            loop.stop()
        }
    }

    /// Stops the loop, status 0, when the executable this process runs is replaced or removed
    /// (`executableChange` then says which): what runs stays what is installed.
    package func stopWhenReplaced() {
        executableWatch = ExecutableWatch(loop: loop, problem: { [logger] problem in
            logger.warning("\(problem): an upgrade or removal will not stop this process")
        }) { [unowned self] change in
            switch change {
            case .replaced(let path): logger.notice("\(path) was replaced (an upgrade): stopping")
            case .removed(let path): logger.notice("\(path) was removed: stopping")
            }
            executableChange = change
            stopping.isSet = true
            loop.stop()
        }
    }

    /// Runs until a signal or the loss of the bus; returns the exit status.
    package func run() -> Int32 {
        do {
            try loop.run()
        } catch {
            logger.critical("the event loop failed: \(error)")
            return 1
        }
        return status
    }
}
