import ComicDomain
import DBus
import DBusTestSupport
import Desktop
import Foundation
import Synchronization
import Testing

/// The real `Notifier`, on its own event loop thread, on a private bus: as `dbmultiverse
/// notifier` runs it, but in-process. What it does arrives on `events`.
///
/// `@unchecked Sendable`: the loop, connection and notifier are set up on the caller's thread
/// before the loop thread starts, and touched only by that thread afterwards.
final class NotifierHost: @unchecked Sendable {
    let events: AsyncStream<NotifierEvent>
    private let loop: EventLoop
    private let connection: Connection
    private let notifier: Notifier
    private let finished = DispatchSemaphore(value: 0)
    private let stopped = Atomic<Bool>(false)

    /// Connects and starts the notifier; its match rules are in place when this returns.
    init(address: String) throws {
        loop = try EventLoop()
        connection = try Connection(.address(address), loop: loop)
        notifier = Notifier(connection: connection)
        let (events, continuation) = AsyncStream<NotifierEvent>.makeStream()
        self.events = events
        notifier.observer = { continuation.yield($0) }
        try notifier.start()
        // The loop, not the host: a thread holding `self` kept every host alive until the process
        // exited, so `deinit` never stopped it (LSan: the loops' weak-reference side tables).
        Thread.detachNewThread { [loop, finished] in
            loop.run()
            finished.signal()
        }
    }

    deinit {
        // Not `stop()`: its hand-over captures `self`, which must not outlive deinit.
        guard !stopped.exchange(true, ordering: .sequentiallyConsistent) else { return }
        loop.execute { [loop] in loop.stop() }
        if let stuck = join(finished, "the notifier host's loop thread") { Issue.record(stuck) }
    }

    /// Waits for the next event satisfying `predicate`, skipping others.
    func wait(for what: String, within seconds: Double = 10,
              _ predicate: @escaping @Sendable (NotifierEvent) -> Bool) async throws -> NotifierEvent {
        let events = events
        return try await withTimeout(seconds, what) {
            for await event in events where predicate(event) { return event }
            throw FixtureError("the notifier's events ended before \(what)")
        }
    }

    func stop() {
        guard !stopped.exchange(true, ordering: .sequentiallyConsistent) else { return }
        loop.execute { [self] in
            notifier.stop()
            connection.close()
            loop.stop()
        }
        if let stuck = join(finished, "the notifier host's loop thread") { Issue.record(stuck) }
    }
}

/// A stand-in for the widget service (the real one is another test subject): owns
/// `com.nobadi.DBMultiverse`, emits `TimelinesReloaded` with the entry given, and records
/// `org.freedesktop.Application.Open` calls.
///
/// `@unchecked Sendable`: its bus objects live in a `LoopThread`; `opens` is an AsyncStream.
final class NotifierTestWidget: @unchecked Sendable {
    struct OpenCall: Sendable, Equatable {
        let uris: [String]
        let platformData: [String: Variant]
    }

    let opens: AsyncStream<OpenCall>
    private let host: FakeNotificationServer.LoopThread

    init(address: String) throws {
        let (opens, continuation) = AsyncStream<OpenCall>.makeStream()
        self.opens = opens
        host = try FakeNotificationServer.LoopThread(address: address) { server in
            try server.export(Interface(WidgetBus.applicationInterface, methods: [
                Method("Open", inputs: (Arg<[String]>("uris"), Arg<[String: Variant]>("platform_data")), outputs: ()) {
                    (uris: [String], platformData: [String: Variant]) in
                    continuation.yield(OpenCall(uris: uris, platformData: platformData))
                },
            ]), at: WidgetBus.objectPath)
        }
        guard try host.connection.requestNameBlocking(WidgetBus.busName) == .primaryOwner else {
            host.stop()
            throw FixtureError("could not own \(WidgetBus.busName)")
        }
        host.run()
    }

    deinit { stop() }

    /// Emits `TimelinesReloaded("DBMultiverseWidgets", reason, entry)`; returns once the bus has routed it.
    func reload(_ reason: String, _ entry: ChapterEntry) async throws {
        let message = Message.signal(path: WidgetBus.objectPath, interface: WidgetBus.widgetInterface, member: "TimelinesReloaded")
        message.append("DBMultiverseWidgets", reason, entry.dbusDictionary)
        try await host.sendAndSync(message)
    }

    func stop() { host.stop() }

    /// A chapter entry as the service would publish it.
    static func entry(_ chapter: Int, name: String = "Universe 18", progress: Int = 35, imagePath: String = "",
                      placeholder: Bool = false) -> ChapterEntry {
        ChapterEntry(chapter: chapter, name: name, progress: progress, imagePath: imagePath, date: 1_700_000_000,
                     family: .medium, isPlaceholder: placeholder)
    }
}
