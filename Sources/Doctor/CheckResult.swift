/// What one check found: a line of `dbmultiverse doctor`.
struct CheckResult: Sendable, Equatable {
    /// How a piece of the installation stands.
    enum Status: String, Sendable, Equatable {
        /// In place and working.
        case ok
        /// Absent or broken: `fix` says what to run.
        case missing
        /// Turned off by the user (a documented off switch): `fix` says how to turn it on again.
        case off
        /// Cannot be had or checked here (no session bus, a snap browser): said why.
        case unavailable
    }

    /// The piece checked: `service`, `notifier`, `browser chromium`, …
    let name: String
    let status: Status
    /// What was found, in a few words.
    let detail: String
    /// The exact command (or the one step) that fixes it, when there is one.
    let fix: String?

    init(_ name: String, _ status: Status, _ detail: String, fix: String? = nil) {
        self.name = name
        self.status = status
        self.detail = detail
        self.fix = fix
    }
}
