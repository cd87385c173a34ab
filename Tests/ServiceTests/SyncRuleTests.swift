@testable import Service
@testable import ComicDomain
import DBus
import DBusTestSupport
import DesktopTestSupport
import Foundation
import Testing
import TestingTraits
import Widget

/// The sync rules of docs/dbus-api.md#the-sync-rules, on a real service over a private bus, timed by a manual clock.
@Suite(.timeLimit(.minutes(10)), .holds(.privateBuses)) struct SyncRuleTests {
    let empty: [UInt8] = []
    let noOptions: [String: Variant] = [:]

    func update(_ host: ServiceHost, _ chapter: Int32, _ name: String = "Vegeta", _ progress: Int32) async throws {
        try await host.call(Widget1.updateChapter, chapter, name, progress, empty, noOptions)
    }

    /// A service started on a fresh folder, the chapter given stored through `UpdateChapter`.
    func hostReading(_ chapter: Int32, _ name: String = "Vegeta", _ progress: Int32) async throws -> ServiceHost {
        let host = try await ServiceHost.start()
        do {
            try await update(host, chapter, name, progress)
        } catch {
            host.stop()
            throw error
        }
        return host
    }

    @Test func updateChapterReloadsAtOnceWithTheEntryAndProperties() async throws {
        let host = try await ServiceHost.start()
        defer { host.stop() }
        #expect(try await host.property(Widget1.lastReload) == 0)

        try await host.call(Widget1.updateChapter, Int32(42), "Vegeta", Int32(35), empty,
                            ["page": Variant(Int32(980)), "language": Variant("fr"), "unknown": Variant(true)])
        let reloads = try host.reloads()
        try #require(reloads.count == 1)
        #expect(reloads[0].kind == "DBMultiverseWidgets")
        #expect(reloads[0].reason == "chapter-change")
        try expectEntry(reloads[0].entry, chapter: 42, name: "Vegeta", progress: 35, date: ServiceHost.startUnix)

        // PropertiesChanged precedes the reload signal and carries the new values.
        let kinds = host.signals.all.compactMap(\.member)
        #expect(kinds == ["PropertiesChanged", "TimelinesReloaded"])
        let changed = try #require(try host.propertyChanges().first)
        #expect(try changed.value("Chapter", Int32.self) == 42)
        #expect(try changed.value("ChapterName", String.self) == "Vegeta")
        #expect(try changed.value("Progress", Int32.self) == 35)
        #expect(try changed.value("DeepLink", String.self) == "dbmultiverse://chapter/42")
        #expect(try changed.value("LastReload", Int64.self) == ServiceHost.startUnix)
        try expectEntry(try changed.value("Entry", [String: Variant].self), chapter: 42, name: "Vegeta", progress: 35)
        #expect(changed["CoverImagePath"] == nil) // still ""

        #expect(try await host.property(Widget1.chapter) == 42)
        #expect(try await host.property(Widget1.chapterName) == "Vegeta")
        #expect(try await host.property(Widget1.progress) == 35)
        #expect(try await host.property(Widget1.lastReload) == ServiceHost.startUnix)
        #expect(try await host.property(Widget1.kind) == "DBMultiverseWidgets")
        try expectEntry(try await host.currentEntry(), chapter: 42, name: "Vegeta", progress: 35)
    }

    @Test func updateChapterForTheSameChapterIsRequested() async throws {
        let host = try await hostReading(42, "Vegeta", 35)
        defer { host.stop() }
        try await update(host, 42, "Vegeta again", 36)
        let reloads = try host.reloads()
        #expect(reloads.map(\.reason) == ["chapter-change", "requested"])
        try expectEntry(reloads[1].entry, chapter: 42, name: "Vegeta again", progress: 36)
    }

    @Test func aBurstOfProgressReloadsOnceTwoSecondsAfterTheLast() async throws {
        let host = try await hostReading(42, "Vegeta", 10)
        defer { host.stop() }
        for (index, progress) in [Int32(20), 25, 30, 40].enumerated() {
            if index > 0 { try await host.advance(by: .milliseconds(500)) }
            try await host.call(Widget1.updateProgress, progress)
        }
        // t = 1.5 s now; the wait ends at 3.5 s.
        try await host.settle(after: .milliseconds(1900))
        #expect(try host.reloads().count == 1, "nothing before 2 s after the last change")
        #expect(try await host.property(Widget1.progress) == 10)

        try await host.settle(after: .milliseconds(100))
        let reloads = try host.reloads()
        #expect(reloads.map(\.reason) == ["chapter-change", "progress-change"])
        try expectEntry(reloads[1].entry, chapter: 42, name: "Vegeta", progress: 40)
        #expect(try await host.property(Widget1.progress) == 40)

        try await host.settle(after: .seconds(10))
        #expect(try host.reloads().count == 2, "a debounce fires once")
    }

    @Test func smallProgressChangesAreNotSignalledButReaching100Is() async throws {
        let host = try await hostReading(42, "Vegeta", 10)
        defer { host.stop() }
        try await host.call(Widget1.updateProgress, Int32(14))
        try await host.settle(after: .seconds(2))
        #expect(try host.reloads().count == 1, "4 points is under the threshold")
        // Stored nonetheless: the current entry has it, the published properties don't.
        #expect(try await host.currentEntry().value("progress", Int32.self) == 14)
        #expect(try await host.property(Widget1.progress) == 10)

        try await update(host, 7, "Close to the end", 97)
        try await host.call(Widget1.updateProgress, Int32(100))
        try await host.settle(after: .seconds(2))
        let reloads = try host.reloads()
        #expect(reloads.map(\.reason) == ["chapter-change", "chapter-change", "progress-change"])
        #expect(try reloads.last?.entry.value("progress", Int32.self) == 100)
    }

    @Test func aChapterChangeCancelsAPendingProgressReload() async throws {
        let host = try await hostReading(42, "Vegeta", 10)
        defer { host.stop() }
        try await host.call(Widget1.updateProgress, Int32(50))
        try await host.advance(by: .seconds(1))
        try await update(host, 43, "Next", 0)
        try await host.settle(after: .seconds(5))
        let reloads = try host.reloads()
        #expect(reloads.map(\.reason) == ["chapter-change", "chapter-change"])
        #expect(try reloads[1].entry.value("chapter", Int32.self) == 43)
    }

    @Test func theHourlyReloadComesAnHourAfterTheLastReload() async throws {
        let host = try await hostReading(42, "Vegeta", 35)
        defer { host.stop() }
        // Only the hourly deadline is armed.
        let armed = try await host.onLoop { [clock = host.clock] in clock.deadline.map { $0 - clock.now } }
        #expect(armed == .seconds(3600))

        try await host.settle(after: .seconds(3599))
        #expect(try host.reloads().count == 1)
        try await host.settle(after: .seconds(1))
        var reloads = try host.reloads()
        #expect(reloads.map(\.reason) == ["chapter-change", "periodic"])
        try expectEntry(reloads[1].entry, chapter: 42, name: "Vegeta", progress: 35)
        #expect(try await host.property(Widget1.lastReload) == ServiceHost.startUnix + 3600)

        // A reload restarts the hour: requested at +1800 moves the next periodic to +5400.
        try await host.advance(by: .seconds(1800))
        try await host.call(Widget1.reloadTimelines, "DBMultiverseWidgets")
        try await host.settle(after: .seconds(3599))
        #expect(try host.reloads().map(\.reason) == ["chapter-change", "periodic", "requested"])
        try await host.settle(after: .seconds(1))
        reloads = try host.reloads()
        #expect(reloads.map(\.reason) == ["chapter-change", "periodic", "requested", "periodic"])
    }

    @Test func aFileWrittenByAnotherProgramIsPickedUp() async throws {
        let host = try await hostReading(42, "Vegeta", 35)
        defer { host.stop() }
        try writeAtomically(chapterJSON(number: 43, name: "Written by the iOS app", progress: 5),
                            to: host.folder.chapterDataPath)
        let reloads = try await host.waitForReloads(2)
        #expect(reloads[1].reason == "chapter-change")
        try expectEntry(reloads[1].entry, chapter: 43, name: "Written by the iOS app", progress: 5)
        #expect(try await host.property(Widget1.chapter) == 43)
        #expect(try jsonObject(at: host.folder.syncStatePath) as NSDictionary == ["chapter": 43, "progress": 5])

        // A progress-only write follows the progress rule: debounced, then signalled.
        try writeAtomically(chapterJSON(number: 43, name: "Written by the iOS app", progress: 60),
                            to: host.folder.chapterDataPath)
        // inotify is asynchronous and a progress write signals nothing yet: wait (bounded) until
        // the service has read it, by round trips, before moving the clock.
        try await withTimeout(10, "the stored progress to reach 60") {
            while try await host.currentEntry().value("progress", Int32.self) != 60 {
                try await host.sync()
            }
        }
        #expect(try host.reloads().count == 2)
        try await host.settle(after: .seconds(2))
        let last = try #require(try host.reloads().last)
        #expect(last.reason == "progress-change")
        #expect(try last.entry.value("progress", Int32.self) == 60)
    }

    /// The folder removed (`rm -r`) or moved away while the service runs: it shows the placeholder,
    /// and watches for the folder to come back, so another program's writes are picked up again.
    @Test func aRemovedOrMovedFolderIsWatchedAgainWhenItComesBack() async throws {
        let parent = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: parent) }
        let path = parent + "/dbmultiverse", chapterFile = parent + "/dbmultiverse/currentChapterData.json"
        let host = try await ServiceHost.start(folder: path)
        defer { host.stop() }
        try await update(host, 42, "Vegeta", 35)

        try FileManager.default.removeItem(atPath: path)
        var reloads = try await host.waitForReloads(2)
        try expectPlaceholder(reloads[1].entry)

        // Created again by another program, which then writes a chapter.
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        try writeAtomically(chapterJSON(number: 43, name: "Back", progress: 5), to: chapterFile)
        reloads = try await host.waitForReloads(3)
        try expectEntry(reloads[2].entry, chapter: 43, name: "Back", progress: 5)
        // The folder itself is watched again: a later write is seen too.
        try writeAtomically(chapterJSON(number: 44, name: "Again", progress: 5), to: chapterFile)
        reloads = try await host.waitForReloads(4)
        try expectEntry(reloads[3].entry, chapter: 44, name: "Again", progress: 5)

        // Moved away; then a folder prepared elsewhere, chapter inside, moved into its place.
        let prepared = parent + "/prepared"
        try FileManager.default.createDirectory(atPath: prepared, withIntermediateDirectories: false)
        try chapterJSON(number: 45, name: "Moved in", progress: 5).write(to: URL(fileURLWithPath: prepared + "/currentChapterData.json"))
        try FileManager.default.moveItem(atPath: path, toPath: parent + "/old")
        reloads = try await host.waitForReloads(5)
        try expectPlaceholder(reloads[4].entry)
        try FileManager.default.moveItem(atPath: prepared, toPath: path)
        reloads = try await host.waitForReloads(6)
        try expectEntry(reloads[5].entry, chapter: 45, name: "Moved in", progress: 5)
        try writeAtomically(chapterJSON(number: 46, name: "Last", progress: 5), to: chapterFile)
        reloads = try await host.waitForReloads(7)
        try expectEntry(reloads[6].entry, chapter: 46, name: "Last", progress: 5)
        #expect(reloads.map(\.reason) == Array(repeating: "chapter-change", count: 7))
    }

    @Test func atStartAChapterDifferentFromTheSyncStateReloadsAtOnce() async throws {
        let host = try await ServiceHost.start(storing: [
            "widgetSyncState.json": Data(#"{"chapter": 41, "progress": 80}"#.utf8), "currentChapterData.json": chapterJSON(number: 42, name: "Vegeta", progress: 3),
        ])
        defer { host.stop() }
        let folder = host.folder.path
        try await host.sync()
        let reloads = try host.reloads()
        #expect(reloads.map(\.reason) == ["chapter-change"])
        try expectEntry(reloads[0].entry, chapter: 42, name: "Vegeta", progress: 3)
        #expect(try jsonObject(at: folder + "/widgetSyncState.json") as NSDictionary == ["chapter": 42, "progress": 3])
    }

    @Test func atStartMoreProgressOnTheSameChapterIsDebounced() async throws {
        let host = try await ServiceHost.start(storing: [
            "widgetSyncState.json": Data(#"{"chapter": 42, "progress": 20}"#.utf8), "currentChapterData.json": chapterJSON(number: 42, name: "Vegeta", progress: 30),
        ])
        defer { host.stop() }
        try await host.sync()
        #expect(try host.reloads().isEmpty)
        try await host.settle(after: .milliseconds(1999))
        #expect(try host.reloads().isEmpty)
        try await host.settle(after: .milliseconds(1))
        let reloads = try host.reloads()
        #expect(reloads.map(\.reason) == ["progress-change"])
        #expect(try reloads.first?.entry.value("progress", Int32.self) == 30)
    }

    @Test func atStartTheSameStateReloadsNothing() async throws {
        let host = try await ServiceHost.start(storing: [
            "widgetSyncState.json": Data(#"{"chapter": 42, "progress": 30}"#.utf8), "currentChapterData.json": chapterJSON(number: 42, name: "Vegeta", progress: 30),
        ])
        defer { host.stop() }
        try await host.settle(after: .seconds(3599))
        #expect(try host.reloads().isEmpty)
        try expectEntry(try await host.currentEntry(), chapter: 42, name: "Vegeta", progress: 30)
    }

    @Test func eachReloadRecordsTheSyncState() async throws {
        let host = try await ServiceHost.start()
        defer { host.stop() }
        #expect(!FileManager.default.fileExists(atPath: host.folder.syncStatePath))
        try await update(host, 42, "Vegeta", 35)
        #expect(try jsonObject(at: host.folder.syncStatePath) as NSDictionary == ["chapter": 42, "progress": 35])
        try await host.call(Widget1.updateProgress, Int32(37))
        try await host.advance(by: .seconds(2))
        #expect(try jsonObject(at: host.folder.syncStatePath) as NSDictionary == ["chapter": 42, "progress": 35],
                "no reload, no record")
        try await host.call(Widget1.updateProgress, Int32(90))
        try await host.advance(by: .seconds(2))
        #expect(try jsonObject(at: host.folder.syncStatePath) as NSDictionary == ["chapter": 42, "progress": 90])
        try await update(host, 50, "Fifty", 0)
        #expect(try jsonObject(at: host.folder.syncStatePath) as NSDictionary == ["chapter": 50, "progress": 0])
    }

    @Test func theTimelineIsOneEntryReloadedAfterAnHour() async throws {
        let host = try await hostReading(42, "Vegeta", 35)
        defer { host.stop() }
        try await host.advance(by: .seconds(125))
        for family in ["small", "medium"] {
            let (entries, policy, reloadAfter) = try await host.call(Widget1.getTimeline, family)
            try #require(entries.count == 1)
            try expectEntry(entries[0], chapter: 42, name: "Vegeta", progress: 35, family: family, date: ServiceHost.startUnix)
            #expect(policy == "after")
            #expect(reloadAfter == ServiceHost.startUnix + 125 + 3600)
        }
    }

    @Test func placeholderAndSnapshotPerFamily() async throws {
        let host = try await ServiceHost.start()
        defer { host.stop() }
        for family in ["small", "medium"] {
            try expectPlaceholder(try await host.call(Widget1.getPlaceholder, family), family: family)
            try expectPlaceholder(try await host.call(Widget1.getSnapshot, family), family: family)
        }
        try expectPlaceholder(try await host.currentEntry())
        #expect(try await host.property(Widget1.lastReload) == 0)
        try expectPlaceholder(try await host.property(Widget1.entry))

        try await update(host, 42, "Vegeta", 35)
        for family in ["small", "medium"] {
            try expectPlaceholder(try await host.call(Widget1.getPlaceholder, family), family: family)
            try expectEntry(try await host.call(Widget1.getSnapshot, family),
                            chapter: 42, name: "Vegeta", progress: 35, family: family)
        }
    }

    @Test func reloadRequestsReReadStorage() async throws {
        let host = try await ServiceHost.start()
        defer { host.stop() }
        try await host.call(Widget1.reloadAllTimelines)
        try await host.call(Widget1.reloadTimelines, "DBMultiverseWidgets")
        let reloads = try host.reloads()
        #expect(reloads.map(\.reason) == ["requested", "requested"])
        try expectPlaceholder(reloads[0].entry)
        #expect(try await host.property(Widget1.lastReload) == ServiceHost.startUnix)
    }
}
