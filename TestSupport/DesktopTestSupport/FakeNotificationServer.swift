package import DBus
import DBusTestSupport
package import Follower
import EventLoop
import Foundation
import Testing

/// An in-process `org.freedesktop.Notifications` (a peer that is not ours, so a test double is
/// allowed): exported with the binding on its own event-loop thread, on a private bus.
///
/// It records every `Notify` call with all its arguments (also delivered through `notifyCalls`),
/// returns increasing ids (the same id for a replacement, as the specification says), can fail
/// the next `Notify`, can emit its three signals, and can be stopped and started again to play
/// a server that is absent, appears, or restarts (ids start again at 1 after each start). It
/// serves the members the notifier uses (`Notify`, `GetCapabilities`, `CloseNotification`, whose
/// ids it records in `closed`) and `GetServerInformation`, which `dbmultiverse doctor` reads.
///
/// `@unchecked Sendable`: the mutable state is guarded by `lock`; the bus side is a `StandInPeer`.
package final class FakeNotificationServer: @unchecked Sendable {
    /// One `Notify` call as received.
    package struct NotifyCall: Sendable {
        package let request: NotificationRequest
        /// The id returned, or nil when the call was failed on purpose.
        package let returnedID: UInt32?
        /// The unique name of the server instance that received it.
        package let server: String
    }

    package let notifyCalls: AsyncStream<NotifyCall>
    private let notifyContinuation: AsyncStream<NotifyCall>.Continuation
    private let lock = NSLock()
    private var capabilitiesValue: [String]
    private var nextID: UInt32 = 1
    private var failure: DBusError?
    private var recorded: [NotifyCall] = []
    private var closedIDs: [UInt32] = []
    private var capabilityReads = 0
    private let peer: StandInPeer<Notifications>

    /// The name its `GetServerInformation` gives.
    package static let serverName = "fake-notification-server"
    /// What `GetServerInformation` answers: name, vendor, version, specification version.
    private let information: (String, String, String, String)

    package init(address: String, capabilities: [String] = ["actions", "body", "body-markup", "persistence"],
         information: (String, String, String, String) = (serverName, "DBMultiverse tests", "1.0", "1.2")) {
        peer = StandInPeer(address: address, object: Notifications.object)
        capabilitiesValue = capabilities
        self.information = information
        (notifyCalls, notifyContinuation) = AsyncStream.makeStream()
    }

    // MARK: Configuration and records

    /// What `GetCapabilities` answers (read at each call).
    package var capabilities: [String] {
        get { locked { capabilitiesValue } }
        set { locked { capabilitiesValue = newValue } }
    }

    /// Makes the next `Notify` reply with `error` (the call is still recorded).
    package func failNextNotify(with error: DBusError) { locked { failure = error } }

    package var calls: [NotifyCall] { locked { recorded } }
    /// The ids `CloseNotification` was called with, in order.
    package var closed: [UInt32] { locked { closedIDs } }
    package var getCapabilitiesCount: Int { locked { capabilityReads } }
    /// The unique name of the running instance.
    package var uniqueName: String? { peer.uniqueName }

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    // MARK: Running

    /// Connects, exports the interface, and owns `org.freedesktop.Notifications`; ids start at 1.
    package func start() throws {
        try peer.start(reset: { locked { nextID = 1 } }) { _ in interface }
    }

    /// Leaves the bus (the name goes with the connection).
    package func stop() { peer.stop() }

    /// Emits `signal` from the running instance; returns once the bus has routed it.
    package func emit(_ signal: NotificationSignal) async throws {
        guard let host = peer.host else { throw FixtureError("the fake notification server is not running") }
        let message = Message.signal(path: Notifications.object.path, interface: Notifications.name, member: signal.member)
        switch signal {
        case .actionInvoked(let id, let key): message.append(id, key)
        case .notificationClosed(let id, let reason): message.append(id, reason.rawValue)
        case .activationToken(let id, let token): message.append(id, token)
        }
        try await host.sendAndSync(message)
    }

    private var interface: Interface<Notifications> {
        Interface(
            methods: [
                Method(Notifications.notify) { [unowned self] appName, replacesID, appIcon, summary, body, actions, hints, expireTimeout in
                    let request = NotificationRequest(
                        appName: appName, replacesID: replacesID, appIcon: appIcon, summary: summary, body: body,
                        actions: actions, hints: hints, expireTimeout: expireTimeout)
                    let server = uniqueName ?? ""
                    let outcome = locked { () -> Result<UInt32, DBusError> in
                        if let failure {
                            self.failure = nil
                            recorded.append(NotifyCall(request: request, returnedID: nil, server: server))
                            return .failure(failure)
                        }
                        let id: UInt32
                        if replacesID != 0 {
                            id = replacesID
                        } else {
                            id = nextID
                            nextID += 1
                        }
                        recorded.append(NotifyCall(request: request, returnedID: id, server: server))
                        return .success(id)
                    }
                    if let call = locked({ recorded.last }) { notifyContinuation.yield(call) }
                    return try outcome.get()
                },
                Method(Notifications.getCapabilities) { [unowned self] in
                    locked {
                        capabilityReads += 1
                        return capabilitiesValue
                    }
                },
                Method(Notifications.closeNotification) { [unowned self] id in
                    locked { closedIDs.append(id) }
                },
                Method(Notifications.getServerInformation) { [information] in information },
            ],
            signals: Notifications.actionInvoked, Notifications.notificationClosed, Notifications.activationToken
        )
    }
}

package extension NotificationSignal {
    var member: MemberName {
        switch self {
        case .actionInvoked: Notifications.actionInvoked.name
        case .notificationClosed: Notifications.notificationClosed.name
        case .activationToken: Notifications.activationToken.name
        }
    }
}
