import Localization

/// `dbmultiverse-sync.timer` looks for new pages: enabled (for this user or everyone), with its
/// last and next run. Without a systemd user manager, the user's crontab may run `dbmultiverse sync`.
struct SyncTimerCheck: Sendable {
    static let name = "sync timer"
    /// The README's cron lines (release evenings and a daily catch-up).
    static let cronLines = "30 19 * * 0,3,5 dbmultiverse sync >/dev/null; 0 12 * * * dbmultiverse sync >/dev/null"

    enum Reading: Sendable, Equatable {
        /// The timer unit's properties, as the systemd user manager has them.
        case timer([String: String])
        /// No systemd user manager (why), and `crontab -l`'s lines that run `dbmultiverse sync`.
        case noManager(String, cronLines: [String])
    }

    let reading: Reading

    init(_ reading: Reading) { self.reading = reading }

    /// The timer's properties; without a user manager, the crontab's lines that run the sync instead.
    static func read(_ surroundings: Surroundings, units: SystemdUnits) -> Reading {
        switch units {
        case .manager(let units):
            return .timer(units[SystemdUnits.timerUnit] ?? [:])
        case .noManager(let reason):
            let crontab = surroundings.commands.run(["crontab", "-l"], timeout: .seconds(3))
            let lines = (crontab?.succeeded == true ? crontab!.stdout : "").split(separator: "\n")
                .map(String.init).filter { !$0.hasPrefix("#") && $0.contains("dbmultiverse sync") }
            return .noManager(reason, cronLines: lines)
        }
    }

    func result(_ surroundings: Surroundings) -> CheckResult {
        let unit = SystemdUnits.timerUnit
        switch reading {
        case .noManager(let reason, let cronLines):
            if !cronLines.isEmpty {
                return CheckResult(Self.name, .ok, ngettext("no systemd user manager (%s); your crontab runs dbmultiverse sync (%d line)",
                                                                    "no systemd user manager (%s); your crontab runs dbmultiverse sync (%d lines)",
                                                                    cronLines.count, reason, cronLines.count))
            }
            return CheckResult(Self.name, .missing, gettext("no systemd user manager (%s), and no crontab line runs dbmultiverse sync", reason),
                               // TRANSLATORS: doctor: the crontab lines to add follow.
                               fix: gettext("crontab -e, and add: %s", Self.cronLines))
        case .timer(let properties):
            if let unusable = SystemdUnits.unusable(unit, properties, check: Self.name, running: false) { return unusable }
            // TRANSLATORS: doctor: the timer's last run.
            let last = SystemdUnits.describeTimestamp(properties["LastTriggerUSec"], surroundings) ?? gettext("never")
            // TRANSLATORS: doctor: the timer's next run.
            let next = SystemdUnits.describeTimestamp(properties["NextElapseUSecRealtime"], surroundings) ?? gettext("none planned")
            // TRANSLATORS: doctor: when the timer ran last and runs next ("3 h ago (…)", "in 2 days (…)").
            let runs = gettext("last run %s, next %s", last, next)
            guard SystemdUnits.isEnabled(properties["UnitFileState"]) else {
                return CheckResult(Self.name, .missing, // TRANSLATORS: doctor: the unit, its state (disabled…), then the line "last run …, next …".
                                   gettext("%s is %s; %s", unit, SystemdUnits.fileState(properties), runs),
                                   fix: "systemctl --user enable --now \(unit)")
            }
            guard properties["ActiveState"] == "active" else {
                return CheckResult(Self.name, .missing, // TRANSLATORS: doctor: systemd's ActiveState (inactive…), then the line "last run …, next …".
                                   gettext("enabled but not started (%s); %s", properties["ActiveState"] ?? "inactive", runs),
                                   fix: "systemctl --user start \(unit)")
            }
            return CheckResult(Self.name, .ok, gettext("enabled, %s", runs))
        }
    }
}
