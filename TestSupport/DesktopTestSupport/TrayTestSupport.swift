package import DBus
import DBusTestSupport
package import Follower
import EventLoop
import Foundation
import Logging
import Testing

/// An in-process `org.kde.StatusNotifierWatcher` (the panel's, a peer that is not ours, so a
/// test double is allowed), exported with the binding on its own event-loop thread.
///
/// It records each `RegisterStatusNotifierItem` (also delivered through `registrations`), lists
/// the items as a real watcher does (`<bus name><object path>`), emits
/// `StatusNotifierItemRegistered`, and can be stopped and started again to play a panel that
/// restarts or starts later (its list is empty after each start).
///
/// `@unchecked Sendable`: the mutable state is guarded by `lock`; the bus side is a `StandInPeer`.
package final class FakeStatusNotifierWatcher: @unchecked Sendable {
    /// One registration as received, and the unique name of the watcher instance that took it.
    package struct Registration: Sendable, Equatable {
        package let service: String
        package let watcher: String

        package init(service: String, watcher: String) {
            self.service = service
            self.watcher = watcher
        }
    }

    package let registrations: AsyncStream<Registration>
    private let continuation: AsyncStream<Registration>.Continuation
    private let lock = NSLock()
    private var items: [String] = []
    private let peer: StandInPeer<StatusNotifierWatcher>

    package init(address: String) {
        peer = StandInPeer(address: address, object: StatusNotifierWatcher.object)
        (registrations, continuation) = AsyncStream.makeStream()
    }

    /// The items registered with the running instance, as `RegisteredStatusNotifierItems` lists them.
    package var registeredItems: [String] { lock.withLock { items } }
    package var uniqueName: String? { peer.uniqueName }

    /// Connects, exports the watcher and owns `org.kde.StatusNotifierWatcher`; its list starts empty.
    package func start() throws {
        try peer.start(reset: { lock.withLock { items = [] } }) { uniqueName in interface(uniqueName: uniqueName) }
    }

    /// Leaves the bus (the name goes with the connection).
    package func stop() { peer.stop() }

    private func interface(uniqueName: String) -> Interface<StatusNotifierWatcher> {
        Interface(
            methods: [
                Method(StatusNotifierWatcher.registerStatusNotifierItem) { [unowned self] service in
                    // A bus name's item is at /StatusNotifierItem (the watcher cannot see who
                    // registered a bare path here, which the item under test never sends).
                    let item = service.hasPrefix("/") ? service : service + StatusNotifierItem.objectPath.rawValue
                    lock.withLock { if !items.contains(item) { items.append(item) } }
                    continuation.yield(Registration(service: service, watcher: uniqueName))
                },
                Method(StatusNotifierWatcher.registerStatusNotifierHost) { _ in },
            ],
            properties: [
                Property(StatusNotifierWatcher.registeredStatusNotifierItems) { [unowned self] in lock.withLock { items } },
                Property(StatusNotifierWatcher.isStatusNotifierHostRegistered) { true },
                Property(StatusNotifierWatcher.protocolVersion) { 0 },
            ],
            signals: StatusNotifierWatcher.statusNotifierItemRegistered, StatusNotifierWatcher.statusNotifierItemUnregistered,
            StatusNotifierWatcher.statusNotifierHostRegistered, StatusNotifierWatcher.statusNotifierHostUnregistered
        )
    }
}

/// The real `TrayItem`, on its own event loop thread, as the notifier serves it. What it does
/// arrives on `events`.
///
/// `@unchecked Sendable`: the tray is set up on the caller's thread before the loop thread starts,
/// and touched only by that thread afterwards (it lives in the host's `BusHost`).
package final class TrayHost: @unchecked Sendable {
    let events: AsyncStream<TrayEvent>
    private let host: BusHost
    private let tray: LoopBound<TrayItem>

    /// Connects and starts the tray; its names and match rules are in place when this returns.
    package init(address: String, iconThemePath: String = "") throws {
        host = try BusHost(address: address)
        var logger = Logger(label: "test.tray")
        logger.logLevel = .critical
        let tray = TrayItem(server: host.server, iconThemePath: iconThemePath, logger: logger)
        self.tray = LoopBound(tray)
        events = observe(&tray.observer)
        try tray.start()
        try host.start()
    }

    deinit { stop() }

    /// The connection's unique name.
    var uniqueName: String { host.uniqueName }

    /// The item's bus name, as the process's id makes it.
    package static var busName: BusName {
        // Made from a valid pattern and a process id: always a valid name.
        (try? BusName("org.kde.StatusNotifierItem-\(ProcessInfo.processInfo.processIdentifier)-1")) ?? "org.kde.StatusNotifierItem-0-1"
    }

    /// The item and its menu, as clients reach them.
    package static var item: RemoteObject { RemoteObject(destination: busName, path: StatusNotifierItem.objectPath) }
    package static var menu: RemoteObject { RemoteObject(destination: busName, path: TrayItem.menuPath) }

    /// Waits for the next event satisfying `predicate`, skipping others.
    @discardableResult
    package func wait(for what: String, within seconds: Double = 10, _ predicate: @escaping @Sendable (TrayEvent) -> Bool) async throws -> TrayEvent {
        try await nextEvent(of: events, from: "the tray", what, within: seconds, predicate)
    }

    /// Stops the loop before the tray it calls goes.
    package func stop() {
        if let stuck = host.stop({ [tray] in tray.value.stop() }) { Issue.record(stuck) }
    }
}

package extension TrayEvent {
    var isRegistration: Bool {
        if case .registered = self { return true }
        return false
    }

    var shownModel: TrayModel? {
        if case .updated(let model) = self { return model }
        return nil
    }
}
