import ArgumentParser
import Widget
import Localization

struct ServiceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "service",
        abstract: gettext("Run the widget service (owns com.nobadi.DBMultiverse on the session bus)."),
        // TRANSLATORS: `service --help`: com.nobadi.DBMultiverse (in the summary), the executable,
        // the paths and the variables ($DBMULTIVERSE_DATA_DIR, …) stay as they are.
        discussion: gettext("Runs dbmultiverse-service, the service's own executable (installed in ../libexec/dbmultiverse beside this binary). Usually started by D-Bus activation or its systemd user unit. Data folder: $DBMULTIVERSE_DATA_DIR, else $XDG_DATA_HOME/dbmultiverse, else ~/.local/share/dbmultiverse.")
    )

    /// Replaces this process with `dbmultiverse-service` (also `Main`'s parser-free path); returns
    /// only when it cannot, having said why.
    static func runService() -> Int32 {
        Output.error(ProcessStart.execSibling("dbmultiverse-service", arguments: []))
        return 1
    }

    func run() throws {
        throw ExitCode(Self.runService())
    }
}

/// The process environment as a dictionary.
func environment() -> [String: String] { ProcessStart.environment() }
