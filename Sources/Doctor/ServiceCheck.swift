package import ComicDomain
package import DBus
internal import Glibc
internal import Widget

/// `com.nobadi.DBMultiverse` answers on the session bus, called with auto-start as a desktop calls
/// it: already running, or started by D-Bus activation now.
package struct ServiceCheck: Sendable {
    package static let name = "service"
    /// How long activation and the first answer may take (a service already running is a peer
    /// like any other: `DoctorBus.peerTimeout`).
    package static let timeout = Duration.seconds(10)

    /// The wait for the service's answer: a running one answers at once, a started one may take long.
    static func timeout(wasRunning: Bool) -> Duration { wasRunning ? DoctorBus.peerTimeout : timeout }

    package enum Reading: Sendable {
        /// No session bus to ask (why).
        case noBus(String)
        /// `GetCurrentEntry` answered; the process's executable and its `--version` when readable.
        case answered(wasRunning: Bool, entry: ChapterEntry, executable: String?, version: String?)
        /// The call failed.
        case failed(wasRunning: Bool, DBusError)
    }

    package let reading: Reading

    package init(_ reading: Reading) { self.reading = reading }

    /// Calls `GetCurrentEntry` (with activation), then reads which binary answered.
    package static func read(_ bus: DoctorBus, _ surroundings: Surroundings) -> Reading {
        let wasRunning = bus.owner(of: WidgetBus.busName.rawValue) != nil
        switch bus.call(WidgetClient().currentEntry(), timeout: timeout(wasRunning: wasRunning)) {
        case .failure(let error):
            return .failed(wasRunning: wasRunning, error)
        case .success(let entry):
            let executable = bus.owner(of: WidgetBus.busName.rawValue)?.pid.flatMap { Files.linkTarget("/proc/\($0)/exe") }
            let version = executable.flatMap { path -> String? in
                guard !path.hasSuffix(" (deleted)"),
                      let output = surroundings.commands.run([path, "--version"], timeout: .seconds(3)), output.succeeded
                else { return nil }
                return output.stdout.split(separator: "\n").first.map(String.init)
            }
            return .answered(wasRunning: wasRunning, entry: entry, executable: executable, version: version)
        }
    }

    package var result: CheckResult {
        switch reading {
        case .noBus(let reason):
            return CheckResult(Self.name, .missing, "no session bus (\(reason))", fix: Self.noBusFix)
        case .answered(let wasRunning, let entry, let executable, let version):
            var detail = "answering (\(wasRunning ? "already running" : "started by D-Bus activation now")): \(entry.rendered(.small))"
            if let executable {
                detail += "; \(executable)"
                if let version { detail += " \(version)" }
                if executable.hasSuffix(" (deleted)") {
                    return CheckResult(Self.name, .ok, detail + ": the binary was replaced since it started",
                                       fix: "systemctl --user restart dbmultiverse.service (or end it: the bus starts the new one)")
                }
                if let version, version != ProjectInfo.version {
                    detail += " (this command is \(ProjectInfo.version))"
                }
            }
            return CheckResult(Self.name, .ok, detail)
        case .failed(_, let error) where error.name == DBusError.Name.serviceUnknown:
            return CheckResult(Self.name, .missing,
                               "not installed for D-Bus activation (ServiceUnknown: no \(WidgetBus.busName).service in the bus's service folders)",
                               fix: Self.installFix)
        case .failed(_, let error) where error.name.hasPrefix("org.freedesktop.DBus.Error.Spawn."):
            return CheckResult(Self.name, .missing, "D-Bus activation failed: \(error.message)",
                               fix: "dbmultiverse service (runs it here, saying why it stops), or journalctl --user -u dbmultiverse.service")
        case .failed(let wasRunning, let error) where error.name == DBusError.Name.noReply || error.name == DBusError.Name.timeout:
            return CheckResult(Self.name, .missing, "no answer within \(Self.timeout(wasRunning: wasRunning).components.seconds) s\(wasRunning ? " (it is running)" : "")",
                               fix: "systemctl --user restart dbmultiverse.service")
        case .failed(_, let error) where error.name == DBusError.Name.noServer || error.name == DBusError.Name.disconnected:
            return CheckResult(Self.name, .missing, "no session bus (\(error.message))", fix: Self.noBusFix)
        case .failed(_, let error):
            return CheckResult(Self.name, .missing, "\(error.message) (\(error.name))", fix: "dbmultiverse service (runs it here, saying what fails)")
        }
    }

    /// Installs what the service and every other piece need.
    package static let installFix = "sudo apt install dbmultiverse (or make install, from the source)"
    static let noBusFix = "log in to a desktop session; over ssh: export DBUS_SESSION_BUS_ADDRESS=unix:path=$XDG_RUNTIME_DIR/bus"
}
