import ArgumentParser
import Service
import Glibc
import Logging

struct ServiceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "service",
        abstract: "Run the widget service (owns com.nobadi.DBMultiverse on the session bus).",
        discussion: "Usually started by D-Bus activation or its systemd user unit. Data folder: $DBMULTIVERSE_DATA_DIR, else $XDG_DATA_HOME/dbmultiverse, else ~/.local/share/dbmultiverse."
    )

    /// Runs the service to its exit status (also `Main`'s parser-free path).
    static func runService() -> Int32 {
        ServiceMain.run(environment: environment(), logger: Logger(label: "dbmultiverse.service"))
    }

    func run() throws {
        let status = Self.runService()
        if status != 0 { throw ExitCode(status) }
    }
}

/// The process environment as a dictionary.
func environment() -> [String: String] {
    var result: [String: String] = [:]
    var pointer = environ
    while let entry = pointer.pointee {
        let text = String(cString: entry)
        if let equals = text.firstIndex(of: "=") {
            result[String(text[..<equals])] = String(text[text.index(after: equals)...])
        }
        pointer += 1
    }
    return result
}
