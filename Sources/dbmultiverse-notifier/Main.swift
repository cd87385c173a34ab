import ComicDomain
import Follower
import Glibc
import Logging
import Widget

/// `dbmultiverse-notifier`: the notifier and its tray item as the systemd user unit and the
/// autostart entry start them, an executable of its own that links only what they run (no site
/// code, history, doctor or argument parser: docs/architecture.md, "The processes").
/// `dbmultiverse notifier` runs it.
@main
enum NotifierExecutable {
    static func main() {
        switch Array(CommandLine.arguments.dropFirst()) {
        case []: run(noTray: false)
        case ["--no-tray"]: run(noTray: true)
        case ["--version"]:
            print(ProjectInfo.version)
            exit(0)
        case ["--help"], ["-h"]:
            print(usage)
            exit(0)
        case let arguments:
            ProcessStart.printError("dbmultiverse-notifier: unexpected argument '\(arguments[0])'\n\(usage)")
            exit(2)
        }
    }

    static func run(noTray: Bool) -> Never {
        ProcessStart.start()
        switch NotifierMain.run(environment: ProcessStart.environment(), noTray: noTray, logger: Logger(label: "dbmultiverse.notifier")) {
        case .exit(let status):
            exit(status)
        case .runAgain(let path):
            // Its replacement (an upgrade), in this process, with the same arguments and environment.
            ProcessStart.printError("dbmultiverse-notifier: " + ProcessStart.exec(path, arguments: Array(CommandLine.arguments.dropFirst())))
            exit(1)
        }
    }

    static let usage = """
        usage: dbmultiverse-notifier [--no-tray] [--version]
        Shows the tray item, and desktop notifications when the chapter being read changes and when \
        new pages are out, until SIGTERM/SIGINT (exit 0) or until the bus goes away (exit 1). Usually \
        started by its systemd user unit or the autostart entry; `dbmultiverse notifier` runs it too.
        """
}
