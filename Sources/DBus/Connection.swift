import CDBus
package import EventLoop
import Glibc

/// A private connection to a message bus, driven by an `EventLoop`.
///
/// Confined to the loop's thread: create it, call it, and receive its callbacks there. (For use
/// from async code on other threads, see `BusClient`.) Messages are queued by `send` and written
/// as the socket allows; nothing blocks but the explicit `…Blocking` set-up calls.
package final class Connection {
    let raw: OpaquePointer
    package let loop: EventLoop
    private var closed = false

    /// Called once when the connection to the bus is lost.
    package var onDisconnect: (() -> Void)?

    // Signal subscriptions and the owners of the names they follow (ConnectionSignals.swift).
    var subscriptions: [UInt64: Subscription] = [:]
    var nextSubscriptionID: UInt64 = 1
    var followedNames: [String: FollowedName] = [:]

    /// Which bus to connect to.
    package enum Address: Sendable, Equatable {
        /// `DBUS_SESSION_BUS_ADDRESS`, or libdbus's default for the session bus.
        case session
        /// The bus that started this process by activation (`DBUS_STARTER_ADDRESS`), falling back
        /// to the session bus when the process was not activated.
        case starter
        /// An explicit address such as `unix:path=/tmp/bus`.
        case address(String)
    }

    /// How long connecting may take: the socket, authentication and `Hello`. A bus that accepts
    /// and never answers (frozen, or a stray socket) fails after this instead of hanging.
    package static let connectTimeout = Duration.seconds(5)
    /// How long `close` and `flush` wait for queued messages to be written.
    static let flushTimeout = Duration.seconds(2)
    /// How long a set-up call to the bus itself (RequestName, AddMatch, GetNameOwner) may take:
    /// the bus answers these at once unless it is frozen, and a process must not hang at start-up
    /// behind libdbus's 25-second default.
    static let busCallTimeout = Duration.seconds(5)

    /// The bus's address as connected to, or how it was found ("the session bus") when libdbus
    /// chose it: for messages that name the bus.
    package let address: String

    /// Connects and registers on the bus (`Hello`), within `timeout`, then hands the connection to
    /// `loop`.
    /// - Throws: the connection's error, or `Timeout` naming the bus when it does not answer in time.
    package init(_ address: Address, loop: EventLoop, timeout: Duration = Connection.connectTimeout) throws(DBusError) {
        dbus_threads_init_default()
        let environment = { (name: String) in getenv(name).map { String(cString: $0) } }
        let resolved: String?
        switch address {
        case .session: resolved = environment("DBUS_SESSION_BUS_ADDRESS") ?? Self.runtimeBus(environment)
        case .starter: resolved = environment("DBUS_STARTER_ADDRESS") ?? environment("DBUS_SESSION_BUS_ADDRESS") ?? Self.runtimeBus(environment)
        case .address(let text): resolved = text
        }
        let connection: OpaquePointer
        if let resolved {
            connection = try DBusError.check { dbus_connection_open_private(resolved, $0) }
            do {
                try Self.register(connection, address: resolved, timeout: timeout)
            } catch {
                dbus_connection_close(connection)
                dbus_connection_unref(connection)
                throw error
            }
        } else {
            // No address anywhere: libdbus's own search (autolaunch), which cannot be bounded.
            connection = try DBusError.check { dbus_bus_get_private(DBUS_BUS_SESSION, $0) }
        }
        self.address = resolved ?? "the session bus"
        raw = connection
        self.loop = loop
        // The process decides what a lost bus means (the service exits with a message).
        dbus_connection_set_exit_on_disconnect(raw, 0)
        installFilter()
        // Should this throw, deinit closes the connection: every stored property is set.
        try LoopIntegration.install(loop: loop, connection: raw)
    }

    /// `$XDG_RUNTIME_DIR/bus` when that socket exists: where libdbus looks without an address.
    private static func runtimeBus(_ environment: (String) -> String?) -> String? {
        guard let directory = environment("XDG_RUNTIME_DIR"), !directory.isEmpty else { return nil }
        var status = stat()
        guard stat(directory + "/bus", &status) == 0, status.st_mode & S_IFMT == S_IFSOCK else { return nil }
        return "unix:path=\(directory)/bus"
    }

    /// Authenticates and sends `Hello` with a deadline. libdbus's own `dbus_bus_register` blocks
    /// in a flush without any timeout until authentication completes, so a silent peer would hang
    /// it forever: here the socket is driven one bounded step at a time instead.
    private static func register(_ connection: OpaquePointer, address: String, timeout: Duration) throws(DBusError) {
        let hello = Message.methodCall(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                       interface: "org.freedesktop.DBus", member: "Hello")
        var sent: OpaquePointer?
        guard dbus_connection_send_with_reply(connection, hello.raw, &sent, milliseconds(timeout)) != 0, let pending = sent else {
            throw DBusError.disconnected("the bus at \(address) closed the connection")
        }
        defer { dbus_pending_call_unref(pending) }
        let deadline = ContinuousClock.now + timeout
        while dbus_pending_call_get_completed(pending) == 0 {
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero else { break }
            // One read or write, waiting at most `remaining`; the dispatch completes the call.
            guard dbus_connection_read_write_dispatch(connection, max(milliseconds(remaining), 1)) != 0 else { break }
        }
        guard dbus_pending_call_get_completed(pending) != 0, let replyRaw = dbus_pending_call_steal_reply(pending) else {
            dbus_pending_call_cancel(pending)
            if dbus_connection_get_is_connected(connection) == 0 {
                throw DBusError.disconnected("the bus at \(address) closed the connection before it was set up")
            }
            throw DBusError(name: DBusError.Name.timeout,
                            message: "the bus at \(address) did not answer within \(timeout.components.seconds) s (it accepts connections but is frozen or not a bus)")
        }
        let reply = Message(owning: replyRaw)
        if let error = reply.error { throw error }
        // A reply without one string is no Hello reply, whatever the decoder's detail: said as that.
        guard let name = try? reply.decode(String.self), dbus_bus_set_unique_name(connection, name) != 0 else {
            throw DBusError.failed("the bus at \(address) answered Hello without a unique name")
        }
    }

    deinit {
        // The filter holds `self` unretained: remove it before anything can dispatch again.
        dbus_connection_remove_filter(raw, connectionFilter, Unmanaged.passUnretained(self).toOpaque())
        close()
        dbus_connection_unref(raw)
    }

    /// Closes the connection (private connections must be closed before their last unref).
    package func close() {
        guard !closed else { return }
        closed = true
        flush()
        dbus_connection_close(raw)
    }

    package var isConnected: Bool { dbus_connection_get_is_connected(raw) != 0 }

    /// This connection's unique name on the bus (`:1.42`).
    package var uniqueName: String {
        dbus_bus_get_unique_name(raw).map { String(cString: $0) } ?? ""
    }

    // MARK: Names

    package enum NameOwnership: Sendable, Equatable {
        case primaryOwner, inQueue, exists, alreadyOwner
    }

    /// Requests a well-known name (a blocking call, at most `timeout`: for start-up). By default it
    /// fails when another connection owns the name rather than queueing.
    package func requestNameBlocking(
        _ name: BusName, allowReplacement: Bool = false, replaceExisting: Bool = false, queue: Bool = false,
        timeout: Duration = busCallTimeout
    ) throws(DBusError) -> NameOwnership {
        var flags: UInt32 = 0
        if allowReplacement { flags |= UInt32(DBUS_NAME_FLAG_ALLOW_REPLACEMENT) }
        if replaceExisting { flags |= UInt32(DBUS_NAME_FLAG_REPLACE_EXISTING) }
        if !queue { flags |= UInt32(DBUS_NAME_FLAG_DO_NOT_QUEUE) }
        let request = BusDriver.requestName.call(on: BusDriver.object, name.rawValue, flags)
        switch try request.decodeReply(callBlocking(request.message, timeout: timeout)) {
        case UInt32(DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER): return .primaryOwner
        case UInt32(DBUS_REQUEST_NAME_REPLY_IN_QUEUE): return .inQueue
        case UInt32(DBUS_REQUEST_NAME_REPLY_ALREADY_OWNER): return .alreadyOwner
        default: return .exists
        }
    }

    /// Releases a well-known name (blocking, at most `busCallTimeout`: for shutdown).
    package func releaseNameBlocking(_ name: BusName) {
        // Shutting down: a bus that cannot take the release drops the name with the connection anyway.
        _ = try? callBlocking(BusDriver.releaseName.call(on: BusDriver.object, name.rawValue).message)
    }

    // MARK: Sending

    /// Queues `message` for sending; it is written as soon as the socket takes it.
    package func send(_ message: Message) {
        _ = dbus_connection_send(raw, message.raw, nil)
    }

    /// Writes out everything queued (blocking, at most `flushTimeout`: a bus that stopped reading
    /// must not hold up an exit): before exiting.
    package func flush() {
        let deadline = ContinuousClock.now + Self.flushTimeout
        while dbus_connection_get_is_connected(raw) != 0, dbus_connection_has_messages_to_send(raw) != 0 {
            let remaining = deadline - ContinuousClock.now
            guard remaining > .zero, dbus_connection_read_write(raw, max(Self.milliseconds(remaining), 1)) != 0 else { return }
        }
    }

    /// A call in flight; cancelling it means its completion is called with `Cancelled` at once.
    package final class PendingCall {
        fileprivate var pending: OpaquePointer?
        fileprivate var completion: ((Result<Message, DBusError>) -> Void)?
        /// What a `NoReply` says: that the peer did not answer in time (libdbus's own timeout), or
        /// that it left the bus before answering (the bus's reply: it exited or crashed).
        fileprivate var unanswered: DBusError?
        fileprivate var gone: DBusError?

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

        package func cancel() {
            if let pending { dbus_pending_call_cancel(pending) }
            complete(.failure(DBusError(name: DBusError.Name.cancelled, message: "the call was cancelled")))
        }
    }

    /// Sends a method call; `completion` runs on the loop thread with the reply, or with the error
    /// reply as a `DBusError` (name and message as sent), or `NoReply` after `timeout` or when the
    /// peer leaves the bus before answering, its message saying which and naming the peer, the
    /// member and the bus.
    @discardableResult
    package func call(
        _ message: Message, timeout: Duration = .seconds(25),
        completion: @escaping (Result<Message, DBusError>) -> Void
    ) -> PendingCall {
        let call = PendingCall(completion: completion)
        call.unanswered = noAnswer(to: message, within: timeout)
        call.gone = DBusError(name: DBusError.Name.noReply, message: "\(message.destination ?? "the peer") went away without answering "
            + "\(message.member ?? "the call") (it exited or crashed) on the bus at \(address)")
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
    package func call<Reply>(
        _ call: MethodCall<Reply>, timeout: Duration = .seconds(25), completion: @escaping (Result<Reply, DBusError>) -> Void
    ) -> PendingCall {
        self.call(call.message, timeout: timeout) { result in
            completion(result.flatMap { reply in Result { () throws(DBusError) in try call.decodeReply(reply) } })
        }
    }

    /// Sends a method call and waits for its reply (blocking: for set-up, to the bus itself).
    /// Messages that arrive meanwhile stay queued, in order, for the loop.
    func callBlocking(_ message: Message, timeout: Duration = busCallTimeout) throws(DBusError) -> Message {
        do {
            let reply = try DBusError.check { error in
                dbus_connection_send_with_reply_and_block(raw, message.raw, Self.milliseconds(timeout), error)
            }
            return Message(owning: reply)
        } catch where error.name == DBusError.Name.noReply {
            throw noAnswer(to: message, within: timeout)
        }
    }

    /// `NoReply` naming the peer, the member and the bus (libdbus's own says none of them).
    private func noAnswer(to message: Message, within timeout: Duration) -> DBusError {
        DBusError(name: DBusError.Name.noReply, message: "\(message.destination ?? "the peer") did not answer "
            + "\(message.member ?? "the call") within \(timeout.components.seconds) s on the bus at \(address)")
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
        call.complete(.failure(call.unanswered ?? DBusError(name: DBusError.Name.noReply, message: "no reply")))
        return
    }
    let reply = Message(owning: replyRaw)
    if let error = reply.error {
        // libdbus's own timeout is a NoReply with no sender; the bus sends one when the peer
        // disconnects before it answers.
        guard error.name == DBusError.Name.noReply else { return call.complete(.failure(error)) }
        call.complete(.failure((reply.sender == BusDriver.object.destination.rawValue ? call.gone : call.unanswered) ?? error))
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
