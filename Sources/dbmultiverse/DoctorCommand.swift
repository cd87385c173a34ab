import ArgumentParser
import DBus
import Doctor
import Glibc
import Localization

/// `doctor [--format text|json]`: what works of the installation, and the command that fixes the rest.
struct DoctorCommand: ParsableCommand {
    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json
    }

    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: gettext("Check every piece of the installation, with the command that fixes what is missing."),
        discussion: gettext("One line per piece: the service (started by D-Bus activation if needed), the data folder, the notifier, the notification server, the tray host, each installed browser's host manifest and when its extension last talked to the host, the sync timer, the catalogue, and the GNOME Shell extension and Plasma widget where those desktops are installed. Each line starts with a check mark when the piece works, a cross when it is missing (the command that fixes it on the line below), a dash when it is turned off or cannot be had here. Exit status 0 when the essentials work (the service answers and the data folder is usable), 1 otherwise."))

    // TRANSLATORS: `doctor --help`: text and json are values of --format and ok a JSON key,
    // kept as they are.
    @Option(help: ArgumentHelp(gettext("Output: text (one line per check) or json (one object: ok and the checks).")))
    var format: Format = .text

    func run() throws {
        let environment = environment()
        let surroundings = Surroundings(environment: environment, now: Int64(time(nil)), commands: ProcessRunner(environment: environment))
        let bus = Result { () throws(DBusError) in try DoctorBus() }
        let report = Doctor.examine(bus: bus, surroundings)
        Output.line(format == .json ? report.json : report.text)
        if !report.essentialsWork { throw ExitCode(1) }
    }
}
