@testable import Service
import ComicDomain
import DBus
import DBusTestSupport
import DesktopTestSupport
import Widget
import Foundation
import Testing
import TestingTraits

/// Every error of docs/dbus-api.md the widget and application produce: the exact name, a message that
/// says what was wrong, and storage left as it was.
@Suite(.timeLimit(.minutes(10)), .holds(.privateBuses)) struct ErrorTests {
    let empty: [UInt8] = []
    let noOptions: [String: Variant] = [:]
    static let application: InterfaceName = "org.freedesktop.Application"

    /// A host with chapter 42 stored and synced (so "unchanged" compares real files).
    func hostWithChapter() async throws -> ServiceHost {
        let host = try await ServiceHost.start()
        try await host.call(Widget1.updateChapter, Int32(42), "Vegeta", Int32(35), jpegBytes(), noOptions)
        return host
    }

    /// Runs `body`, expecting the error, then checks the folder and the signals did not change.
    func expectRejected(_ host: ServiceHost, _ name: String, containing texts: [String],
                        sourceLocation: SourceLocation = #_sourceLocation,
                        _ body: () async throws -> Any) async throws {
        let before = try snapshot(host.folder.path)
        let signalsBefore = host.signals.all.count
        await expectError(name, containing: texts, sourceLocation: sourceLocation, body)
        try await host.sync()
        #expect(try snapshot(host.folder.path) == before, "storage changed", sourceLocation: sourceLocation)
        #expect(host.signals.all.count == signalsBefore, "a signal was emitted", sourceLocation: sourceLocation)
    }

    @Test func invalidChapter() async throws {
        let host = try await hostWithChapter()
        defer { host.stop() }
        for chapter in [Int32(0), 100_000, -1] {
            try await expectRejected(host, comicError("InvalidChapter"), containing: ["\(chapter)", "99999"]) {
                try await host.call(Widget1.updateChapter, chapter, "Name", Int32(10), empty, noOptions)
            }
        }
    }

    @Test func invalidName() async throws {
        let host = try await hostWithChapter()
        defer { host.stop() }
        try await expectRejected(host, comicError("InvalidName"), containing: ["blank"]) {
            try await host.call(Widget1.updateChapter, Int32(43), "  \t ", Int32(10), empty, noOptions)
        }
        try await expectRejected(host, comicError("InvalidName"), containing: ["257", "256"]) {
            try await host.call(Widget1.updateChapter, Int32(43), String(repeating: "é", count: 257), Int32(10), empty, noOptions)
        }
        // 256 characters is fine.
        try await host.call(Widget1.updateChapter, Int32(43), String(repeating: "é", count: 256), Int32(10), empty, noOptions)
    }

    @Test func invalidProgress() async throws {
        let host = try await hostWithChapter()
        defer { host.stop() }
        for progress in [Int32(-1), 101] {
            try await expectRejected(host, comicError("InvalidProgress"), containing: ["\(progress)", "100"]) {
                try await host.call(Widget1.updateChapter, Int32(43), "Name", progress, empty, noOptions)
            }
            try await expectRejected(host, comicError("InvalidProgress"), containing: ["\(progress)", "100"]) {
                try await host.call(Widget1.updateProgress, progress)
            }
        }
    }

    @Test func invalidFamilyAndUnknownKind() async throws {
        let host = try await hostWithChapter()
        defer { host.stop() }
        let familyCalls: [() async throws -> Any] = [
            { try await host.call(Widget1.getPlaceholder, "large") },
            { try await host.call(Widget1.getSnapshot, "large") },
            { try await host.call(Widget1.getTimeline, "large") },
        ]
        for call in familyCalls {
            try await expectRejected(host, comicError("InvalidFamily"), containing: ["large", "small", "medium"]) {
                try await call()
            }
        }
        try await expectRejected(host, comicError("UnknownKind"), containing: ["OtherWidget", "DBMultiverseWidgets"]) {
            try await host.call(Widget1.reloadTimelines, "OtherWidget")
        }
    }

    @Test func coverRejected() async throws {
        let host = try await hostWithChapter()
        defer { host.stop() }
        try await expectRejected(host, comicError("CoverRejected"), containing: ["JPEG", "PNG"]) {
            try await host.call(Widget1.updateChapter, Int32(43), "Name", Int32(10), Array("GIF89a....".utf8), noOptions)
        }
        let tooLarge = jpegBytes(8 * 1024 * 1024 + 1)
        try await expectRejected(host, comicError("CoverRejected"), containing: ["\(tooLarge.count)", "\(8 * 1024 * 1024)"]) {
            try await host.call(Widget1.updateChapter, Int32(43), "Name", Int32(10), tooLarge, noOptions)
        }
        // A PNG is accepted and served from the folder.
        try await host.call(Widget1.updateChapter, Int32(43), "Name", Int32(10), pngBytes(), noOptions)
        let imagePath = try await host.currentEntry().value("image-path", String.self)
        #expect(imagePath.hasSuffix("/chapterCoverImage.jpg"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: imagePath)) == Data(pngBytes()))
    }

    @Test func noCurrentChapter() async throws {
        let host = try await ServiceHost.start()
        defer { host.stop() }
        try await expectRejected(host, comicError("NoCurrentChapter"), containing: ["UpdateChapter"]) {
            try await host.call(Widget1.updateProgress, Int32(50))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: host.folder.path).isEmpty)
    }

    @Test func storageFailed() async throws {
        let host = try await ServiceHost.start()
        defer { host.stop() }
        // A directory where the chapter file goes: the rename fails even for root.
        try FileManager.default.createDirectory(atPath: host.folder.chapterDataPath, withIntermediateDirectories: false)
        try await expectRejected(host, comicError("StorageFailed"), containing: ["currentChapterData.json"]) {
            try await host.call(Widget1.updateChapter, Int32(43), "Name", Int32(10), empty, noOptions)
        }
        try expectPlaceholder(try await host.currentEntry())
    }

    @Test func invalidDeepLinkOpensNothing() async throws {
        let host = try await hostWithChapter()
        defer { host.stop() }
        for bad in ["http://example.com/chapter/2", "dbmultiverse://chapter/007", "dbmultiverse://chapter/0",
                    "dbmultiverse://chapter/2?x=1", "dbmultiverse://pages/2", "dbmultiverse://page/02", "dbmultiverse://page/100000"] {
            try await expectRejected(host, comicError("InvalidDeepLink"), containing: [bad]) {
                try await host.call(FreedesktopApplication.open, ["dbmultiverse://chapter/1", bad], noOptions)
            }
        }
        // Good links open, each announced.
        try await host.call(FreedesktopApplication.open, ["dbmultiverse://chapter/1", "DBMultiverse://CHAPTER/42/"], noOptions)
        let opened = try host.signals.all.filter { $0.member == "OpenRequested" }.map { try $0.decode(Int32.self, String.self) }
        #expect(opened.map(\.0) == [1, 42])
        #expect(opened.map(\.1) == ["dbmultiverse://chapter/1", "dbmultiverse://chapter/42"])
    }

    /// `UpdatePage(i page, s language, i chapter, s name, i progress, ay cover, a{sv} options)`:
    /// every argument checked before anything is stored, in that order.
    @Test func updatePageValidatesEverythingFirst() async throws {
        let host = try await hostWithChapter()
        defer { host.stop() }
        func updatePage(_ page: Int32 = 130, _ language: String = "en", _ chapter: Int32 = 5, _ name: String = "Five",
                        _ progress: Int32 = 8, cover: [UInt8] = [], options: [String: Variant] = [:]) async throws {
            try await host.call(Widget1.updatePage, page, language, chapter, name, progress, cover, options)
        }
        for page in [Int32(0), -5, 100_000] {
            try await expectRejected(host, comicError("InvalidPage"), containing: ["page \(page) is out of range 1…99999"]) {
                try await updatePage(page)
            }
        }
        for language in ["xx", "EN", "", "en/../x", "pt_br"] {
            try await expectRejected(host, comicError("InvalidLanguage"), containing: ["\"\(language)\"", "en fr it", "pt_BR"]) {
                try await updatePage(130, language)
            }
        }
        try await expectRejected(host, comicError("InvalidPage"), containing: ["page 0"]) { // the page first
            try await updatePage(0, "xx", 0, " ", 500)
        }
        try await expectRejected(host, comicError("InvalidChapter"), containing: ["chapter 0"]) { try await updatePage(130, "en", 0) }
        try await expectRejected(host, comicError("InvalidName"), containing: ["blank"]) { try await updatePage(130, "en", 5, " \n") }
        try await expectRejected(host, comicError("InvalidProgress"), containing: ["101"]) { try await updatePage(130, "en", 5, "Five", 101) }
        try await expectRejected(host, comicError("CoverRejected"), containing: ["neither JPEG nor PNG"]) {
            try await updatePage(cover: Array("GIF89a".utf8))
        }
        // Also for the chapter already stored, whose cover would be kept: bad input is an error.
        try await expectRejected(host, comicError("CoverRejected"), containing: ["neither JPEG nor PNG"]) {
            try await updatePage(990, "en", 42, "Vegeta", 50, cover: Array("GIF89a".utf8))
        }
        let invalidArgs = DBusError.Name.invalidArgs
        try await expectRejected(host, invalidArgs, containing: ["universe", "'i'", "'s'"]) {
            try await updatePage(options: ["universe": Variant("3")])
        }
        try await expectRejected(host, invalidArgs, containing: ["universe -1 is out of range 0…99999"]) {
            try await updatePage(options: ["universe": Variant(Int32(-1))])
        }
        try await expectRejected(host, invalidArgs, containing: ["isisiaya{sv}"]) {
            try await host.callUnchecked("UpdatePage", Int32(130), "en", Int32(5), "Five", Int32(8))
        }
        // Unknown options are ignored, as for UpdateChapter.
        _ = try await updatePage(options: ["unknown": Variant(true)])
        #expect(try await host.property(Widget1.chapter) == 5)
    }

    @Test func unknownActionAndTheActions() async throws {
        let host = try await hostWithChapter()
        defer { host.stop() }
        let noParameter: [Variant] = []
        try await expectRejected(host, comicError("UnknownAction"), containing: ["fly", "open-chapter", "open-current"]) {
            try await host.call(FreedesktopApplication.activateAction, "fly", noParameter, noOptions)
        }
        try await expectRejected(host, comicError("InvalidPage"), containing: ["page 0 is out of range 1…99999"]) {
            try await host.call(FreedesktopApplication.activateAction, "open-page", [Variant(Int32(0))], noOptions)
        }
        try await expectRejected(host, DBusError.Name.invalidArgs, containing: ["open-page", "int32", "page number"]) {
            try await host.call(FreedesktopApplication.activateAction, "open-page", [Variant("980")], noOptions)
        }
        try await host.call(FreedesktopApplication.activateAction, "open-chapter", [Variant(Int32(7))], noOptions)
        try await host.call(FreedesktopApplication.activateAction, "open-current", noParameter, noOptions)
        try await host.call(FreedesktopApplication.activate, noOptions)
        try await host.call(FreedesktopApplication.activateAction, "open-page", [Variant(Int32(980))], noOptions)
        let opened = try host.signals.all.filter { $0.member == "OpenRequested" }.map { try $0.decode(Int32.self, String.self) }
        #expect(opened.map(\.0) == [7, 42, 42, 0])
        #expect(opened.last?.1 == "dbmultiverse://page/980")
    }

    @Test func standardErrors() async throws {
        let host = try await hostWithChapter()
        defer { host.stop() }
        let invalidArgs = DBusError.Name.invalidArgs
        try await expectRejected(host, invalidArgs, containing: ["isiaya{sv}"]) {
            try await host.callUnchecked("UpdateChapter", "42", "Name")
        }
        try await expectRejected(host, invalidArgs, containing: ["page", "'i'", "'s'"]) {
            try await host.call(Widget1.updateChapter, Int32(43), "Name", Int32(10), empty, ["page": Variant("twelve")])
        }
        try await expectRejected(host, invalidArgs, containing: ["language"]) {
            try await host.call(Widget1.updateChapter, Int32(43), "Name", Int32(10), empty, ["language": Variant(Int32(3))])
        }
        try await expectRejected(host, invalidArgs, containing: ["'s'"]) {
            try await host.callUnchecked("GetSnapshot", Int32(1))
        }
        try await expectRejected(host, DBusError.Name.unknownMethod, containing: ["Explode"]) {
            try await host.callUnchecked("Explode")
        }
        let widget = Widget1.name.rawValue
        try await expectRejected(host, DBusError.Name.unknownProperty, containing: ["Missing"]) {
            try await host.call(Properties.get, widget, "Missing")
        }
        try await expectRejected(host, DBusError.Name.propertyReadOnly, containing: ["Chapter"]) {
            try await host.call(Properties.set, widget, "Chapter", Variant(Int32(7)))
        }
        #expect(try await host.property(Widget1.chapter) == 42)
    }
}
