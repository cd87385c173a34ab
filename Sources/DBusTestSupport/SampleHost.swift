public import DBus
import Foundation
import Synchronization

/// Serves `SampleObject` from its own event-loop thread, as a separate service process would.
///
/// `@unchecked Sendable`: the connection, server and object are created on the caller's thread
/// before the loop thread starts and touched only by that thread afterwards; `stop()` hands over
/// through `EventLoop.execute`.
public final class SampleHost: @unchecked Sendable {
    public let loop: EventLoop
    public let uniqueName: String
    private let connection: Connection
    private let server: ObjectServer
    private let sample: SampleObject
    private let finished = DispatchSemaphore(value: 0)
    private let stopped = Atomic<Bool>(false)

    /// Connects to `address`, exports the sample object, owns `SampleObject.busName`, and runs.
    public init(address: String, requestName: Bool = true) throws {
        loop = try EventLoop()
        connection = try Connection(.address(address), loop: loop)
        server = try ObjectServer(connection: connection)
        sample = try SampleObject(server: server)
        uniqueName = connection.uniqueName
        if requestName {
            let ownership = try connection.requestNameBlocking(SampleObject.busName)
            guard ownership == .primaryOwner else { throw FixtureError("could not own \(SampleObject.busName): \(ownership)") }
        }
        // The loop, not the host: a thread holding `self` kept every host (thread, loop, connection)
        // alive until the process exited, so nothing ever stopped it (LSan: the loops' weak-reference
        // side tables).
        Thread.detachNewThread { [loop, finished] in
            loop.run()
            finished.signal()
        }
    }

    /// Ends the loop thread unless `stop()` has; the connection closes as the host's objects go.
    deinit {
        // Not `stop()`: its hand-over captures `self`, which must not outlive deinit.
        guard !stopped.exchange(true, ordering: .sequentiallyConsistent) else { return }
        loop.execute { [loop] in loop.stop() }
        reportStuck(join(finished, "the sample host's loop thread"))
    }

    /// Runs `body` on the loop thread with the host's connection.
    public func onLoop(_ body: @escaping @Sendable (Connection) -> Void) {
        loop.execute { [self] in body(connection) }
    }

    /// Runs `body` on the loop thread with the host's object server, and returns when it has run.
    public func withServer(_ body: @escaping @Sendable (ObjectServer) -> Void) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            loop.execute { [self] in
                body(server)
                done.resume()
            }
        }
    }

    /// Closes the connection and ends the loop thread.
    public func stop() {
        guard !stopped.exchange(true, ordering: .sequentiallyConsistent) else { return }
        loop.execute { [self] in
            server.unregister()
            connection.close()
            loop.stop()
        }
        reportStuck(join(finished, "the sample host's loop thread"))
    }

    /// A loop thread that does not end is a bug of the binding; said on stderr, as there is no
    /// test to record it against here, and left behind rather than hanging the run.
    private func reportStuck(_ error: FixtureError?) {
        if let error { FileHandle.standardError.write(Data("SampleHost: \(error)\n".utf8)) }
    }
}
