import DBus
import DBusTestSupport
import DesktopTestSupport
import EndToEndSupport
import Widget
import Foundation
import Testing
import TestingTraits

/// What the real service says about watching its data folder: precisely what is and isn't
/// watched, once, never that it watches for the folder to appear when it can't.
@Suite(.timeLimit(.minutes(10)), .holds(.privateBuses), .enabled(if: FileManager.default.isExecutableFile(atPath: Binary.dbmultiverse)))
struct FolderWatchLogTests {
    /// The folder can't exist (a parent is a regular file), so neither it nor its parent can be
    /// watched: the log says both, once, however often the service tries again.
    @Test func aFolderWhoseParentCantBeWatchedEither() async throws {
        let base = try makeTemporaryDirectory("dbm-watch")
        defer { try? FileManager.default.removeItem(atPath: base) }
        try Data("not a folder".utf8).write(to: URL(fileURLWithPath: base + "/file"))
        let folder = base + "/file/sub/data"
        let bus = try PrivateBus()
        defer { bus.stop() }
        let service = try ServiceProcess(bus: bus, folder: folder)
        let client = try await BusClient.connect(.address(bus.address))
        for _ in 0..<2 { try await client.call(Widget1.reloadAllTimelines.call(on: WidgetBus.object), timeout: .seconds(10)) }
        var last = 0
        for _ in 0..<2 { last = try service.waitForLine(containing: "reloaded (requested)", from: last) + 1 }

        let watchLines = service.lines.prefix(last).filter { $0.contains("not watching") || $0.contains("appear") }
        #expect(watchLines.count == 1, "\(watchLines)")
        let line = try #require(watchLines.first)
        #expect(line.contains("not watching \(folder) for changes (Not a directory)"), "\(line)")
        #expect(line.contains("nor \(base)/file/sub for it to appear (Not a directory)"), "\(line)")
        #expect(line.contains("go unseen"), "\(line)")
    }

    /// The folder's parent exists: the log says the parent is watched, once, and the folder is
    /// watched again when it appears.
    @Test func aMissingFolderIsWatchedForThroughItsParent() async throws {
        let base = try makeTemporaryDirectory("dbm-watch")
        defer { try? FileManager.default.removeItem(atPath: base) }
        let folder = base + "/data"
        let bus = try PrivateBus()
        defer { bus.stop() }
        let service = try ServiceProcess(bus: bus, folder: folder)
        try FileManager.default.removeItem(atPath: folder)
        let gone = try service.waitForLine(containing: "watching \(base) for it to appear")
        #expect(service.lines[gone].contains("not watching \(folder) for changes (No such file or directory)"), "\(service.lines[gone])")

        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        try service.waitForLine(containing: "watching \(folder) again", from: gone)
        #expect(service.lines.filter { $0.contains("for it to appear") }.count == 1, "\(service.lines)")
    }
}
