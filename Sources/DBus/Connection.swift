internal import CDBus
public import EventLoop
internal import Glibc

/// A private connection to a message bus, driven by an `EventLoop`.
///
/// Confined to the loop's thread: create it, call it, and receive its callbacks there. (For use
/// from async code on other threads, see `BusClient`.) Messages are queued by `send` and written
/// as the socket allows; nothing blocks but the explicit `…Blocking` set-up calls.
public final class Connection {
    let raw: OpaquePointer
    public let loop: EventLoop
    private var closed = false

    /// Called once when the connection to the bus is lost.
    public var onDisconnect: (() -> Void)?

    // Signal subscriptions and the owners of the names they follow (ConnectionSignals.swift).
    var subscriptions: [UInt64: Subscription] = [:]
    var nextSubscriptionID: UInt64 = 1
    var followedNames: [String: FollowedName] = [:]

    /// Which bus to connect to.
    public enum Address: Sendable, Equatable {
        /// `DBUS_SESSION_BUS_ADDRESS`, or libdbus's default for the session bus.
        case session
        /// The bus that started this process by activation (`DBUS_STARTER_ADDRESS`), falling back
        /// to the session bus when the process was not activated.
        case starter
        /// An explicit address such as `unix:path=/tmp/bus`.
        case address(String)
    }

    /// Connects and registers on the bus (the blocking `Hello`), then hands the connection to `loop`.
    public init(_ address: Address, loop: EventLoop) throws(DBusError) {
        dbus_threads_init_default()
        let resolved: String?
        switch address {
        case .session: resolved = nil
        case .starter: resolved = getenv("DBUS_STARTER_ADDRESS").map { String(cString: $0) }
        case .address(let text): resolved = text
        }
        let connection: OpaquePointer
        if let resolved {
            connection = try DBusError.check { dbus_connection_open_private(resolved, $0) }
            do {
                _ = try DBusError.check { dbus_bus_register(connection, $0) != 0 ? true : nil }
            } catch {
                dbus_connection_close(connection)
                dbus_connection_unref(connection)
                throw error
            }
        } else {
            connection = try DBusError.check { dbus_bus_get_private(DBUS_BUS_SESSION, $0) }
        }
        raw = connection
        self.loop = loop
        // The process decides what a lost bus means (the service exits with a message).
        dbus_connection_set_exit_on_disconnect(raw, 0)
        installFilter()
        // Should this throw, deinit closes the connection: every stored property is set.
        try LoopIntegration.install(loop: loop, connection: raw)
    }

    deinit {
        // The filter holds `self` unretained: remove it before anything can dispatch again.
        dbus_connection_remove_filter(raw, connectionFilter, Unmanaged.passUnretained(self).toOpaque())
        close()
        dbus_connection_unref(raw)
    }

    /// Closes the connection (private connections must be closed before their last unref).
    public func close() {
        guard !closed else { return }
        closed = true
        dbus_connection_flush(raw)
        dbus_connection_close(raw)
    }

    public var isConnected: Bool { dbus_connection_get_is_connected(raw) != 0 }

    /// This connection's unique name on the bus (`:1.42`).
    public var uniqueName: String {
        dbus_bus_get_unique_name(raw).map { String(cString: $0) } ?? ""
    }

    // MARK: Names

    public enum NameOwnership: Sendable, Equatable {
        case primaryOwner, inQueue, exists, alreadyOwner
    }

    /// Requests a well-known name (a blocking call: for start-up). By default it fails when another
    /// connection owns the name rather than queueing.
    public func requestNameBlocking(
        _ name: BusName, allowReplacement: Bool = false, replaceExisting: Bool = false, queue: Bool = false
    ) throws(DBusError) -> NameOwnership {
        var flags: UInt32 = 0
        if allowReplacement { flags |= UInt32(DBUS_NAME_FLAG_ALLOW_REPLACEMENT) }
        if replaceExisting { flags |= UInt32(DBUS_NAME_FLAG_REPLACE_EXISTING) }
        if !queue { flags |= UInt32(DBUS_NAME_FLAG_DO_NOT_QUEUE) }
        let result = try DBusError.check { error -> Int32? in
            let r = dbus_bus_request_name(raw, name.rawValue, flags, error)
            return r < 0 ? nil : r
        }
        switch result {
        case DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER: return .primaryOwner
        case DBUS_REQUEST_NAME_REPLY_IN_QUEUE: return .inQueue
        case DBUS_REQUEST_NAME_REPLY_ALREADY_OWNER: return .alreadyOwner
        default: return .exists
        }
    }

    /// Releases a well-known name (blocking: for shutdown).
    public func releaseNameBlocking(_ name: BusName) {
        var error = CDBus.DBusError()
        dbus_error_init(&error)
        _ = dbus_bus_release_name(raw, name.rawValue, &error)
        dbus_error_free(&error)
    }

    // MARK: Sending

    /// Queues `message` for sending; it is written as soon as the socket takes it.
    public func send(_ message: Message) {
        _ = dbus_connection_send(raw, message.raw, nil)
    }

