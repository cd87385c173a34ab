public import DBus
import Foundation

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
        Thread.detachNewThread { [self] in
            loop.run()
            finished.signal()
        }
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
        loop.execute { [self] in
            server.unregister()
            connection.close()
            loop.stop()
        }
        finished.wait()
    }
}
