import ComicDomain
import DBus
import Glibc
package import Logging
import Widget

/// `dbmultiverse notifier`: follows the widget service, shows a desktop notification at each
/// chapter change and for new pages and, unless turned off, the tray item (docs/tray.md), until SIGTERM/SIGINT (exit 0),
/// until the bus goes away (exit 1, so systemd's `Restart=on-failure` brings it back), or until
/// its executable is replaced or removed (docs/install.md, "Upgrades"): replaced, the new one is
/// to run in this process's place (the same process, so it works alike under a systemd unit and
/// from an autostart entry, which restarts nothing); removed, it exits 0 (nothing starts it again).
package enum NotifierMain {
    /// How the notifier ended.
    package enum Ending: Sendable, Equatable {
        /// Exit with this status.
        case exit(Int32)
        /// Run the executable at this path in this process's place (its replacement).
        case runAgain(String)
    }

    package static func run(environment: [String: String], noTray: Bool = false, logger: Logger) -> Ending {
        let folder: DataFolder
        do {
            folder = try DataFolder.resolve(environment: environment)
        } catch {
            logger.critical("cannot start the notifier: \(error.message)")
            return .exit(1)
        }
        guard let process = BusProcess(address: .session, logger: logger) else { return .exit(1) }
        let connection = process.connection
        // One notifier per bus: two would notify everything twice and show two tray items. The
        // second leaves with status 0, so a systemd unit does not restart it.
        do {
            guard try connection.requestNameBlocking(WidgetBus.notifierBusName) == .primaryOwner else {
                logger.notice("another notifier runs on this session bus (it owns \(WidgetBus.notifierBusName)); leaving it to notify")
                return .exit(0)
            }
        } catch {
            logger.critical("cannot own \(WidgetBus.notifierBusName): \(error.message)")
            return .exit(1)
        }
        let settings = traySettings(environment: environment, noTray: noTray, logger: logger)
        // One subscription and one entry for both; with the tray, reading the entry starts the
        // service by D-Bus activation, as a desktop would.
        let follower = WidgetFollower(connection: connection, activatesService: settings.isEnabled, logger: logger)
        let notifier = Notifier(connection: connection, folder: folder, follower: follower, logger: logger)
        do {
            try notifier.start()
        } catch {
            logger.critical("cannot follow the widget service: \(error)")
            return .exit(1)
        }
        let tray = settings.isEnabled ? startTray(on: connection, follower: follower, environment: environment, logger: logger) : nil
        logger.info("following \(WidgetBus.busName) for chapter changes and new pages")
        process.stopWhenReplaced()
        let status = process.run()

        tray?.stop()
        notifier.stop()
        if connection.isConnected {
            // Given back before anything else may take it: the notifier run in this one's place.
            connection.releaseNameBlocking(WidgetBus.notifierBusName)
            connection.flush()
        }
        if case .replaced(let path) = process.executableChange { return .runAgain(path) }
        return .exit(status)
    }

    /// Whether the tray item is shown: not with `--no-tray` or `tray = no` in the config file.
    private static func traySettings(environment: [String: String], noTray: Bool, logger: Logger) -> TraySettings {
        let settings = TraySettings(noTrayOption: noTray, config: ConfigFile.load(environment: environment))
        if let problem = settings.problem { logger.warning("\(problem)") }
        if !settings.isEnabled {
            logger.info("no tray item (\(noTray ? "--no-tray" : "\(TraySettings.configKey) = no in the config file"))")
        }
        return settings
    }

    /// The tray item, following the service through `follower`. One that can't be set up is
    /// logged and left out: the notifications go on without it.
    private static func startTray(on connection: Connection, follower: WidgetFollower, environment: [String: String], logger: Logger) -> TrayItem? {
        do {
            let tray = TrayItem(
                server: try ObjectServer(connection: connection), iconThemePath: TraySettings.iconThemePath(executable: ProcessStart.executablePath()),
                follower: follower, logger: logger)
            try tray.start()
            return tray
        } catch {
            logger.error("cannot show the tray item: \(error)")
            return nil
        }
    }
}
