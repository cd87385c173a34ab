package import ComicDomain
package import DBus
import DBusTestSupport
import Widget
package import Follower
import EventLoop
import Foundation
import Testing

/// The real `Notifier`, on its own event loop thread, on a private bus: as `dbmultiverse
/// notifier` runs it, but in-process, remembering its announcements in `folder` (a temporary
/// folder of its own, removed with it, unless one is given). What it does arrives on `events`.
///
/// `@unchecked Sendable`: the notifier is set up on the caller's thread before the loop thread
/// starts, and touched only by that thread afterwards (it lives in the host's `BusHost`).
package final class NotifierHost: @unchecked Sendable {
    let events: AsyncStream<NotifierEvent>
    package let folder: String
    private let ownsFolder: Bool
    private let host: BusHost
    private let notifier: LoopBound<Notifier>

    /// Connects and starts the notifier; its match rules are in place when this returns.
    package init(address: String, folder: String? = nil) throws {
        self.folder = try folder ?? makeTemporaryDirectory("dbm-notifier")
        ownsFolder = folder == nil
        host = try BusHost(address: address)
        let notifier = Notifier(connection: host.connection, folder: DataFolder(path: self.folder))
        self.notifier = LoopBound(notifier)
        events = observe(&notifier.observer)
        try notifier.start()
        try host.start()
    }

    /// Stops the loop before the notifier it calls goes.
    deinit {
        stop()
        if ownsFolder { try? FileManager.default.removeItem(atPath: folder) } // teardown of a temporary folder: best effort
    }

    /// Waits for the next event satisfying `predicate`, skipping others.
    package func wait(for what: String, within seconds: Double = 10,
              _ predicate: @escaping @Sendable (NotifierEvent) -> Bool) async throws -> NotifierEvent {
        try await nextEvent(of: events, from: "the notifier", what, within: seconds, predicate)
    }

    package func stop() {
        if let stuck = host.stop({ [notifier] in notifier.value.stop() }) { Issue.record(stuck) }
    }
}

/// A stand-in for the widget service (the real one is another test subject): owns
/// `com.nobadi.DBMultiverse`, answers `GetCurrentEntry` with the entry it was made with, emits
/// `TimelinesReloaded` with the entry given, and records the `org.freedesktop.Application` calls
/// (`Open`; `Activate` and `ActivateAction`).
///
/// `Sendable`: its bus objects live in a `BusHost`; `opens` and `activations` are AsyncStreams.
package final class NotifierTestWidget: Sendable {
    struct OpenCall: Sendable, Equatable {
        let uris: [String]
        let platformData: [String: Variant]
    }

    /// An `ActivateAction` call, or (with no action) an `Activate` call.
    package struct ActivationCall: Sendable, Equatable {
        package let action: String?
        package let parameter: [Variant]
        package let platformData: [String: Variant]

        package init(action: String?, parameter: [Variant], platformData: [String: Variant]) {
            self.action = action
            self.parameter = parameter
            self.platformData = platformData
        }
    }

    let opens: AsyncStream<OpenCall>
    package let activations: AsyncStream<ActivationCall>
    private let host: BusHost
    private let exported: LoopBound<ExportedInterface<FreedesktopApplication>>
    private let exportedWidget: LoopBound<ExportedInterface<Widget1>>

    package init(address: String, current: ChapterEntry = .placeholder(family: .medium, date: 1_700_000_000)) throws {
        let (opens, continuation) = AsyncStream<OpenCall>.makeStream()
        let (activations, activated) = AsyncStream<ActivationCall>.makeStream()
        self.opens = opens
        self.activations = activations
        host = try BusHost(address: address)
        exported = LoopBound(try host.server.export(Interface<FreedesktopApplication>(methods: [
            Method(FreedesktopApplication.open) { uris, platformData in
                continuation.yield(OpenCall(uris: uris, platformData: platformData))
            },
            Method(FreedesktopApplication.activate) { platformData in
                activated.yield(ActivationCall(action: nil, parameter: [], platformData: platformData))
            },
            Method(FreedesktopApplication.activateAction) { name, parameter, platformData in
                activated.yield(ActivationCall(action: name, parameter: parameter, platformData: platformData))
            },
        ]), at: WidgetBus.objectPath))
        exportedWidget = LoopBound(try host.server.export(Interface<Widget1>(methods: [
            Method(Widget1.getCurrentEntry) { current.dbusDictionary },
        ]), at: WidgetBus.objectPath))
        try host.own(WidgetBus.busName)
        try host.start()
    }

    deinit { stop() }

    /// Emits `TimelinesReloaded("DBMultiverseWidgets", reason, entry)`; returns once the bus has routed it.
    package func reload(_ reason: String, _ entry: ChapterEntry) async throws {
        let message = Message.signal(path: WidgetBus.objectPath, interface: Widget1.name, member: Widget1.timelinesReloaded.name)
        message.append("DBMultiverseWidgets", reason, entry.dbusDictionary)
        try await host.sendAndSync(message)
    }

    package func stop() {
        if let stuck = host.stop() { Issue.record(stuck) }
    }

    /// A chapter entry as the service would publish it.
    package static func entry(_ chapter: Int, name: String = "Universe 18", progress: Int = 35, imagePath: String = "",
                      placeholder: Bool = false, universe: Int = 0, latestPage: Int = 0, newPages: Int = 0) -> ChapterEntry {
        // The service's first unread page when no special was published among the new pages.
        ChapterEntry(chapter: chapter, name: name, progress: progress, imagePath: imagePath, date: 1_700_000_000,
                     family: .medium, isPlaceholder: placeholder, universe: universe, latestPage: latestPage, newPages: newPages,
                     firstUnreadPage: newPages > 0 ? latestPage - newPages + 1 : 0,
                     nextChapter: placeholder || universe != 0 ? 0 : chapter + 1) // a catalogue that has the next chapter
    }
}
