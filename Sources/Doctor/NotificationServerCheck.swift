package import DBus
internal import Follower

/// A notification server owns `org.freedesktop.Notifications` (or the bus can start one), and
/// says who it is through `GetServerInformation`.
package struct NotificationServerCheck: Sendable {
    package static let name = "notification server"

    package enum Reading: Sendable, Equatable {
        case noBus(String)
        /// Owned; the server's name and version, or the error its `GetServerInformation` gave.
        case running(owner: DoctorBus.Owner, information: Result<ServerInformation, DBusError>)
        /// Not owned, but the bus would start one at the first notification.
        case activatable
        case absent
    }

    package struct ServerInformation: Sendable, Equatable {
        package let name: String, vendor: String, version: String, specVersion: String

        package init(name: String, vendor: String, version: String, specVersion: String) {
            (self.name, self.vendor, self.version, self.specVersion) = (name, vendor, version, specVersion)
        }
    }

    package let reading: Reading

    package init(_ reading: Reading) { self.reading = reading }

    package static func read(_ bus: DoctorBus) -> Reading {
        let name = Notifications.object.destination.rawValue
        guard let owner = bus.owner(of: name) else { return bus.isActivatable(name) ? .activatable : .absent }
        let information = bus.call(Notifications.getServerInformation.call(on: Notifications.object).withoutActivation())
            .map { ServerInformation(name: $0.0, vendor: $0.1, version: $0.2, specVersion: $0.3) }
        return .running(owner: owner, information: information)
    }

    package var result: CheckResult {
        switch reading {
        case .noBus(let reason):
            return CheckResult(Self.name, .unavailable, "cannot be checked without a session bus (\(reason))")
        case .running(let owner, .success(let server)):
            let process = owner.pid.map { ", pid \($0)" } ?? ""
            return CheckResult(Self.name, .ok, "\(server.name) \(server.version) (\(server.vendor), specification \(server.specVersion)\(process))")
        case .running(let owner, .failure(let error)):
            let what = error.name == DBusError.Name.noReply || error.name == DBusError.Name.timeout
                ? "did not answer GetServerInformation within \(DoctorBus.peerTimeout.components.seconds) s"
                : "answered GetServerInformation with \(error.name)"
            return CheckResult(Self.name, .missing, "the owner of org.freedesktop.Notifications (\(owner)) \(what)",
                               fix: "restart your notification server (or log in again)")
        case .activatable:
            return CheckResult(Self.name, .ok, "not running; the bus starts one at the first notification")
        case .absent:
            return CheckResult(Self.name, .missing, "none on the bus: notifications cannot show",
                               fix: "sudo apt install dunst (or your desktop's own notification server)")
        }
    }
}
