import ArgumentParser
import ComicDomain
import DBus
import Recorder
import Glibc
import Localization
import Widget

/// The `dbmultiverse` entry point. Every subcommand is synchronous: long-running ones (service,
/// watch) drive an event loop on this thread and never start a Swift `Task`.
@main
enum Main {
    static func main() {
        // Before anything else runs, and only here: setlocale is not thread-safe.
        ProcessStart.start()
        // The long-running processes skip the parser: the service and notifier are executables of
        // their own (this binary execs them), and the others have nothing to parse.
        let arguments = Array(CommandLine.arguments.dropFirst())
        if let status = runDaemon(arguments) {
            exit(status)
        }
        do {
            var command = try DBMultiverse.parseAsRoot()
            try command.run()
        } catch let failure as CommandFailure {
            Output.error(failure.message)
            exit(failure.status)
        } catch let error as DBusError {
            Output.error("\(error.message) (\(error.name))")
            exit(1)
        } catch {
            let code = DBMultiverse.exitCode(for: error)
            if code == .success {
                DBMultiverse.exit(withError: error) // --help, --version
            }
            // Usage errors (unknown option, missing or invalid value) exit 2, as the contract says.
            Output.errorBlock(DBMultiverse.fullMessage(for: error))
            exit(code == .validationFailure ? 2 : code.rawValue)
        }
    }

    /// `service`, `notifier` (also with `--no-tray`) and `browser-host` as their units and browsers
    /// start them, and `watch --next` as the Plasma widget runs it: run directly (nil for anything else).
    private static func runDaemon(_ arguments: [String]) -> Int32? {
        switch arguments {
        case ["service"]: ServiceCommand.runService()
        case ["notifier"]: NotifierCommand.runNotifier(noTray: false)
        case ["notifier", "--no-tray"]: NotifierCommand.runNotifier(noTray: true)
        case ["browser-host"]: BrowserHostCommand.runHost([])
        default: NextEntry.runAsWidget(arguments)
        }
    }
}

struct DBMultiverse: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dbmultiverse",
        // TRANSLATORS: the summary `dbmultiverse --help` starts with. DBMultiverse and D-Bus are names.
        abstract: gettext("The DBMultiverse comic reader's widget on the Linux desktop, over the D-Bus session bus."),
        version: ProjectInfo.version,
        subcommands: [
            ServiceCommand.self, EntryCommand.self, WatchCommand.self, UpdateCommand.self,
            ProgressCommand.self, ReloadCommand.self, OpenCommand.self, ActivateCommand.self, NotifierCommand.self,
            SyncCommand.self, SyncFolderCommand.self, ChaptersCommand.self, ImportHistoryCommand.self, BrowserHostCommand.self, DoctorCommand.self,
        ]
    )
}

/// A failure with the exit status it deserves (2 for bad input, 1 otherwise).
struct CommandFailure: Error {
    let message: String
    let status: Int32
    static func usage(_ message: String) -> CommandFailure { CommandFailure(message: message, status: 2) }
}
