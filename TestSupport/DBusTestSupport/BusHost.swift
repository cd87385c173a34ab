package import DBus
package import EventLoop
import Foundation
import Synchronization

/// A bus connection and its object server, served from an event loop on a thread of its own, as
/// another process would be: the one host for every in-process peer of the tests (the sample
/// object, the widget service, the notifier, a fake notification server).
///
/// Set up on the calling thread (export objects, own names, subscribe: blocking calls are fine
/// there), then `start()` the loop thread; from then on `connection`, `server` and whatever was
/// set up are touched only on the loop thread, through `onLoop` or `perform`. `stop()` (also run
/// by `deinit`) closes the connection and ends the thread.
///
/// `@unchecked Sendable`: `connection` and `server` are confined as just said; the state and the
/// names owned are guarded by `Mutex`es.
package final class BusHost: @unchecked Sendable {
    package let loop: EventLoop
    package let connection: Connection
    package let server: ObjectServer
    /// The connection's unique name (read at set-up, so readable from any thread).
    package let uniqueName: String
    private let state = Mutex(State.setUp)
    private let ownedNames = Mutex<[BusName]>([])

    private enum State {
        case setUp
        case running(LoopThread)
        case stopped
    }

    /// Connects to `address` with an object server; nothing runs until `start()`.
    package init(address: String) throws {
        loop = try EventLoop()
        connection = try Connection(.address(address), loop: loop)
        server = try ObjectServer(connection: connection)
        uniqueName = connection.uniqueName
    }

    deinit {
        if let stuck = stop() { FileHandle.standardError.write(Data("BusHost: \(stuck)\n".utf8)) }
    }

    /// Owns `name` (at set-up). `stop` releases it before closing the connection, so that once
    /// `stop` returns the name is free: a bus daemon handles a closed connection in its own time,
    /// and a new owner asking at once could find the name still taken.
    /// - Throws: `FixtureError` when another connection owns it.
    package func own(_ name: BusName) throws {
        let ownership = try connection.requestNameBlocking(name)
        guard ownership == .primaryOwner else { throw FixtureError("could not own \(name): \(ownership)") }
        ownedNames.withLock { $0.append(name) }
    }

    /// Starts the loop thread.
    package func start() throws {
        let started = try LoopThread(running: loop)
        state.withLock { $0 = .running(started) }
    }

    /// Runs `body` on the loop thread.
    package func onLoop(_ body: @escaping @Sendable () -> Void) { loop.execute(body) }

    /// Runs `body` on the loop thread and returns what it returns.
    /// - Throws: what `body` throws, or `FixtureError` when the loop has not run it within
    ///   `seconds` (a loop stuck in the code under test).
    package func perform<T: Sendable>(within seconds: Double = 30, _ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withTimeout(seconds, "the loop thread of \(uniqueName)") { [loop] in
            try await withCheckedThrowingContinuation { continuation in
                loop.execute { continuation.resume(with: Result(catching: body)) }
            }
        }
    }

    /// Sends `message`, then waits for a round trip to the bus daemon: once it returns, the
    /// daemon has routed the message, so whatever any connection sends afterwards reaches each
    /// receiver after it.
    package func sendAndSync(_ message: Message) async throws {
        let connection = LoopBound(self.connection)
        try await withTimeout(15, "a round trip to the bus after sending \(message.member ?? "a message")") { [loop] in
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                loop.execute {
                    connection.value.send(message)
                    let ping = Message.methodCall(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                                  interface: "org.freedesktop.DBus", member: "GetId")
                    connection.value.call(ping, timeout: .seconds(10)) { result in
                        continuation.resume(with: result.map { _ in () }.mapError { $0 as any Error })
                    }
                }
            }
        }
    }

    /// Runs `teardown` on the loop thread, then unregisters the objects, releases the names `own`
    /// took, closes the connection and ends the thread. Later calls do nothing.
    ///
    /// Waits at most `seconds` for the thread to end: a loop stuck in the code under test is
    /// returned as an error (for the caller to record against its test) and left behind, rather
    /// than hanging the run. `deinit` writes it on stderr.
    @discardableResult
    package func stop(within seconds: Double = 30, _ teardown: @escaping @Sendable () -> Void = {}) -> FixtureError? {
        let objects = LoopBound((connection, server))
        let names = ownedNames.withLock { $0 }
        let close: @Sendable () -> Void = {
            teardown()
            objects.value.1.unregister()
            for name in names where objects.value.0.isConnected { objects.value.0.releaseNameBlocking(name) }
            objects.value.0.close()
        }
        let previous = state.withLock { state in
            defer { state = .stopped }
            return state
        }
        switch previous {
        case .running(let thread):
            // LoopThread.stop joins without a bound: it waits on a thread of its own.
            let finished = DispatchSemaphore(value: 0)
            Thread.detachNewThread {
                thread.stop(close)
                finished.signal()
            }
            return join(finished, "the loop thread of \(uniqueName)", within: seconds)
        case .setUp:
            close() // never started: the calling thread is the only one
            return nil
        case .stopped:
            return nil
        }
    }
}
