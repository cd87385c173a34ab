import ComicDomain
import DBus
import Glibc
import Widget
import Localization

/// `com.nobadi.DBMultiverse` answers on the session bus, called with auto-start as a desktop calls
/// it: already running, or started by D-Bus activation now.
struct ServiceCheck: Sendable {
    static let name = "service"
    /// How long activation and the first answer may take (a service already running is a peer
    /// like any other: `DoctorBus.peerTimeout`).
    static let timeout = Duration.seconds(10)

    /// The wait for the service's answer: a running one answers at once, a started one may take long.
    static func timeout(wasRunning: Bool) -> Duration { wasRunning ? DoctorBus.peerTimeout : timeout }

    enum Reading: Sendable {
        /// No session bus to ask (why).
        case noBus(String)
        /// `GetCurrentEntry` answered; the process's executable and its `--version` when readable.
        case answered(wasRunning: Bool, view: EntryView, executable: String?, version: String?)
        /// The call failed; the activation file the bus started the service from, when one names it
        /// (`ActivationFile`), and whether the program it runs is there.
        case failed(wasRunning: Bool, DBusError, activation: (file: ActivationFile, programExists: Bool)?)
    }

    let reading: Reading

    init(_ reading: Reading) { self.reading = reading }

    /// Calls `GetCurrentEntry` (with activation), then reads which binary answered.
    static func read(_ bus: DoctorBus, _ surroundings: Surroundings) -> Reading {
        let wasRunning = bus.owner(of: WidgetBus.busName.rawValue) != nil
        switch bus.call(WidgetClient().currentEntry(), timeout: timeout(wasRunning: wasRunning), withinOverall: wasRunning) {
        case .failure(let error):
            let file = ActivationFile.winning(for: WidgetBus.busName.rawValue, surroundings)
            return .failed(wasRunning: wasRunning, error, activation: file.map { ($0, $0.programExists(surroundings)) })
        case .success(let view):
            let running = bus.owner(of: WidgetBus.busName.rawValue)?.pid.flatMap { RunningExecutable.read(pid: $0, surroundings) }
            return .answered(wasRunning: wasRunning, view: view, executable: running?.link, version: running?.version)
        }
    }

    /// Checked against `surroundings` for the short paths of the messages.
    func result(_ surroundings: Surroundings) -> CheckResult {
        switch reading {
        case .noBus(let reason):
            return CheckResult(Self.name, .missing, gettext("no session bus (%s)", reason), fix: Self.noBusFix)
        case .answered(let wasRunning, let view, let executable, let version):
            var detail = wasRunning
                // TRANSLATORS: doctor: the service's panel text follows ("Ch. 42 · 35%").
                ? gettext("answering (already running): %s", view.panelText)
                : gettext("answering (started by D-Bus activation now): %s", view.panelText)
            if let executable {
                detail += "; \(executable)"
                if let version { detail += " \(version)" }
                if executable.hasSuffix(" (deleted)") {
                    // TRANSLATORS: doctor: the line above (what answers, its binary), then why to restart it.
                    return CheckResult(Self.name, .ok, gettext("%s: the binary was replaced since it started", detail), fix: Self.restartFix)
                }
                if let version, version != ProjectInfo.version {
                    // TRANSLATORS: doctor: the line above (the service's version), then this command's version.
                    return CheckResult(Self.name, .ok, gettext("%s (this command is %s)", detail, ProjectInfo.version), fix: Self.restartFix)
                }
            }
            return CheckResult(Self.name, .ok, detail)
        case .failed(_, let error, _) where error.name == DBusError.Name.serviceUnknown:
            return CheckResult(Self.name, .missing,
                               gettext("not installed for D-Bus activation (ServiceUnknown: no %s.service in the bus's service folders)", WidgetBus.busName.rawValue),
                               fix: Self.installFix)
        case .failed(_, let error, let activation?) where error.name.hasPrefix("org.freedesktop.DBus.Error.Spawn.") && !activation.programExists:
            // A leftover, most likely: an installation's programs removed, its activation file not,
            // which shadows any other (the package's) in a later folder.
            // TRANSLATORS: doctor: the activation file's path, then the program its Exec= line names.
            return CheckResult(Self.name, .missing, gettext("D-Bus activation failed: the bus starts it from %s, whose Exec= names %s, which is not there",
                                                            surroundings.short(activation.file.path), activation.file.program),
                               fix: "rm \(shellWord(activation.file.path))")
        case .failed(_, let error, let activation) where error.name.hasPrefix("org.freedesktop.DBus.Error.Spawn."):
            return CheckResult(Self.name, .missing, activation.map {
                                   // TRANSLATORS: doctor: the bus's error, then the activation file's path.
                                   gettext("D-Bus activation failed: %s (the bus starts it from %s)", error.message, surroundings.short($0.file.path))
                               } ?? gettext("D-Bus activation failed: %s", error.message),
                               fix: gettext("dbmultiverse service (runs it here, saying why it stops), or journalctl --user -u dbmultiverse.service"))
        case .failed(let wasRunning, let error, _) where error.name == DBusError.Name.noReply || error.name == DBusError.Name.timeout:
            return CheckResult(Self.name, .missing, wasRunning
                                   ? gettext("no answer within %d s (it is running)", Int(Self.timeout(wasRunning: wasRunning).components.seconds))
                                   : gettext("no answer within %d s", Int(Self.timeout(wasRunning: wasRunning).components.seconds)),
                               fix: "systemctl --user restart dbmultiverse.service")
        case .failed(_, let error, _) where error.name == DBusError.Name.noServer || error.name == DBusError.Name.disconnected:
            return CheckResult(Self.name, .missing, gettext("no session bus (%s)", error.message), fix: Self.noBusFix)
        case .failed(_, let error, _):
            return CheckResult(Self.name, .missing, "\(error.message) (\(error.name))", fix: gettext("dbmultiverse service (runs it here, saying what fails)"))
        }
    }

    /// Replaces a running service by the installed one (it ends itself when its binary is replaced:
    /// one that did not, or one of another installation).
    static var restartFix: String { gettext("systemctl --user restart dbmultiverse.service (or end it: the bus starts the new one)") }

    /// Installs what the service and every other piece need.
    static var installFix: String { gettext("sudo apt install dbmultiverse (or make install, from the source)") }
    static var noBusFix: String { gettext("log in to a desktop session; over ssh: export DBUS_SESSION_BUS_ADDRESS=unix:path=$XDG_RUNTIME_DIR/bus") }
}
