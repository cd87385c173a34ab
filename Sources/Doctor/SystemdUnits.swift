import ComicDomain
import Localization

/// What the systemd user manager says of our units (`systemctl --user show`), or why it says nothing.
enum SystemdUnits: Sendable, Equatable {
    /// Each unit's properties, by unit name.
    case manager([String: [String: String]])
    /// No user manager answered (a container, ssh without a session, another init): the reason.
    case noManager(String)

    static let notifierUnit = "dbmultiverse-notifier.service"
    static let timerUnit = "dbmultiverse-sync.timer"
    static let properties = ["Id", "LoadState", "UnitFileState", "ActiveState", "LastTriggerUSec", "NextElapseUSecRealtime"]

    /// Asks `systemctl --user show` for both units at once. Timestamps as Unix seconds where
    /// systemctl can (`--timestamp=unix`, systemd 251); an older one is asked again without it.
    static func read(_ surroundings: Surroundings) -> SystemdUnits {
        let base = ["systemctl", "--user", "show", "--no-pager"] + properties.flatMap { ["-p", $0] }
        let units = [notifierUnit, timerUnit]
        guard var output = surroundings.commands.run(base + ["--timestamp=unix"] + units, timeout: .seconds(5)) else {
            return .noManager("no systemctl")
        }
        if !output.succeeded, output.stderr.contains("timestamp"),
           let again = surroundings.commands.run(base + units, timeout: .seconds(5)) {
            output = again
        }
        guard output.succeeded else { return .noManager(output.firstErrorLine) }
        return .manager(parse(output.stdout))
    }

    /// `systemctl show`'s blocks (`Key=value` lines, one block per unit, blank lines between),
    /// keyed by each block's `Id`. Lines without `=` are skipped.
    static func parse(_ text: String) -> [String: [String: String]] {
        var units: [String: [String: String]] = [:]
        var block: [String: String] = [:]
        func finish() {
            if let id = block["Id"] { units[id] = block }
            block = [:]
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            guard !line.isEmpty else { finish(); continue }
            guard let equals = line.firstIndex(of: "=") else { continue }
            block[String(line[..<equals])] = String(line[line.index(after: equals)...])
        }
        finish()
        return units
    }

    /// A timestamp property as a person reads it: `@<seconds>` (--timestamp=unix) relative to now
    /// with its UTC time; systemctl's own text as it is; nil for none (empty, `n/a`, `0`).
    static func describeTimestamp(_ value: String?, _ surroundings: Surroundings) -> String? {
        guard let value, !value.isEmpty, value != "n/a", value != "0" else { return nil }
        if value.hasPrefix("@"), let seconds = Int64(value.dropFirst()) {
            guard seconds > 0 else { return nil }
            return "\(surroundings.relative(seconds)) (\(UTCTime(unixSeconds: seconds)))"
        }
        return value
    }

    /// Whether `UnitFileState` says the unit starts by itself (for this user or everyone).
    static func isEnabled(_ state: String?) -> Bool {
        ["enabled", "enabled-runtime", "linked", "linked-runtime", "alias", "generated"].contains(state ?? "")
    }

    /// The line of `check` when `unit` is not installed or is masked (the user's off switch),
    /// saying first "not running" when it is about a running process; nil when it is neither.
    static func unusable(_ unit: String, _ properties: [String: String], check: String, running: Bool) -> CheckResult? {
        if properties["LoadState"] == "not-found" || properties["LoadState"] == nil {
            return CheckResult(check, .missing, running ? gettext("not running: %s is not installed", unit) : gettext("%s is not installed", unit),
                               fix: ServiceCheck.installFix)
        }
        if properties["UnitFileState"] == "masked" || properties["UnitFileState"] == "masked-runtime" {
            return CheckResult(check, .off, running ? gettext("not running: turned off (%s is masked)", unit) : gettext("turned off (%s is masked)", unit),
                               fix: "systemctl --user unmask \(unit) && systemctl --user start \(unit)")
        }
        return nil
    }

    /// `UnitFileState` as said in a line ("not enabled" for none).
    static func fileState(_ properties: [String: String]) -> String {
        guard let state = properties["UnitFileState"], !state.isEmpty else { return gettext("not enabled") }
        return state
    }
}
