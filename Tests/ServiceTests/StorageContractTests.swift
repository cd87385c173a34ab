@testable import Service
import ComicDomain
import DBus
import DBusTestSupport
import DesktopTestSupport
import Foundation
import Testing
import TestingTraits
import Widget

/// The file contract of docs/storage.md, through the service.
@Suite(.timeLimit(.minutes(10)), .holds(.privateBuses)) struct StorageContractTests {
    func mode(_ path: String) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
    }

    @Test func filesAre0600AndTheFolder0700() async throws {
        let parent = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: parent) }
        let folder = parent + "/nested/dbmultiverse"
        let host = try await ServiceHost.start(folder: folder)
        defer { host.stop() }
        #expect(try mode(folder) == 0o700)
        try await host.call(Widget1.updateChapter, Int32(42), "Vegeta", Int32(35), jpegBytes(), [String: Variant]())
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(names == ["chapterCoverImage.jpg", "currentChapterData.json", "widgetSyncState.json"], "no temporary files left")
        for name in names {
            #expect(try mode(folder + "/" + name) == 0o600, "\(name)")
        }
    }

    @Test func theChapterFileUsesTheIOSKeys() async throws {
        let host = try await ServiceHost.start()
        defer { host.stop() }
        try await host.call(Widget1.updateChapter, Int32(42), "Vegeta \"&\" <Goku>", Int32(35), jpegBytes(),
                            ["page": Variant(Int32(980)), "language": Variant("fr")])
        let object = try jsonObject(at: host.folder.chapterDataPath)
        #expect(object["number"] as? Int == 42)
        #expect(object["name"] as? String == "Vegeta \"&\" <Goku>")
        #expect(object["progress"] as? Int == 35)
        #expect(object["coverImagePath"] as? String == host.folder.coverImagePath)
        #expect(object["page"] as? Int == 980)
        #expect(object["language"] as? String == "fr")
        #expect(Set(object.keys).isSubset(of: ["number", "name", "progress", "coverImagePath", "page", "language"]))

        // Without a cover the path is empty and the old cover is gone.
        try await host.call(Widget1.updateChapter, Int32(43), "Next", Int32(0), [UInt8](), [String: Variant]())
        let next = try jsonObject(at: host.folder.chapterDataPath)
        #expect(next["coverImagePath"] as? String == "")
        #expect(next["page"] == nil)
        #expect(!FileManager.default.fileExists(atPath: host.folder.coverImagePath))
    }

    @Test func aFileWrittenByTheIOSAppIsRead() async throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(jpegBytes()).write(to: URL(fileURLWithPath: folder + "/chapterCoverImage.jpg"))
        let json = """
            {"coverImagePath":"\(folder)/chapterCoverImage.jpg","number":42,"progress":35,"name":"Vegeta",
             "lastReadDate":"2024-05-01T10:00:00Z","isFavorite":true,"extra":{"nested":[1,2,3]},"page":980}
            """
        try Data(json.utf8).write(to: URL(fileURLWithPath: folder + "/currentChapterData.json"))
        let host = try await ServiceHost.start(folder: folder)
        defer { host.stop() }
        let real = URL(fileURLWithPath: folder + "/chapterCoverImage.jpg").resolvingSymlinksInPath().path
        try expectEntry(try await host.currentEntry(), chapter: 42, name: "Vegeta", progress: 35, imagePath: real)
        try await host.sync()
        #expect(try host.reloads().map(\.reason) == ["chapter-change"])
    }
}
