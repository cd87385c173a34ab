import ComicDomain
import Localization

/// The notifier (notifications and the tray item) runs: a process owns
/// `com.nobadi.DBMultiverse.Notifier` (`WidgetBus.notifierBusName`) on the session bus (it owns it to refuse a second copy).
struct NotifierCheck: Sendable {
    static let name = "notifier"
    /// The XDG autostart entry the package installs (for sessions that systemd does not manage).
    static let autostartFile = "com.nobadi.DBMultiverse.Notifier.desktop"

    enum Autostart: Sendable, Equatable {
        /// No entry anywhere.
        case none
        /// The entry at this path starts it at login.
        case entry(String)
        /// The user's copy at this path hides it (`Hidden=true`, the documented off switch).
        case hidden(String)
    }

    struct Reading: Sendable, Equatable {
        /// Who owns the name.
        var owner: DoctorBus.Lookup
        var units: SystemdUnits
        var autostart: Autostart
        /// The running notifier's executable and version, when they can be read.
        var running: RunningExecutable?

        init(owner: DoctorBus.Lookup, units: SystemdUnits, autostart: Autostart, running: RunningExecutable? = nil) {
            self.owner = owner
            self.units = units
            self.autostart = autostart
            self.running = running
        }
    }

    let reading: Reading

    init(_ reading: Reading) { self.reading = reading }

    /// The user's entry (`$XDG_CONFIG_HOME/autostart`) wins over the system's (`$XDG_CONFIG_DIRS`),
    /// as the XDG autostart specification says.
    static func readAutostart(_ surroundings: Surroundings) -> Autostart {
        for folder in [surroundings.configHome] + surroundings.configDirectories {
            let path = folder + "/autostart/" + autostartFile
            guard let bytes = Files.read(path) else { continue }
            let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map { $0.filter { $0 != " " } }
            return lines.contains("Hidden=true") ? .hidden(path) : .entry(path)
        }
        return .none
    }

    func result(_ surroundings: Surroundings) -> CheckResult {
        switch reading.owner {
        case .owned(let owner):
            // An older notifier than the installed one (it restarts itself when its binary is
            // replaced: one that did not, or one from another installation).
            let restart = if case .manager = reading.units { "systemctl --user restart \(SystemdUnits.notifierUnit)" }
                else { owner.pid.map { "kill \($0) && dbmultiverse notifier &" } ?? "dbmultiverse notifier &" }
            if let running = reading.running, running.isReplaced {
                // TRANSLATORS: doctor: the process (pid 2817), then its binary's path.
                return CheckResult(Self.name, .missing, gettext("running (%s), but its binary %s was replaced or removed since it started", owner.description, running.path),
                                   fix: restart)
            }
            if let version = reading.running?.version, version != ProjectInfo.version {
                // TRANSLATORS: doctor: the process (pid 2817), its version, then the installed version.
                return CheckResult(Self.name, .missing, gettext("running (%s) version %s, but this installation is %s", owner.description, version, ProjectInfo.version),
                                   fix: restart)
            }
            return CheckResult(Self.name, .ok, gettext("running (%s)", owner.description))
        case .noBus(let reason):
            return CheckResult(Self.name, .unavailable, gettext("cannot be checked without a session bus (%s)", reason))
        case .unowned:
            break
        }
        let unit = SystemdUnits.notifierUnit
        if case .hidden(let path) = reading.autostart, case .noManager = reading.units {
            return CheckResult(Self.name, .off, gettext("not running: turned off (Hidden=true in %s)", surroundings.short(path)),
                               fix: gettext("rm %s, then log in again (or run dbmultiverse notifier &)", shellWord(path)))
        }
        switch reading.units {
        case .manager(let units):
            let properties = units[unit] ?? [:]
            if let unusable = SystemdUnits.unusable(unit, properties, check: Self.name, running: true) { return unusable }
            if SystemdUnits.isEnabled(properties["UnitFileState"]) {
                // TRANSLATORS: doctor: the unit's name, then its systemd ActiveState (failed, inactive…).
                return CheckResult(Self.name, .missing, properties["ActiveState"].map { gettext("not running: %s is enabled but not running (%s)", unit, $0) }
                                       ?? gettext("not running: %s is enabled but not running", unit),
                                   fix: gettext("systemctl --user restart %s; journalctl --user -u %s says why it stopped", unit, unit))
            }
            return CheckResult(Self.name, .missing, // TRANSLATORS: doctor: the unit's name, then its state (disabled, not enabled…).
                               gettext("not running: %s is %s", unit, SystemdUnits.fileState(properties)),
                               fix: "systemctl --user enable --now \(unit)")
        case .noManager(let reason):
            if case .entry(let path) = reading.autostart {
                return CheckResult(Self.name, .missing, gettext("not running (no systemd user manager: %s; %s starts it at login)", reason, surroundings.short(path)),
                                   fix: gettext("dbmultiverse notifier & (your session's next login starts it)"))
            }
            return CheckResult(Self.name, .missing, gettext("not running (no systemd user manager: %s; no autostart entry)", reason),
                               fix: gettext("dbmultiverse notifier & (and add it to your session's startup)"))
        }
    }
}
