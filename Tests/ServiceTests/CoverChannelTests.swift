@testable import ComicDomain
import DBus
import DBusTestSupport
import DesktopTestSupport
import Foundation
import Glibc
import SiteTestSupport
import Testing
import TestingTraits
import Widget

/// `UpdatePage`'s options (docs/dbus-api.md, "One page read, one call"): the service decides
/// whether a page is another chapter's and asks for its cover on the call's `cover_channel`,
/// publishing the chapter change once the cover is in; the catalogue the caller fetched is stored
/// with the position.
@Suite(.timeLimit(.minutes(10)), .holds(.privateBuses)) struct CoverChannelTests {
    /// The caller's end of a channel and the end the call carries.
    final class Channel {
        let own: Int32
        let service: UnixFD

        init() throws {
            var ends: [Int32] = [-1, -1]
            guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
                throw FixtureError("socketpair: \(errno)")
            }
            (own, service) = (ends[0], UnixFD(owning: ends[1]))
        }

        deinit { close(own) }

        /// The service's answer, once its reply is in: "1", "0", or "" for none.
        func answer() -> String {
            var byte: UInt8 = 0
            return recv(own, &byte, 1, Int32(MSG_DONTWAIT)) == 1 ? String(UnicodeScalar(byte)) : ""
        }

        func send(_ bytes: [UInt8]) {
            _ = bytes.withUnsafeBytes { Glibc.send(own, $0.baseAddress!, bytes.count, Int32(MSG_NOSIGNAL)) }
            shutdown(own, Int32(SHUT_WR))
        }
    }

    func page(_ host: ServiceHost, _ page: Int32, chapter: Int32, progress: Int32, cover: [UInt8] = [],
              options: [String: Variant]) async throws {
        try await host.call(Widget1.updatePage, page, "en", chapter, "The Tournament Goes On", progress, cover, options)
    }

    @Test func anotherChapterAsksForItsCoverAndIsPublishedWithIt() async throws {
        let host = try await ServiceHost.start()
        defer { host.stop() }
        let channel = try Channel()
        try await page(host, 130, chapter: 5, progress: 8, options: ["cover_channel": Variant(channel.service)])
        #expect(channel.answer() == "1")
        try await host.sync()
        #expect(try host.reloads().isEmpty, "the chapter change waits for its cover")
        #expect(try jsonObject(at: host.folder.chapterDataPath)["number"] as? Int == 5, "the position is stored at once")
        // Readers get what was last published until then: no reader sees the chapter before its change.
        let served = try await host.call(Widget1.getCurrentEntry)
        #expect(try served.value("is-placeholder", Bool.self) == true, "\(served)")

        channel.send(pngBytes())
        let reloads = try await host.waitForReloads(1)
        #expect(reloads.map(\.reason) == ["chapter-change"])
        try expectEntry(reloads[0].entry, chapter: 5, name: "The Tournament Goes On", progress: 8, imagePath: host.folder.coverImagePath)
        #expect(FileManager.default.contents(atPath: host.folder.coverImagePath) == Data(pngBytes()))

        // The same chapter read further: nothing to ask.
        let again = try Channel()
        try await page(host, 140, chapter: 5, progress: 50, options: ["cover_channel": Variant(again.service)])
        #expect(again.answer() == "0")
        // Another chapter that came with its cover: nothing to ask either.
        let withCover = try Channel()
        try await page(host, 153, chapter: 6, progress: 1, cover: jpegBytes(), options: ["cover_channel": Variant(withCover.service)])
        #expect(withCover.answer() == "0")
        #expect(try await host.waitForReloads(2).map(\.reason) == ["chapter-change", "chapter-change"])
    }

    /// A cover that is not an image, or no cover at all: the chapter is published without one.
    @Test(arguments: [[UInt8](), Array("<html>not an image</html>".utf8)])
    func aRefusedOrMissingCoverLeavesTheChapterWithout(_ sent: [UInt8]) async throws {
        let host = try await ServiceHost.start()
        defer { host.stop() }
        let channel = try Channel()
        try await page(host, 130, chapter: 5, progress: 8, options: ["cover_channel": Variant(channel.service)])
        #expect(channel.answer() == "1")
        channel.send(sent)
        let reloads = try await host.waitForReloads(1)
        #expect(reloads.map(\.reason) == ["chapter-change"])
        try expectEntry(reloads[0].entry, chapter: 5, name: "The Tournament Goes On", progress: 8, imagePath: "")
        #expect(!FileManager.default.fileExists(atPath: host.folder.coverImagePath))
    }

    /// The catalogue goes with the page: the reload that follows counts the pages after the one
    /// just read, never the pages read.
    @Test func theCatalogueIsStoredWithThePosition() async throws {
        let host = try await ServiceHost.start()
        defer { host.stop() }
        try storeCatalogue(of: .small, in: host.folder.path)
        try await page(host, 152, chapter: 5, progress: 100, cover: jpegBytes(), options: [:])
        _ = try await host.waitForReloads(1)
        let newer = try catalogue(of: FixtureComic.small.publishing(3))
        try await page(host, 155, chapter: 5, progress: 100, options: ["catalogue": Variant(newer.encodeJSON())])
        try await host.sync()
        #expect(try await host.property(Widget1.latestPage) == 155)
        #expect(try await host.property(Widget1.newPages) == 0)
        #expect(try host.reloads().allSatisfy { try $0.entry.value("new-pages", Int32.self) == 0 })
        #expect(host.folder.readCatalogue(.english).value?.latestPage == 155)

        // A catalogue that does not decode is the call's error: nothing stored.
        let before = try Data(contentsOf: URL(fileURLWithPath: host.folder.chapterDataPath))
        await expectError("com.nobadi.DBMultiverse.Error.StorageFailed", containing: []) {
            try await page(host, 156, chapter: 5, progress: 100, options: ["catalogue": Variant(Array("{}".utf8))])
        }
        #expect(try Data(contentsOf: URL(fileURLWithPath: host.folder.chapterDataPath)) == before)
    }
}
