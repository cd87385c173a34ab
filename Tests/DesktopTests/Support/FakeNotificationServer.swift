import DBus
import DBusTestSupport
import Desktop
import Foundation
import Testing

/// An in-process `org.freedesktop.Notifications` (a peer that is not ours, so a test double is
/// allowed): exported with the binding on its own event-loop thread, on a private bus.
///
/// It records every `Notify` call with all its arguments (also delivered through `notifyCalls`),
/// returns increasing ids (the same id for a replacement, as the specification says), can fail
/// the next `Notify`, can emit its three signals, and can be stopped and started again to play
/// a server that is absent, appears, or restarts (ids start again at 1 after each start).
///
/// `@unchecked Sendable`: the mutable state is guarded by `lock`; the bus objects live in a
/// `LoopThread` and are touched only on its thread.
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
    private var running: LoopThread?

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
        let host = try LoopThread(address: address) { [self] server in
            try server.export(interface, at: NotificationsBus.objectPath)
        }
        guard try host.connection.requestNameBlocking(NotificationsBus.busName) == .primaryOwner else {
            host.stop()
            throw FixtureError("could not own \(NotificationsBus.busName)")
        }
        locked {
            nextID = 1
            running = host
        }
        host.run()
    }

    /// Leaves the bus (the name goes with the connection).
    func stop() {
        let host = locked { () -> LoopThread? in
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

extension FakeNotificationServer {
    /// A connection and object server driven by an event loop on a thread of its own, as a
    /// separate process would be (the pattern of `SampleHost`).
    ///
    /// `@unchecked Sendable`: the connection and server are created on the caller's thread before
    /// the loop thread starts and touched only by that thread afterwards (through `execute`).
    final class LoopThread: @unchecked Sendable {
        let loop: EventLoop
        let connection: Connection
        let server: ObjectServer
        let uniqueName: String
        private let finished = DispatchSemaphore(value: 0)
        private var started = false
        private var stopped = false

        /// Connects and lets `setUp` export objects; call `run()` to start the thread.
        init(address: String, setUp: (ObjectServer) throws -> Void) throws {
            loop = try EventLoop()
            connection = try Connection(.address(address), loop: loop)
            server = try ObjectServer(connection: connection)
            uniqueName = connection.uniqueName
            try setUp(server)
        }

        func run() {
            started = true
            Thread.detachNewThread { [self] in
                loop.run()
                finished.signal()
            }
        }

        /// Runs `body` on the loop thread.
        func onLoop(_ body: @escaping @Sendable (Connection) -> Void) {
            loop.execute { [self] in body(connection) }
        }

        /// Sends `message`, then waits for a round trip to the bus daemon: once it returns, the
        /// daemon has routed the message, so whatever any other connection sends afterwards
        /// reaches each receiver after it.
        func sendAndSync(_ message: Message) async throws {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                loop.execute { [self] in
                    connection.send(message)
                    let ping = Message.methodCall(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                                  interface: "org.freedesktop.DBus", member: "GetId")
                    connection.call(ping, timeout: .seconds(10)) { result in
                        continuation.resume(with: result.map { _ in () }.mapError { $0 as any Error })
                    }
                }
            }
        }

        /// Closes the connection (releasing its names) and ends the thread.
        func stop() {
            guard !stopped else { return }
            stopped = true
            guard started else {
                server.unregister()
                connection.close()
                return
            }
            loop.execute { [self] in
                server.unregister()
                connection.close()
                loop.stop()
            }
            if let stuck = join(finished, "a peer's loop thread") { Issue.record(stuck) }
        }
    }
}
