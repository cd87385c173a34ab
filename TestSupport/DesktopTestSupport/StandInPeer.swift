package import DBus
import DBusTestSupport
import EventLoop
import Foundation
import Testing

/// A peer that is not ours, played in process (the notification server, the panel's watcher):
/// `Declaration` exported with the binding on its own event-loop thread, its well-known name
/// owned, while it runs. It can be stopped and started again, to play a peer that is absent,
/// appears late or restarts.
///
/// `@unchecked Sendable`: `running` is guarded by `lock`; the bus objects live in a `BusHost` and
/// are touched only on its thread.
package final class StandInPeer<Declaration: DBusInterface>: @unchecked Sendable {
    let address: String
    let object: RemoteObject
    private let lock = NSLock()
    private var running: (host: BusHost, exported: LoopBound<ExportedInterface<Declaration>>)?

    init(address: String, object: RemoteObject) {
        self.address = address
        self.object = object
    }

    deinit { stop() }

    /// The running instance's connection, nil while stopped.
    var host: BusHost? { lock.withLock { running?.host } }
    /// The unique name of the running instance.
    var uniqueName: String? { host?.uniqueName }

    /// Connects, exports the interface `serve` makes for the new connection's unique name, owns the
    /// name, runs `reset` (the peer's state at a start), then serves.
    func start(reset: () -> Void, _ serve: (_ uniqueName: String) -> Interface<Declaration>) throws {
        let host = try BusHost(address: address)
        let exported = LoopBound(try host.server.export(serve(host.uniqueName), at: object.path))
        try host.own(object.destination)
        reset()
        lock.withLock { running = (host, exported) }
        try host.start()
    }

    /// Leaves the bus (the name goes with the connection).
    func stop() {
        let host = lock.withLock { () -> BusHost? in
            defer { running = nil }
            return running?.host
        }
        if let stuck = host?.stop() { Issue.record(stuck) }
    }
}