    /// Writes out everything queued (blocking): before exiting.
    public func flush() { dbus_connection_flush(raw) }

    /// A call in flight; cancelling it means its completion is called with `Cancelled` at once.
    public final class PendingCall {
        fileprivate var pending: OpaquePointer?
        fileprivate var completion: ((Result<Message, DBusError>) -> Void)?

        fileprivate init(completion: @escaping (Result<Message, DBusError>) -> Void) { self.completion = completion }

        fileprivate func complete(_ result: Result<Message, DBusError>) {
            guard let completion else { return }
            self.completion = nil
            if let pending {
                self.pending = nil
                dbus_pending_call_unref(pending)
            }
            completion(result)
        }

        public func cancel() {
            if let pending { dbus_pending_call_cancel(pending) }
            complete(.failure(DBusError(name: DBusError.Name.cancelled, message: "the call was cancelled")))
        }
    }

    /// Sends a method call; `completion` runs on the loop thread with the reply, or with the error
    /// reply as a `DBusError` (name and message as sent), or `NoReply` after `timeout`.
    @discardableResult
    public func call(
        _ message: Message, timeout: Duration = .seconds(25),
        completion: @escaping (Result<Message, DBusError>) -> Void
    ) -> PendingCall {
        let call = PendingCall(completion: completion)
        var pending: OpaquePointer?
        guard dbus_connection_send_with_reply(raw, message.raw, &pending, Self.milliseconds(timeout)) != 0, let pending else {
            loop.post { call.complete(.failure(DBusError.disconnected("not connected to the bus"))) }
            return call
        }
        call.pending = pending
        let box = Unmanaged.passRetained(call).toOpaque()
        dbus_pending_call_set_notify(pending, pendingCallNotify, box, releasePendingCall)
        return call
    }

    /// Sends a declared call; `completion` runs on the loop thread with the decoded reply, or the
    /// error (a reply of another signature than declared is `InvalidArgs`).
    @discardableResult
    public func call<Reply>(
        _ call: MethodCall<Reply>, timeout: Duration = .seconds(25), completion: @escaping (Result<Reply, DBusError>) -> Void
    ) -> PendingCall {
        self.call(call.message, timeout: timeout) { result in
            completion(result.flatMap { reply in Result { () throws(DBusError) in try call.decodeReply(reply) } })
        }
    }

    /// Sends a method call and waits for its reply (blocking: for set-up). Messages that arrive
    /// meanwhile stay queued, in order, for the loop.
    func callBlocking(_ message: Message, timeout: Duration = .seconds(25)) throws(DBusError) -> Message {
        let reply = try DBusError.check { error in
            dbus_connection_send_with_reply_and_block(raw, message.raw, Self.milliseconds(timeout), error)
        }
        return Message(owning: reply)
    }

    private static func milliseconds(_ duration: Duration) -> Int32 {
        Int32(clamping: duration.components.seconds * 1000 + duration.components.attoseconds / 1_000_000_000_000_000)
    }

    private func installFilter() {
        // Unretained, so the connection does not keep itself alive; `deinit` removes the filter.
        dbus_connection_add_filter(raw, connectionFilter, Unmanaged.passUnretained(self).toOpaque(), nil)
    }

    fileprivate func filter(_ message: Message) -> Bool {
        if message.kind == .signal, message.interface == "org.freedesktop.DBus.Local", message.member == "Disconnected" {
            let handler = onDisconnect
            onDisconnect = nil
            handler?()
            return true
        }
        guard message.kind == .signal, !subscriptions.isEmpty else { return false }
        deliver(message)
        // Signals are never "handled" exclusively: the object tree and other filters may want them.
        return false
    }
}

private let pendingCallNotify: DBusPendingCallNotifyFunction = { pending, data in
    let call = Unmanaged<Connection.PendingCall>.fromOpaque(data!).takeUnretainedValue()
    guard let replyRaw = dbus_pending_call_steal_reply(pending) else {
        call.complete(.failure(DBusError(name: DBusError.Name.noReply, message: "no reply")))
        return
    }
    let reply = Message(owning: replyRaw)
    if let error = reply.error {
        call.complete(.failure(error))
    } else {
        call.complete(.success(reply))
    }
}

private let releasePendingCall: DBusFreeFunction = { data in
    Unmanaged<Connection.PendingCall>.fromOpaque(data!).release()
}

private let connectionFilter: DBusHandleMessageFunction = { _, messageRaw, data in
    // Only signals concern the filter; a method call goes on to the object tree without a wrapper.
    guard dbus_message_get_type(messageRaw) == DBUS_MESSAGE_TYPE_SIGNAL else { return DBUS_HANDLER_RESULT_NOT_YET_HANDLED }
    let connection = Unmanaged<Connection>.fromOpaque(data!).takeUnretainedValue()
    let handled = connection.filter(Message(retaining: messageRaw!))
    return handled ? DBUS_HANDLER_RESULT_HANDLED : DBUS_HANDLER_RESULT_NOT_YET_HANDLED
}
