package import DBus
import EventLoop
import Foundation

/// Serves `SampleObject` from its own event-loop thread, as a separate service process would.
///
/// `@unchecked Sendable`: the sample object is made before the loop thread starts and touched
/// only by that thread afterwards (it lives in the host's `BusHost`).
package final class SampleHost: @unchecked Sendable {
    package let host: BusHost
    private let sample: SampleObject

    package var uniqueName: String { host.uniqueName }

    /// Connects to `address`, exports the sample object, owns `SampleObject.busName`, and runs.
    package init(address: String, requestName: Bool = true) throws {
        host = try BusHost(address: address)
        sample = try SampleObject(server: host.server)
        if requestName { try host.own(SampleObject.busName) }
        try host.start()
    }

    /// Stops the loop before the object it calls goes.
    deinit { stop() }

    /// Runs `body` on the loop thread with the host's connection.
    package func onLoop(_ body: @escaping @Sendable (Connection) -> Void) {
        let connection = LoopBound(host.connection)
        host.onLoop { body(connection.value) }
    }

    /// Runs `body` on the loop thread with the sample object, and returns when it has run.
    /// - Throws: `FixtureError` when the loop does not run it in time.
    package func withSample(_ body: @escaping @Sendable (SampleObject) -> Void) async throws {
        let sample = LoopBound(sample)
        try await host.perform { body(sample.value) }
    }

    /// Closes the connection and ends the loop thread; a thread that does not end is said on
    /// stderr (there is no test to record it against here) and left behind.
    package func stop() {
        if let stuck = host.stop() { FileHandle.standardError.write(Data("SampleHost: \(stuck)\n".utf8)) }
    }
}

extension SampleHost {
    /// A private bus with the sample object served on it: the binding's tests' usual fixture.
    package static func onPrivateBus() throws -> (PrivateBus, SampleHost) {
        let bus = try PrivateBus()
        return (bus, try SampleHost(address: bus.address))
    }
}

extension PrivateBus {
    /// A new async client of this bus.
    package func client() async throws -> BusClient { try await BusClient.connect(.address(address)) }
}
