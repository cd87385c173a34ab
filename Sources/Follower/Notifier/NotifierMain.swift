internal import ComicDomain
internal import DBus
internal import Glibc
package import Logging
internal import Widget

/// `dbmultiverse notifier`: follows the widget service, shows a desktop notification at each
/// chapter change and for new pages and, unless turned off, the tray item (DESIGN §14), until SIGTERM/SIGINT (exit 0)
/// or until the bus goes away (exit 1, so systemd's `Restart=on-failure` brings it back). Returns
/// the process exit status.
package enum NotifierMain {
    package static func run(environment: [String: String], noTray: Bool = false, logger: Logger) -> Int32 {
        guard let process = BusProcess(address: .session, logger: logger) else { return 1 }
        let connection = process.connection
        let notifier = Notifier(connection: connection, folder: DataFolder.resolve(environment: environment), logger: logger)
        do {
            try notifier.start()
        } catch {
            logger.critical("cannot follow the widget service: \(error)")
            return 1
        }
        let tray = startTray(on: connection, environment: environment, noTray: noTray, logger: logger)
        logger.info("following \(WidgetBus.busName) for chapter changes and new pages")
        let status = process.run()

        tray?.stop()
        notifier.stop()
        if connection.isConnected { connection.flush() }
        return status
    }

    /// The tray item, unless `--no-tray` or the config file turn it off. One that can't be set up
    /// is logged and left out: the notifications go on without it.
    private static func startTray(on connection: Connection, environment: [String: String], noTray: Bool, logger: Logger) -> TrayItem? {
        let config = ConfigFile.load(environment: environment)
        let settings = TraySettings(noTrayOption: noTray, config: config)
        if let problem = settings.problem { logger.warning("\(problem)") }
        guard settings.isEnabled else {
            logger.info("no tray item (\(noTray ? "--no-tray" : "\(TraySettings.configKey) = no in the config file"))")
            return nil
        }
        let folder = DataFolder.resolve(environment: environment)
        var reportedProblem: String? // each config file problem logged once
        do {
            let tray = TrayItem(
                server: try ObjectServer(connection: connection), iconThemePath: TraySettings.iconThemePath(executable: executablePath()),
                chapterName: { number in
                    TraySettings.chapterName(number, folder: folder, config: ConfigFile.load(environment: environment)) { problem in
                        guard problem.message != reportedProblem else { return }
                        reportedProblem = problem.message
                        logger.warning("the tray names chapters in English: \(problem.message)")
                    }
                },
                logger: logger)
            try tray.start()
            return tray
        } catch {
            logger.error("cannot show the tray item: \(error)")
            return nil
        }
    }

    /// This program's file, symlinks resolved ("" when the kernel does not say).
    private static func executablePath() -> String {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        return count > 0 ? String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
    }
}
