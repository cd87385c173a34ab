package import ComicDomain
package import DBus
package import DBusTestSupport
package import Widget
import Service
import EventLoop
package import Foundation
import Logging
import Synchronization
import Testing

/// A clock the test moves by hand. The service reads it and arms its single deadline on it;
/// `ServiceHost.advance(by:)` moves it and fires the deadline when it falls due.
///
/// `@unchecked Sendable`: every member is read and written only on the service's loop thread
/// (the service calls it from there, and the host touches it only inside `loop.execute`).
package final class ManualClock: ServiceClock, @unchecked Sendable {
    /// Monotonic nanoseconds; starts far from zero so that nothing depends on it being small.
    private static let origin = MonotonicInstant(nanoseconds: 1_000_000_000_000)
    package private(set) var now = ManualClock.origin
    private let startUnix: Int64
    package private(set) var deadline: MonotonicInstant?
    private var fire: (() -> Void)?

    init(unixSeconds: Int64) { startUnix = unixSeconds }

    package func monotonicNow() -> MonotonicInstant { now }
    /// Whole seconds elapsed since the start, on top of the starting Unix time.
    package func unixSeconds() -> Int64 { startUnix + (now - Self.origin).components.seconds }
    /// Milliseconds elapsed since the start, on top of the starting Unix time.
    package func unixMilliseconds() -> Int64 { startUnix * 1000 + (now.nanoseconds - Self.origin.nanoseconds) / 1_000_000 }

    package func setDeadline(_ deadline: MonotonicInstant?, _ fire: @escaping () -> Void) {
        self.deadline = deadline
        self.fire = deadline == nil ? nil : fire
    }

    /// Moves time forward by `duration`, firing each deadline that falls due on the way at its
    /// own instant (as the loop's timer would), in order. Loop thread only.
    func advance(by duration: Duration) {
        let target = now + duration
        while let deadline, deadline <= target, let fire {
            if deadline > now { now = deadline }
            self.deadline = nil
            self.fire = nil
            fire()
        }
        now = target
    }
}

/// Collects messages received by a subscription, in arrival order, and wakes waiters.
///
/// The handler runs on the client's loop thread before any later reply on that connection is
/// resumed, so once a call made on the same client has returned, every signal emitted before
/// its reply is already here.
package final class SignalCollector: Sendable {
    private struct Waiter {
        let predicate: @Sendable ([Message]) -> Bool
        let continuation: CheckedContinuation<Void, any Error>
    }
    private struct State {
        var messages: [Message] = []
        var waiters: [UUID: Waiter] = [:]
        var cancelled: Set<UUID> = []
    }
    private let state = Mutex(State())

    func append(_ message: Message) {
        let ready = state.withLock { state -> [Waiter] in
            state.messages.append(message)
            let ready = state.waiters.filter { $0.value.predicate(state.messages) }
            for id in ready.keys { state.waiters.removeValue(forKey: id) }
            return Array(ready.values)
        }
        for waiter in ready { waiter.continuation.resume() }
    }

    package var all: [Message] { state.withLock { $0.messages } }

    /// Waits until `predicate` holds for the messages collected, at most `seconds`.
    package func wait(within seconds: Double = 10, _ what: String,
              until predicate: @escaping @Sendable ([Message]) -> Bool) async throws {
        try await withTimeout(seconds, what) { [self] in
            let id = UUID()
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                    let outcome = state.withLock { state -> Bool? in
                        if state.cancelled.remove(id) != nil { return false }
                        if predicate(state.messages) { return true }
                        state.waiters[id] = Waiter(predicate: predicate, continuation: continuation)
                        return nil
                    }
                    switch outcome {
                    case true?: continuation.resume()
                    case false?: continuation.resume(throwing: CancellationError())
                    case nil: break
                    }
                }
            } onCancel: {
                let waiter = state.withLock { state -> Waiter? in
                    if let waiter = state.waiters.removeValue(forKey: id) { return waiter }
                    state.cancelled.insert(id)
                    return nil
                }
                waiter?.continuation.resume(throwing: CancellationError())
            }
        }
    }
}

