import ArgumentParser
import Desktop
import Logging

struct NotifierCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "notifier",
        abstract: "Show a desktop notification whenever the chapter being read changes.",
        discussion: "Follows com.nobadi.DBMultiverse's TimelinesReloaded signal on the session bus and calls org.freedesktop.Notifications for chapter changes only (not for the state found at start). Usually run by its systemd user unit, dbmultiverse-notifier.service. Exits 0 on SIGTERM/SIGINT and 1 when the bus goes away."
    )

    /// Runs the notifier to its exit status (also `Main`'s parser-free path).
    static func runNotifier() -> Int32 {
        NotifierMain.run(environment: environment(), logger: Logger(label: "dbmultiverse.notifier"))
    }

    func run() throws {
        let status = Self.runNotifier()
        if status != 0 { throw ExitCode(status) }
    }
}
