/// `dbmultiverse-sync.timer` looks for new pages: enabled (for this user or everyone), with its
/// last and next run. Without a systemd user manager, the user's crontab may run `dbmultiverse sync`.
package struct SyncTimerCheck: Sendable {
    package static let name = "sync timer"
    /// The README's cron lines (release evenings and a daily catch-up).
    static let cronLines = "30 19 * * 0,3,5 dbmultiverse sync >/dev/null; 0 12 * * * dbmultiverse sync >/dev/null"

    package enum Reading: Sendable, Equatable {
        /// The timer unit's properties, as the systemd user manager has them.
        case timer([String: String])
        /// No systemd user manager (why), and `crontab -l`'s lines that run `dbmultiverse sync`.
        case noManager(String, cronLines: [String])
    }

    package let reading: Reading

    package init(_ reading: Reading) { self.reading = reading }

    /// The timer's properties; without a user manager, the crontab's lines that run the sync instead.
    package static func read(_ surroundings: Surroundings, units: SystemdUnits) -> Reading {
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

    package func result(_ surroundings: Surroundings) -> CheckResult {
        let unit = SystemdUnits.timerUnit
        switch reading {
        case .noManager(let reason, let cronLines):
            if !cronLines.isEmpty {
                return CheckResult(Self.name, .ok, "no systemd user manager (\(reason)); your crontab runs dbmultiverse sync (\(cronLines.count) line\(cronLines.count == 1 ? "" : "s"))")
            }
            return CheckResult(Self.name, .missing, "no systemd user manager (\(reason)), and no crontab line runs dbmultiverse sync",
                               fix: "crontab -e, and add: \(Self.cronLines)")
        case .timer(let properties):
            if let unusable = SystemdUnits.unusable(unit, properties, check: Self.name, prefix: "") { return unusable }
            let last = SystemdUnits.describeTimestamp(properties["LastTriggerUSec"], surroundings) ?? "never"
            let next = SystemdUnits.describeTimestamp(properties["NextElapseUSecRealtime"], surroundings) ?? "none planned"
            let runs = "last run \(last), next \(next)"
            guard SystemdUnits.isEnabled(properties["UnitFileState"]) else {
                return CheckResult(Self.name, .missing, "\(unit) is \(SystemdUnits.fileState(properties)); \(runs)",
                                   fix: "systemctl --user enable --now \(unit)")
            }
            guard properties["ActiveState"] == "active" else {
                return CheckResult(Self.name, .missing, "enabled but not started (\(properties["ActiveState"] ?? "inactive")); \(runs)",
                                   fix: "systemctl --user start \(unit)")
            }
            return CheckResult(Self.name, .ok, "enabled, \(runs)")
        }
    }
}
