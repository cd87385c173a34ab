package import EventLoop

/// A bus connection for async code (command-line tools, tests): it runs its own `EventLoop` on a
/// dedicated thread, and every libdbus call hops onto that thread. Method calls are pending calls
/// whose notify callback resumes the awaiting task — nothing blocks a cooperative thread.
///
/// Long-running services should use `Connection` on their own loop instead: a Swift `Task` keeps
/// libdispatch waking once a second for the life of the process.
package final class BusClient: Sendable {
    package var loop: EventLoop { thread.loop }
    private let thread: LoopThread
    private let connection: LoopBound<Connection>

    private init(thread: LoopThread, connection: LoopBound<Connection>) {
        self.thread = thread
        self.connection = connection
    }

    /// Connects to `address` on a new loop thread.
    package static func connect(_ address: Connection.Address = .session) async throws -> BusClient {
        let thread = try LoopThread(running: EventLoop())
        do {
            let connection = try await thread.perform { LoopBound(try Connection(address, loop: thread.loop)) }
            return BusClient(thread: thread, connection: connection)
        } catch {
            thread.stop()
            throw error
        }
    }

    deinit {
        let connection = self.connection
        thread.stop { connection.value.close() }
    }

    /// Runs `body` on the loop thread with the connection (e.g. to export objects).
    package func withConnection<T: Sendable>(_ body: @escaping @Sendable (Connection) throws -> T) async throws -> T {
        let connection = self.connection
        return try await thread.perform { try body(connection.value) }
    }

    /// This connection's unique name.
    package func uniqueName() async -> String {
        (try? await withConnection { $0.uniqueName }) ?? "" // fails only once closed: no name then
    }

    /// Sends a method call and awaits the reply. Throws the error reply as a `DBusError` (name and
    /// message kept), `NoReply` after `timeout`, or `CancellationError` when the task is cancelled.
    package func call(_ message: Message, timeout: Duration = .seconds(25)) async throws -> Message {
        let connection = self.connection
        let loop = self.loop
        let state = LoopBound(CallState())
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Message, any Error>) in
                loop.execute {
                    guard !state.value.cancelled else {
                        continuation.resume(throwing: CancellationError())
                        return
                    }
                    state.value.pending = connection.value.call(message, timeout: timeout) { result in
                        switch result {
                        case .success(let reply): continuation.resume(returning: reply)
                        case .failure(let error) where error.name == DBusError.Name.cancelled:
                            continuation.resume(throwing: CancellationError())
                        case .failure(let error): continuation.resume(throwing: error)
                        }
                    }
                }
            }
        } onCancel: {
            loop.execute {
                state.value.cancelled = true
                state.value.pending?.cancel()
            }
        }
    }

    /// Calls `member` with `arguments` and awaits the reply.
    package func call<each Argument: DBusArgument>(
        destination: BusName, path: ObjectPath, interface: InterfaceName, member: MemberName,
        _ arguments: repeat each Argument, timeout: Duration = .seconds(25)
    ) async throws -> Message {
        let message = Message.methodCall(destination: destination, path: path, interface: interface, member: member)
        message.append(repeat each arguments)
        return try await call(message, timeout: timeout)
    }

    /// Sends a declared call and awaits its decoded reply.
    package func call<Reply>(_ call: MethodCall<Reply>, timeout: Duration = .seconds(25)) async throws -> Reply {
        try call.decodeReply(try await self.call(call.message, timeout: timeout))
    }

    /// Reads the property `name` of `interface` through `org.freedesktop.DBus.Properties.Get`.
    package func property<Value: DBusArgument>(
        _ type: Value.Type, destination: BusName, path: ObjectPath, interface: InterfaceName, name: String
    ) async throws -> Value {
        let variant = try await call(Properties.get.call(on: RemoteObject(destination: destination, path: path), interface.rawValue, name))
        return try variant.get(Value.self)
    }

    /// Signals matching `rule`, from the moment the bus has confirmed the match. Ending the stream
    /// (or dropping its consumer) removes the match.
    package func signals(_ rule: MatchRule) async throws -> AsyncStream<Message> {
        let (stream, continuation) = AsyncStream<Message>.makeStream()
        let loop = self.loop
        let subscription = try await withConnection { connection in
            // The confirmed AddMatch makes "subscribe, then trigger" free of races.
            try connection.addMatchBlocking(rule)
            return LoopBound(connection.subscribe(rule, addMatch: false) { continuation.yield($0) })
        }
        continuation.onTermination = { _ in loop.execute { subscription.value.cancel() } }
        return stream
    }

    /// Emits a signal (to every subscriber, or only to `destination`).
    package func emit<each Argument: DBusArgument>(
        path: ObjectPath, interface: InterfaceName, member: MemberName, destination: BusName? = nil, _ arguments: repeat each Argument
    ) async throws {
        let message = Message.signal(path: path, interface: interface, member: member, destination: destination)
        message.append(repeat each arguments)
        _ = try await withConnection { $0.send(message) }
    }

    /// Emits a declared signal from `path` (to every subscriber, or only to `destination`).
    package func emit<Owner, each Argument: DBusArgument>(
        _ signal: SignalDeclaration<Owner, Arguments<repeat each Argument>>, from path: ObjectPath, to destination: BusName? = nil,
        _ arguments: repeat each Argument
    ) async throws {
        try await emit(path: path, interface: Owner.name, member: signal.name, destination: destination, repeat each arguments)
    }
}

/// The loop-side state of one async call.
private struct CallState {
    var pending: Connection.PendingCall?
    var cancelled = false
}
