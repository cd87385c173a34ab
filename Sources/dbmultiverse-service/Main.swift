import ComicDomain
import Glibc
import Logging
import Service
import Widget

/// `dbmultiverse-service`: the widget service as D-Bus activation and its systemd user unit start
/// it, an executable of its own that links only what the service runs (no site code, history,
/// doctor or argument parser: docs/architecture.md, "The processes"). `dbmultiverse service` runs it.
@main
enum ServiceExecutable {
    static func main() {
        switch Array(CommandLine.arguments.dropFirst()) {
        case []:
            ProcessStart.start()
            exit(ServiceMain.run(environment: ProcessStart.environment(), logger: Logger(label: "dbmultiverse.service")))
        case ["--version"]:
            print(ProjectInfo.version) // read by `dbmultiverse doctor`'s service line
            exit(0)
        case ["--help"], ["-h"]:
            print(usage)
            exit(0)
        case let arguments:
            ProcessStart.printError("dbmultiverse-service: unexpected argument '\(arguments[0])'\n\(usage)")
            exit(2)
        }
    }

    static let usage = """
        usage: dbmultiverse-service [--version]
        Runs the DBMultiverse widget service (owns com.nobadi.DBMultiverse on the session bus) until \
        SIGTERM/SIGINT (exit 0) or until the bus goes away (exit 1). Usually started by D-Bus activation \
        or its systemd user unit; `dbmultiverse service` runs it too.
        """
}