/// A `TimelinesReloaded` signal, decoded.
package struct ReloadSignal: Sendable {
    package let kind: String
    package let reason: String
    package let entry: [String: Variant]
    package init(_ message: Message) throws {
        (kind, reason, entry) = try message.decode(String.self, String.self, [String: Variant].self)
    }
}

/// An `OpenRequested` signal's arguments: the chapter and the link the service would open.
package struct OpenRequest: Equatable {
    package var chapter: Int32
    package var uri: String

    package init(chapter: Int32, uri: String) {
        self.chapter = chapter
        self.uri = uri
    }
}

/// A real `WidgetService` and `ApplicationService`, in-process on their own event-loop thread,
/// owning `com.nobadi.DBMultiverse` on a private bus, driven by a `ManualClock`; plus a client
/// connection with the widget's signals already subscribed.
///
/// `@unchecked Sendable`: the service and the clock are created on the caller's thread before the
/// loop thread starts and touched only on that thread afterwards (through `host.onLoop`); the
/// rest is immutable.
package final class ServiceHost: @unchecked Sendable {
    static let busName = WidgetBus.busName
    static let path = WidgetBus.objectPath
    static let widget = Widget1.name
    static let properties: InterfaceName = "org.freedesktop.DBus.Properties"
    /// The Unix time the manual clock starts at.
    package static let startUnix: Int64 = 1_750_000_000

    package let bus: PrivateBus
    package let folder: DataFolder
    package let clock: ManualClock
    package let client: BusClient
    /// `TimelinesReloaded`, `OpenRequested` and `PropertiesChanged` from the service, in order.
    package let signals: SignalCollector
    private let host: BusHost
    private let service: LoopBound<RunningService>
    private let ownsFolder: Bool

    /// Starts a private bus and the service on `folder` (a fresh temporary one when nil, holding
    /// `files`: name and content).
    package static func start(folder: String? = nil, storing files: [String: Data] = [:]) async throws -> ServiceHost {
        let bus = try PrivateBus()
        let path = try folder ?? makeTemporaryDirectory()
        for (name, content) in files { try content.write(to: URL(fileURLWithPath: path + "/" + name)) }
        let client = try await BusClient.connect(.address(bus.address))
        let collector = SignalCollector()
        // Subscribe before the service exists: even the reload of its start is seen.
        let rules = [
            MatchRule(path: WidgetBus.objectPath, interface: widget),
            MatchRule(path: WidgetBus.objectPath, interface: properties, member: "PropertiesChanged"),
        ]
        _ = try await client.withConnection { connection in
            for rule in rules {
                try connection.addMatchBlocking(rule)
                _ = connection.subscribe(rule, addMatch: false) { message in
                    if message.kind == .signal { collector.append(message) }
                }
            }
        }
        return try ServiceHost(bus: bus, folder: path, ownsFolder: folder == nil, client: client, signals: collector)
    }

    private init(bus: PrivateBus, folder: String, ownsFolder: Bool, client: BusClient, signals: SignalCollector) throws {
        self.bus = bus
        self.folder = DataFolder(path: folder)
        self.ownsFolder = ownsFolder
        self.client = client
        self.signals = signals
        clock = ManualClock(unixSeconds: Self.startUnix)
        host = try BusHost(address: bus.address)
        var logger = Logger(label: "test.service")
        logger.logLevel = .critical
        service = LoopBound(try RunningService(
            server: host.server, folder: self.folder, clock: clock,
            opener: ChapterOpener(environment: ["DBMULTIVERSE_BROWSER": "none", "HOME": folder], logger: logger),
            logger: logger))
        try host.start()
    }

    /// Stops the loop before the service it calls goes.
    deinit {
        if let stuck = host.stop() { Issue.record(stuck) }
    }

    /// Moves the manual clock on the loop thread (firing a due deadline) and waits until done.
    package func advance(by duration: Duration) async throws {
        try await onLoop { [clock] in clock.advance(by: duration) }
    }

    /// `advance(by:)`, then a round trip: every reload the time brought has been collected.
    package func settle(after duration: Duration) async throws {
        try await advance(by: duration)
        try await sync()
    }

    /// Runs `body` on the loop thread and returns its result (bounded: see `BusHost.perform`).
    package func onLoop<T: Sendable>(_ body: @escaping @Sendable () -> T) async throws -> T {
        try await host.perform(body)
    }

    /// Stops the service's loop, the bus, and removes a folder the host made.
    package func stop() {
        if let stuck = host.stop({ [service] in service.value.stop() }) { Issue.record(stuck) }
        bus.stop()
        if ownsFolder { try? FileManager.default.removeItem(atPath: folder.path) } // teardown of a temporary folder: best effort
    }

    // MARK: Calls

    /// Calls a declared method (of Widget1, org.freedesktop.Application, or a standard interface)
    /// on the service's object; its reply is the declared outputs.
    @discardableResult
    package func call<Owner, each In: DBusArgument, each Out: DBusArgument>(
        _ method: MethodDeclaration<Owner, Arguments<repeat each In>, Arguments<repeat each Out>>, _ args: repeat each In
    ) async throws -> (repeat each Out) {
        try await client.call(method.call(on: WidgetBus.object, repeat each args), timeout: .seconds(10))
    }

    /// `call` for a method with one output (which Swift 6.3 does not infer as a one-element pack).
    @discardableResult
    package func call<Owner, each In: DBusArgument, Out: DBusArgument>(
        _ method: MethodDeclaration<Owner, Arguments<repeat each In>, Arguments<Out>>, _ args: repeat each In
    ) async throws -> Out {
        try await client.call(method.call(on: WidgetBus.object, repeat each args), timeout: .seconds(10))
    }

    /// Calls `member` of `interface` with arguments no declaration has: for the service's answer
    /// to calls with a wrong signature or an unknown method.
    @discardableResult
    package func callUnchecked<each A: DBusArgument>(_ member: MemberName, _ args: repeat each A,
                                             interface: InterfaceName = widget) async throws -> Message {
        try await client.call(destination: WidgetBus.busName, path: WidgetBus.objectPath, interface: interface,
                              member: member, repeat each args, timeout: .seconds(10))
    }

    package func currentEntry() async throws -> [String: Variant] {
        try await call(Widget1.getCurrentEntry)
    }

    package func property<T: DBusArgument>(_ property: PropertyDeclaration<Widget1, T>) async throws -> T {
        try await client.call(property.get(from: WidgetBus.object), timeout: .seconds(10))
    }

    /// A round trip through the service: every signal it emitted before is collected after.
    package func sync() async throws {
        try await call(Peer.ping)
    }

    /// The `TimelinesReloaded` signals collected so far.
    package func reloads() throws -> [ReloadSignal] {
        try signals.all.filter { $0.member == "TimelinesReloaded" }.map(ReloadSignal.init)
    }

    /// The `PropertiesChanged` payloads (changed properties) collected so far.
    package func propertyChanges() throws -> [[String: Variant]] {
        try signals.all.filter { $0.member == "PropertiesChanged" }.map {
            try $0.decode(String.self, [String: Variant].self, [String].self).1
        }
    }

    /// Waits (bounded) until `count` reloads have been collected: for inotify, which is asynchronous.
    @discardableResult
    package func waitForReloads(_ count: Int, within seconds: Double = 10) async throws -> [ReloadSignal] {
        try await signals.wait(within: seconds, "\(count) TimelinesReloaded signal(s)") { messages in
            messages.filter { $0.member == "TimelinesReloaded" }.count >= count
        }
        return try reloads()
    }
}
