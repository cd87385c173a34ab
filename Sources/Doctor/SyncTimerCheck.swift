/// `dbmultiverse-sync.timer` looks for new pages: enabled (for this user or everyone), with its
/// last and next run. Without a systemd user manager, the user's crontab may run `dbmultiverse sync`.
package struct SyncTimerCheck: Sendable {
    package static let name = "sync timer"
    /// The README's cron lines (release evenings and a daily catch-up).
    static let cronLines = "30 19 * * 0,3,5 dbmultiverse sync >/dev/null; 0 12 * * * dbmultiverse sync >/dev/null"

    package struct Reading: Sendable, Equatable {
        package var units: SystemdUnits
        /// `crontab -l`'s lines that run `dbmultiverse sync` (read only without a user manager).
        package var cronLines: [String]

        package init(units: SystemdUnits, cronLines: [String]) {
            self.units = units
            self.cronLines = cronLines
        }
    }

    package let reading: Reading

    package init(_ reading: Reading) { self.reading = reading }

    package static func read(_ surroundings: Surroundings, units: SystemdUnits) -> Reading {
        guard case .noManager = units else { return Reading(units: units, cronLines: []) }
        let crontab = surroundings.commands.run(["crontab", "-l"], timeout: .seconds(3))
        let lines = (crontab?.succeeded == true ? crontab!.stdout : "").split(separator: "\n")
            .map(String.init).filter { !$0.hasPrefix("#") && $0.contains("dbmultiverse sync") }
        return Reading(units: units, cronLines: lines)
    }

    package func result(_ surroundings: Surroundings) -> CheckResult {
        let unit = SystemdUnits.timerUnit
        switch reading.units {
        case .noManager(let reason):
            if !reading.cronLines.isEmpty {
                return CheckResult(Self.name, .ok, "no systemd user manager (\(reason)); your crontab runs dbmultiverse sync (\(reading.cronLines.count) line\(reading.cronLines.count == 1 ? "" : "s"))")
            }
            return CheckResult(Self.name, .missing, "no systemd user manager (\(reason)), and no crontab line runs dbmultiverse sync",
                               fix: "crontab -e, and add: \(Self.cronLines)")
        case .manager(let units):
            let properties = units[unit] ?? [:]
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
