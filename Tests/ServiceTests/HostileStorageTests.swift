@testable import Service
@testable import ComicDomain
import DBus
import DBusTestSupport
import DesktopTestSupport
import Foundation
import Testing
import TestingTraits
import Widget

/// Bad content in the data folder never stops the service (docs/storage.md): it serves the
/// placeholder (or an entry without image), keeps answering, and picks up a later valid file.
@Suite(.timeLimit(.minutes(10)), .holds(.privateBuses)) struct HostileStorageTests {
    enum Hostile: String, CaseIterable, CustomTestStringConvertible {
        case malformedJSON, oversized, directory, symlinkOutside, outOfRange, wrongTypes
        var testDescription: String { rawValue }

        func install(in folder: String, outside: String) throws {
            let path = folder + "/currentChapterData.json"
            switch self {
            case .malformedJSON:
                try Data(#"{"number": 42, "name": "Vegeta", "progress": "#.utf8).write(to: URL(fileURLWithPath: path))
            case .oversized:
                let padding = String(repeating: " ", count: 64 * 1024)
                try (chapterJSON(number: 42, name: "Vegeta", progress: 35) + Data(padding.utf8)).write(to: URL(fileURLWithPath: path))
            case .directory:
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
            case .symlinkOutside:
                let target = outside + "/chapter.json"
                try chapterJSON(number: 42, name: "Vegeta", progress: 35).write(to: URL(fileURLWithPath: target))
                try FileManager.default.createSymbolicLink(atPath: path, withDestinationPath: target)
            case .outOfRange:
                try chapterJSON(number: 100_000, name: "Vegeta", progress: 35).write(to: URL(fileURLWithPath: path))
            case .wrongTypes:
                try Data(#"{"number": "42", "name": 7, "progress": 35, "coverImagePath": ""}"#.utf8).write(to: URL(fileURLWithPath: path))
            }
        }
    }

    @Test(arguments: Hostile.allCases)
    func aBadFileIsServedAsThePlaceholder(_ hostile: Hostile) async throws {
        let folders = try TemporaryFolders("dbm-data", "dbm-outside")
        let (folder, outside) = (folders.paths[0], folders.paths[1])
        try hostile.install(in: folder, outside: outside)
        let host = try await ServiceHost.start(folder: folder)
        defer { host.stop() }

        try expectPlaceholder(try await host.currentEntry())
        try expectPlaceholder(try await host.call(Widget1.getSnapshot, "small"), family: "small")
        try await host.call(Widget1.reloadAllTimelines)
        try expectPlaceholder(try #require(try host.reloads().last).entry)
        #expect(try await host.property(Widget1.chapter) == 1)

        // A valid file replaces it (as the iOS app writes: temp + rename) and is picked up.
        if hostile == .directory { try FileManager.default.removeItem(atPath: host.folder.chapterDataPath) }
        try writeAtomically(chapterJSON(number: 43, name: "Fixed", progress: 10), to: host.folder.chapterDataPath)
        let reloads = try await host.waitForReloads(2)
        #expect(reloads[1].reason == "chapter-change")
        try expectEntry(reloads[1].entry, chapter: 43, name: "Fixed", progress: 10)
        try expectEntry(try await host.currentEntry(), chapter: 43, name: "Fixed", progress: 10)
    }

    @Test func aFileTurningBadWhileRunningFallsBackToThePlaceholder() async throws {
        let host = try await ServiceHost.start()
        defer { host.stop() }
        try await host.call(Widget1.updateChapter, Int32(42), "Vegeta", Int32(35), [UInt8](), [String: Variant]())
        try writeAtomically(Data("not json".utf8), to: host.folder.chapterDataPath)
        let reloads = try await host.waitForReloads(2)
        #expect(reloads[1].reason == "chapter-change")
        try expectPlaceholder(reloads[1].entry)
        try expectPlaceholder(try await host.currentEntry())
        #expect(!FileManager.default.fileExists(atPath: host.folder.syncStatePath))
    }

    enum Cover: String, CaseIterable, CustomTestStringConvertible {
        case outsideTheFolder, tooLarge, directory, missing, symlinkToOutside, relativeEscape
        var testDescription: String { rawValue }

        /// Installs a cover and returns the coverImagePath to store.
        func install(in folder: String, outside: String) throws -> String {
            switch self {
            case .outsideTheFolder:
                try Data(jpegBytes()).write(to: URL(fileURLWithPath: outside + "/cover.jpg"))
                return outside + "/cover.jpg"
            case .tooLarge:
                try Data(jpegBytes(8 * 1024 * 1024 + 1)).write(to: URL(fileURLWithPath: folder + "/big.jpg"))
                return folder + "/big.jpg"
            case .directory:
                try FileManager.default.createDirectory(atPath: folder + "/covers", withIntermediateDirectories: false)
                return folder + "/covers"
            case .missing:
                return folder + "/chapterCoverImage.jpg"
            case .symlinkToOutside:
                try Data(jpegBytes()).write(to: URL(fileURLWithPath: outside + "/cover.jpg"))
                try FileManager.default.createSymbolicLink(atPath: folder + "/link.jpg", withDestinationPath: outside + "/cover.jpg")
                return folder + "/link.jpg"
            case .relativeEscape:
                try Data(jpegBytes()).write(to: URL(fileURLWithPath: outside + "/cover.jpg"))
                return "../" + URL(fileURLWithPath: outside).lastPathComponent + "/cover.jpg"
            }
        }
    }

    @Test(arguments: Cover.allCases)
    func aBadCoverPathServesTheEntryWithoutImage(_ cover: Cover) async throws {
        let folders = try TemporaryFolders("dbm-data", "dbm-outside")
        let (folder, outside) = (folders.paths[0], folders.paths[1])
        let coverPath = try cover.install(in: folder, outside: outside)
        try chapterJSON(number: 42, name: "Vegeta", progress: 35, coverImagePath: coverPath)
            .write(to: URL(fileURLWithPath: folder + "/currentChapterData.json"))
        let host = try await ServiceHost.start(folder: folder)
        defer { host.stop() }
        try expectEntry(try await host.currentEntry(), chapter: 42, name: "Vegeta", progress: 35, imagePath: "")
        try await host.sync()
        try expectEntry(try #require(try host.reloads().first).entry, chapter: 42, name: "Vegeta", progress: 35, imagePath: "")
        #expect(try await host.property(Widget1.coverImagePath) == "")
    }

    @Test func aGoodCoverPathInsideTheFolderIsServed() async throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(jpegBytes()).write(to: URL(fileURLWithPath: folder + "/chapterCoverImage.jpg"))
        try chapterJSON(number: 42, name: "Vegeta", progress: 35, coverImagePath: folder + "/chapterCoverImage.jpg")
            .write(to: URL(fileURLWithPath: folder + "/currentChapterData.json"))
        let host = try await ServiceHost.start(folder: folder)
        defer { host.stop() }
        let real = URL(fileURLWithPath: folder + "/chapterCoverImage.jpg").resolvingSymlinksInPath().path
        try expectEntry(try await host.currentEntry(), chapter: 42, name: "Vegeta", progress: 35, imagePath: real)
        #expect(try await host.property(Widget1.coverImagePath) == real)
    }
}
