import DBus
import Follower
import Localization

/// A notification server owns `org.freedesktop.Notifications` (or the bus can start one), and
/// says who it is through `GetServerInformation`.
struct NotificationServerCheck: Sendable {
    static let name = "notification server"

    enum Reading: Sendable, Equatable {
        case noBus(String)
        /// Owned; the server's name and version, or the error its `GetServerInformation` gave.
        case running(owner: DoctorBus.Owner, information: Result<ServerInformation, DBusError>)
        /// Not owned, but the bus would start one at the first notification.
        case activatable
        case absent
    }

    struct ServerInformation: Sendable, Equatable {
        let name: String, vendor: String, version: String, specVersion: String

        init(name: String, vendor: String, version: String, specVersion: String) {
            (self.name, self.vendor, self.version, self.specVersion) = (name, vendor, version, specVersion)
        }
    }

    let reading: Reading

    init(_ reading: Reading) { self.reading = reading }

    static func read(_ bus: DoctorBus) -> Reading {
        let name = Notifications.object.destination.rawValue
        guard let owner = bus.owner(of: name) else { return bus.isActivatable(name) ? .activatable : .absent }
        let information = bus.call(Notifications.getServerInformation.call(on: Notifications.object).withoutActivation())
            .map { ServerInformation(name: $0.0, vendor: $0.1, version: $0.2, specVersion: $0.3) }
        return .running(owner: owner, information: information)
    }

    var result: CheckResult {
        switch reading {
        case .noBus(let reason):
            return CheckResult(Self.name, .unavailable, gettext("cannot be checked without a session bus (%s)", reason))
        case .running(let owner, .success(let server)):
            // TRANSLATORS: doctor: the notification server's name, version, vendor, the specification's version (and its process id).
            return CheckResult(Self.name, .ok, owner.pid.map { gettext("%s %s (%s, specification %s, pid %d)", server.name, server.version, server.vendor, server.specVersion, Int($0)) }
                ?? gettext("%s %s (%s, specification %s)", server.name, server.version, server.vendor, server.specVersion))
        case .running(let owner, .failure(let error)):
            let what = error.name == DBusError.Name.noReply || error.name == DBusError.Name.timeout
                // TRANSLATORS: doctor: the bus name's owner, then a number of seconds.
                ? gettext("the owner of org.freedesktop.Notifications (%s) did not answer GetServerInformation within %d s", owner.description, Int(DoctorBus.peerTimeout.components.seconds))
                // TRANSLATORS: doctor: the bus name's owner, then a D-Bus error name.
                : gettext("the owner of org.freedesktop.Notifications (%s) answered GetServerInformation with %s", owner.description, error.name)
            return CheckResult(Self.name, .missing, what,
                               fix: gettext("restart your notification server (or log in again)"))
        case .activatable:
            return CheckResult(Self.name, .ok, gettext("not running; the bus starts one at the first notification"))
        case .absent:
            return CheckResult(Self.name, .missing, gettext("none on the bus: notifications cannot show"),
                               fix: gettext("sudo apt install dunst (or your desktop's own notification server)"))
        }
    }
}
