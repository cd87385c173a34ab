import DBus
import DBusTestSupport
import Desktop
import Foundation

/// An in-process `org.freedesktop.Notifications` (a peer that is not ours, so a test double is
/// allowed): exported with the binding on its own event-loop thread, on a private bus.
///
/// It records every `Notify` call with all its arguments (also delivered through `notifyCalls`),
/// returns increasing ids (the same id for a replacement, as the specification says), can fail
/// the next `Notify`, can emit its three signals, and can be stopped and started again to play
/// a server that is absent, appears, or restarts (ids start again at 1 after each start).
///
/// `@unchecked Sendable`: the mutable state is guarded by `lock`; the bus objects live in a
/// `BusHost` and are touched only on its thread.
final class FakeNotificationServer: @unchecked Sendable {
    /// One `Notify` call as received.
    struct NotifyCall: Sendable {
        let request: NotificationRequest
        /// The id returned, or nil when the call was failed on purpose.
        let returnedID: UInt32?
        /// The unique name of the server instance that received it.
        let server: String
    }

    static let serverInformation = NotificationServerInformation(
        name: "fake-notifications", vendor: "DBMultiverse tests", version: "1.0", specVersion: "1.2")

    let address: String
    let notifyCalls: AsyncStream<NotifyCall>
    private let notifyContinuation: AsyncStream<NotifyCall>.Continuation
    private let lock = NSLock()
    private var capabilitiesValue: [String]
    private var nextID: UInt32 = 1
    private var failure: DBusError?
    private var recorded: [NotifyCall] = []
    private var capabilityReads = 0
    private var closed: [UInt32] = []
    private var running: BusHost?

    init(address: String, capabilities: [String] = ["actions", "body", "body-markup", "persistence"]) {
        self.address = address
        capabilitiesValue = capabilities
        (notifyCalls, notifyContinuation) = AsyncStream.makeStream()
    }

    deinit { stop() }

    // MARK: Configuration and records

    /// What `GetCapabilities` answers (read at each call).
    var capabilities: [String] {
        get { locked { capabilitiesValue } }
        set { locked { capabilitiesValue = newValue } }
    }

    /// Makes the next `Notify` reply with `error` (the call is still recorded).
    func failNextNotify(with error: DBusError) { locked { failure = error } }

    var calls: [NotifyCall] { locked { recorded } }
    var getCapabilitiesCount: Int { locked { capabilityReads } }
    var closeCalls: [UInt32] { locked { closed } }
    /// The unique name of the running instance.
    var uniqueName: String? { locked { running?.uniqueName } }

    private func locked<T>(_ body: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    // MARK: Running

    /// Connects, exports the interface, and owns `org.freedesktop.Notifications`.
    func start() throws {
        let host = try BusHost(address: address)
        try host.server.export(interface, at: NotificationsBus.objectPath)
        guard try host.connection.requestNameBlocking(NotificationsBus.busName) == .primaryOwner else {
            host.stop()
            throw FixtureError("could not own \(NotificationsBus.busName)")
        }
        locked {
            nextID = 1
            running = host
        }
        try host.start()
    }

    /// Leaves the bus (the name goes with the connection).
    func stop() {
        let host = locked { () -> BusHost? in
            defer { running = nil }
            return running
        }
        host?.stop()
    }

    /// Emits `signal` from the running instance; returns once the bus has routed it.
    func emit(_ signal: NotificationSignal) async throws {
        guard let host = locked({ running }) else { throw FixtureError("the fake notification server is not running") }
        let message = Message.signal(path: NotificationsBus.objectPath, interface: NotificationsBus.interface,
                                     member: signal.member)
        switch signal {
        case .actionInvoked(let id, let key): message.append(id, key)
        case .notificationClosed(let id, let reason): message.append(id, reason.rawValue)
        case .activationToken(let id, let token): message.append(id, token)
        }
        try await host.sendAndSync(message)
    }

    private var interface: Interface {
        Interface(
            NotificationsBus.interface,
            methods: [
                Method("Notify",
                       inputs: (Arg<String>("app_name"), Arg<UInt32>("replaces_id"), Arg<String>("app_icon"),
                                Arg<String>("summary"), Arg<String>("body"), Arg<[String]>("actions"),
                                Arg<[String: Variant]>("hints"), Arg<Int32>("expire_timeout")),
                       outputs: Arg<UInt32>("id")) { [unowned self] (appName: String, replacesID: UInt32, appIcon: String, summary: String, body: String, actions: [String], hints: [String: Variant], expireTimeout: Int32) throws -> UInt32 in
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
                    notifyContinuation.yield(locked { recorded.last! })
                    return try outcome.get()
                },
                Method("GetCapabilities", inputs: (), outputs: Arg<[String]>("capabilities")) { [unowned self] () -> [String] in
                    locked {
                        capabilityReads += 1
                        return capabilitiesValue
                    }
                },
                Method("GetServerInformation", inputs: (),
                       outputs: (Arg<String>("name"), Arg<String>("vendor"), Arg<String>("version"), Arg<String>("spec_version"))) { () -> (String, String, String, String) in
                    let info = Self.serverInformation
                    return (info.name, info.vendor, info.version, info.specVersion)
                },
                Method("CloseNotification", inputs: Arg<UInt32>("id"), outputs: ()) { [unowned self] (id: UInt32) in
                    locked { closed.append(id) }
                },
            ],
            signals: [
                SignalDefinition<UInt32, String>("ActionInvoked", Arg("id"), Arg("action_key")).info,
                SignalDefinition<UInt32, UInt32>("NotificationClosed", Arg("id"), Arg("reason")).info,
                SignalDefinition<UInt32, String>("ActivationToken", Arg("id"), Arg("activation_token")).info,
            ]
        )
    }
}

extension NotificationSignal {
    var member: MemberName {
        switch self {
        case .actionInvoked: "ActionInvoked"
        case .notificationClosed: "NotificationClosed"
        case .activationToken: "ActivationToken"
        }
    }
}
