import ComicDomain
import JSON
import Localization

/// Every check's result, in the order the pieces are checked, and whether the essentials work.
package struct DoctorReport: Sendable, Equatable {
    let checks: [CheckResult]

    /// The checks whose failure means nothing works: the service answers and the data folder is
    /// usable. Everything else is a missing extra (no notifications, no tray, no card…).
    static let essentials: Set<String> = [ServiceCheck.name, DataFolderCheck.name]

    init(checks: [CheckResult]) { self.checks = checks }

    /// True when every essential check is `ok` (and there is one of each).
    package var essentialsWork: Bool {
        Self.essentials.allSatisfy { essential in checks.contains { $0.name == essential && $0.status == .ok } }
    }

    /// One line per check, `✓ name: detail`, its fix on an indented line below, each made one safe
    /// line (`displayLine`). The mark is a shape, never a colour: ✓ working, ✗ to fix, – off or
    /// not available here.
    package var text: String {
        var lines: [String] = []
        for check in checks {
            let mark = switch check.status {
            case .ok: "✓"
            case .missing: "✗"
            case .off, .unavailable: "–"
            }
            // Details quote files and peers (a browser's name, a bus error): one safe line each.
            lines.append("\(mark) \(displayLine(check.name)): \(displayLine(check.detail))")
            if let fix = check.fix {
                lines.append("    " + (check.status == .off
                    // TRANSLATORS: doctor, below a piece the user turned off: the command that turns it on.
                    ? gettext("to turn it on: %s", displayLine(fix))
                    // TRANSLATORS: doctor, below a missing piece: the command that fixes it.
                    : gettext("fix: %s", displayLine(fix))))
            }
        }
        lines.append(essentialsWork
            ? gettext("The essentials work (the service answers, the data folder is usable).")
            : gettext("The essentials do not work: see the service and data folder lines."))
        return lines.joined(separator: "\n")
    }

    /// `{"ok": Bool, "checks": [{"name", "status", "detail", "fix" (null when none)}]}` for scripts.
    package var json: String {
        JSONValue.object([
            ("ok", .bool(essentialsWork)),
            ("checks", .array(checks.map { check in
                .object([
                    ("name", .string(check.name)),
                    ("status", .string(check.status.rawValue)),
                    ("detail", .string(check.detail)),
                    ("fix", check.fix.map(JSONValue.string) ?? .null),
                ])
            })),
        ]).jsonText
    }
}
