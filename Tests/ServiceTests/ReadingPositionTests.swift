@testable import Service
@testable import ComicDomain
import DBus
import DBusTestSupport
import DesktopTestSupport
import Foundation
import SiteTestSupport
import Testing
import TestingTraits
import Widget

/// The reading position on a real service over a private bus, timed by a manual clock (docs/usage.md#the-comics-site, docs/browser-extension.md, docs/notifications.md): `UpdatePage`, specials, the catalogue the service reads from the data folder,
/// `LatestPage` / `NewPages`, `pages-published`, and page links.
@Suite(.timeLimit(.minutes(10)), .holds(.privateBuses)) struct ReadingPositionTests {
    let empty: [UInt8] = []
    let noOptions: [String: Variant] = [:]
    static let application: InterfaceName = "org.freedesktop.Application"

    /// `UpdatePage` as a reader calls it, for the small comic's chapters.
    func page(_ host: ServiceHost, _ page: Int32, chapter: Int32, name: String = "The Tournament Goes On", progress: Int32,
              language: String = "en", universe: Int32? = nil, cover: [UInt8] = []) async throws {
        let options: [String: Variant] = universe.map { ["universe": Variant($0)] } ?? [:]
        try await host.call(Widget1.updatePage, page, language, chapter, name, progress, cover, options)
    }

    func stored(_ host: ServiceHost) throws -> [String: Any] { try jsonObject(at: host.folder.chapterDataPath) }

    @Test func aPageOfAnotherChapterStoresItAllAndReloadsAtOnce() async throws {
        let host = try await ServiceHost.start()
        defer { host.stop() }
        try await page(host, 130, chapter: 5, progress: 8, cover: jpegBytes())
        let reloads = try host.reloads()
        #expect(reloads.map(\.reason) == ["chapter-change"])
        try expectEntry(reloads[0].entry, chapter: 5, name: "The Tournament Goes On", progress: 8, imagePath: host.folder.coverImagePath)
        #expect(try await host.property(Widget1.chapter) == 5)
        #expect(try await host.property(Widget1.progress) == 8)
        let data = try stored(host)
        #expect(data["page"] as? Int == 130 && data["language"] as? String == "en" && data["universe"] == nil)
        #expect(FileManager.default.contents(atPath: host.folder.coverImagePath) == Data(jpegBytes()))
        #expect(try jsonObject(at: host.folder.syncStatePath) as NSDictionary == ["chapter": 5, "progress": 8])
    }

    @Test func aLaterPageOfTheSameChapterIsOneDebouncedProgressChange() async throws {
        let host = try await ServiceHost.start()
        defer { host.stop() }
        try await page(host, 130, chapter: 5, progress: 8, cover: jpegBytes())
        let coverBefore = FileManager.default.contents(atPath: host.folder.coverImagePath)
        // The same chapter, read further (a name and cover sent again are not stored: the chapter's stay).
        try await page(host, 138, chapter: 5, name: "Renamed?", progress: 41, language: "fr", cover: pngBytes())
        try await host.advance(by: .milliseconds(500))
        try await page(host, 140, chapter: 5, name: "Renamed?", progress: 50, language: "fr", cover: pngBytes())
        try await host.sync()
        #expect(try host.reloads().map(\.reason) == ["chapter-change"], "not the immediate requested of UpdateChapter")
        let data = try stored(host)
        #expect(data["page"] as? Int == 140 && data["language"] as? String == "fr" && data["progress"] as? Int == 50)
        #expect(data["name"] as? String == "The Tournament Goes On")
        #expect(FileManager.default.contents(atPath: host.folder.coverImagePath) == coverBefore)

        try await host.settle(after: .milliseconds(1999))
        #expect(try host.reloads().count == 1, "2 s after the last page")
        try await host.settle(after: .milliseconds(1))
        let reloads = try host.reloads()
        #expect(reloads.map(\.reason) == ["chapter-change", "progress-change"])
        try expectEntry(reloads[1].entry, chapter: 5, name: "The Tournament Goes On", progress: 50, imagePath: host.folder.coverImagePath)
        #expect(try await host.property(Widget1.progress) == 50)
    }

    @Test func aSpecialsPageSetsTheUniverseAndThePageLink() async throws {
        let host = try await ServiceHost.start()
        defer { host.stop() }
        try await page(host, 130, chapter: 5, progress: 8)
        // Chapter 1 of Special Universe 3, then chapter 1 of the main story: three chapters.
        try await page(host, 101, chapter: 1, name: "The Special Begins", progress: 50, universe: 3)
        var reloads = try host.reloads()
        #expect(reloads.map(\.reason) == ["chapter-change", "chapter-change"])
        try expectEntry(reloads[1].entry, chapter: 1, name: "The Special Begins", progress: 50, universe: 3,
                        deepLink: "dbmultiverse://page/101")
        #expect(try await host.property(Widget1.deepLink) == "dbmultiverse://page/101")
        #expect(try stored(host)["universe"] as? Int == 3)
        #expect(try jsonObject(at: host.folder.syncStatePath) as NSDictionary == ["chapter": 1, "progress": 50, "universe": 3])
        // Moving on in the special keeps its universe.
        try await page(host, 103, chapter: 1, name: "The Special Begins", progress: 70, universe: 3)
        #expect(try stored(host)["universe"] as? Int == 3)

        try await page(host, 5, chapter: 1, name: "A Really Strange Tournament!", progress: 20, universe: 0)
        reloads = try host.reloads()
        #expect(reloads.map(\.reason) == ["chapter-change", "chapter-change", "chapter-change"])
        try expectEntry(reloads[2].entry, chapter: 1, name: "A Really Strange Tournament!", progress: 20)
        #expect(try stored(host)["universe"] == nil)
        #expect(try await host.property(Widget1.deepLink) == "dbmultiverse://chapter/1")
    }

    // MARK: The catalogue: latest page and new pages

    /// A service whose reader is on page 140 (chapter 5, 50 %) of the small comic, in English.
    func readingPage140() async throws -> ServiceHost {
        let host = try await ServiceHost.start()
        try await page(host, 140, chapter: 5, progress: 50)
        return host
    }

    /// The same, with the small comic's catalogue stored and read (its reload seen).
    func readingPage140WithTheCatalogue() async throws -> ServiceHost {
        let host = try await readingPage140()
        try storeCatalogue(of: .small, in: host.folder.path)
        try await host.waitForReloads(2)
        return host
    }

    /// The small comic's specials (pages 97–128) came out between chapters 4 (73–96) and 5
    /// (129–152). A reader on page 90 has 30 main-story pages to read, the first of them page 91 —
    /// latest − new + 1 would be 123, a page of Broly's special; on page 96, the first is 129. The
    /// entry names the page "Read new pages" (the notification, the cards and the tray) open, and the next chapter's
    /// name from the catalogue.
    @Test func theFirstUnreadPageSkipsTheSpecialsPublishedBetween() async throws {
        let host = try await ServiceHost.start()
        defer { host.stop() }
        try storeCatalogue(of: .small, in: host.folder.path)
        try await page(host, 90, chapter: 4, name: "超サイヤ人の戦い", progress: 75) // a chapter change: reloads at once
        let entry = try await host.property(Widget1.entry)
        #expect(try entry.value("new-pages", Int32.self) == 30 && entry.value("first-unread-page", Int32.self) == 91)
        #expect(try entry.value("next-chapter", Int32.self) == 5 && entry.value("next-chapter-name", String.self) == "The Tournament Goes On")
        try await page(host, 96, chapter: 4, name: "超サイヤ人の戦い", progress: 100)
        try await host.advance(by: .seconds(2)) // the debounced progress reload
        let atTheSpecials = try await host.property(Widget1.entry)
        #expect(try atTheSpecials.value("new-pages", Int32.self) == 24)
        #expect(try atTheSpecials.value("first-unread-page", Int32.self) == 129, "the specials' pages 97–128 are skipped")
    }

    @Test func theCatalogueGivesLatestPageAndNewPagesAndPublishingReloadsAtOnce() async throws {
        let host = try await readingPage140()
        defer { host.stop() }
        // A first catalogue: the counts appear, as a requested reload (nothing was published).
        try storeCatalogue(of: .small, in: host.folder.path)
        var reloads = try await host.waitForReloads(2)
        #expect(reloads[1].reason == "requested")
        try expectEntry(reloads[1].entry, chapter: 5, name: "The Tournament Goes On", progress: 50, latestPage: 152, newPages: 12)
        #expect(try await host.property(Widget1.latestPage) == 152)
        #expect(try await host.property(Widget1.newPages) == 12)
        let changed = try #require(try host.propertyChanges().last)
        #expect(try changed.value("LatestPage", Int32.self) == 152 && changed.value("NewPages", Int32.self) == 12)
        #expect(try jsonObject(at: host.folder.syncStatePath) as NSDictionary
                == ["chapter": 5, "progress": 50, "latestPage": 152, "language": "en"])

        // Three pages published: at once, pages-published, whatever the progress rule waits for.
        try await page(host, 142, chapter: 5, progress: 58)
        try storeCatalogue(of: FixtureComic.small.publishing(3), in: host.folder.path)
        reloads = try await host.waitForReloads(3)
        #expect(reloads[2].reason == "pages-published")
        try expectEntry(reloads[2].entry, chapter: 5, name: "The Tournament Goes On", progress: 58, latestPage: 155, newPages: 13)
        #expect(try await host.property(Widget1.newPages) == 13)
        try await host.settle(after: .seconds(2))
        #expect(try host.reloads().count == 3, "the pending progress went with the pages-published reload")

        // The same catalogue written again (sync's echo, a touch): nothing; the next one is seen alone.
        try storeCatalogue(of: FixtureComic.small.publishing(3), in: host.folder.path)
        try storeCatalogue(of: FixtureComic.small.publishing(4), in: host.folder.path)
        reloads = try await host.waitForReloads(4)
        try await host.sync()
        #expect(try host.reloads().map(\.reason) == ["chapter-change", "requested", "pages-published", "pages-published"])
        try expectEntry(reloads[3].entry, chapter: 5, name: "The Tournament Goes On", progress: 58, latestPage: 156, newPages: 14)
    }

    @Test func aRollbackNeverCountsNegative() async throws {
        let host = try await readingPage140WithTheCatalogue()
        defer { host.stop() }
        // The site went back to page 138, before the reader's page.
        try storeCatalogue(of: FixtureComic.small.rolledBack(to: 138), in: host.folder.path)
        let reloads = try await host.waitForReloads(3)
        #expect(reloads[2].reason == "requested", "no new pages")
        // The latest page is the reader's: page 140 was published, it was read.
        try expectEntry(reloads[2].entry, chapter: 5, name: "The Tournament Goes On", progress: 50, latestPage: 140, newPages: 0)
        // And a reader past the latest page by their own update stays at 0, the page read the latest.
        try await host.call(Widget1.updateChapter, Int32(5), "The Tournament Goes On", Int32(90), empty,
                            ["page": Variant(Int32(150)), "language": Variant("en")])
        #expect(try await host.property(Widget1.newPages) == 0)
        #expect(try await host.property(Widget1.latestPage) == 150)
    }

    @Test func readingInAnotherLanguageIsNoPublication() async throws {
        let host = try await readingPage140WithTheCatalogue()
        defer { host.stop() }
        let french = try #require(SiteLanguage(code: "fr"))
        try storeCatalogue(of: FixtureComic.small.publishing(8), language: french, in: host.folder.path)
        try await host.sync()
        // The same chapter in French, whose catalogue is further: the counts change, nothing is published.
        try await page(host, 141, chapter: 5, progress: 54, language: "fr")
        let reloads = try host.reloads()
        #expect(reloads.map(\.reason) == ["chapter-change", "requested", "requested"])
        try expectEntry(reloads[2].entry, chapter: 5, name: "The Tournament Goes On", progress: 54, latestPage: 160, newPages: 19)
    }

    @Test func inASpecialNothingIsNew() async throws {
        let host = try await ServiceHost.start()
        defer { host.stop() }
        try storeCatalogue(of: FixtureComic.small.publishing(5), in: host.folder.path)
        try await page(host, 101, chapter: 1, name: "The Special Begins", progress: 50, universe: 3)
        try expectEntry(try #require(try host.reloads().last).entry, chapter: 1, name: "The Special Begins", progress: 50,
                        universe: 3, latestPage: 157, newPages: 0, deepLink: "dbmultiverse://page/101")
        // The main story again: its unread pages, the specials' not counted.
        try await page(host, 90, chapter: 4, name: "超サイヤ人の戦い", progress: 75)
        try expectEntry(try #require(try host.reloads().last).entry, chapter: 4, name: "超サイヤ人の戦い", progress: 75,
                        latestPage: 157, newPages: 6 + 29)
    }

    @Test func atStartPagesPublishedWhileDownAreCaughtUp() async throws {
        let folder = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(#"{"chapter":5,"progress":50,"latestPage":152,"language":"en"}"#.utf8)
            .write(to: URL(fileURLWithPath: folder + "/widgetSyncState.json"))
        try chapterJSON(number: 5, name: "Five", progress: 50, extra: #","page":140,"language":"en""#)
            .write(to: URL(fileURLWithPath: folder + "/currentChapterData.json"))
        try storeCatalogue(of: FixtureComic.small.publishing(2), in: folder)
        let host = try await ServiceHost.start(folder: folder)
        defer { host.stop() }
        try await host.sync()
        let reloads = try host.reloads()
        #expect(reloads.map(\.reason) == ["pages-published"])
        try expectEntry(reloads[0].entry, chapter: 5, name: "Five", progress: 50, latestPage: 154, newPages: 14)
    }

    @Test func aBadCatalogueIsIgnored() async throws {
        let host = try await readingPage140WithTheCatalogue()
        defer { host.stop() }
        try writeAtomically(Data("{not json".utf8), to: host.folder.path + "/chapters-en.json")
        let reloads = try await host.waitForReloads(3)
        #expect(reloads[2].reason == "requested")
        try expectEntry(reloads[2].entry, chapter: 5, name: "The Tournament Goes On", progress: 50)
    }

    // MARK: Page links

    @Test func pageLinksOpenAndReportTheirMainStoryChapter() async throws {
        let host = try await readingPage140()
        defer { host.stop() }
        func opened() throws -> [OpenRequest] {
            try host.signals.all.filter { $0.member == "OpenRequested" }.map {
                let (chapter, uri) = try $0.decode(Int32.self, String.self)
                return OpenRequest(chapter: chapter, uri: uri)
            }
        }
        // Without a catalogue, the chapter is unknown.
        try await host.call(FreedesktopApplication.open, ["dbmultiverse://page/130"], noOptions)
        try storeCatalogue(of: .small, in: host.folder.path)
        try await host.waitForReloads(2)
        try await host.call(FreedesktopApplication.open, ["DBMultiverse://Page/130/", "dbmultiverse://page/100", "dbmultiverse://chapter/3"], noOptions)
        try await host.call(FreedesktopApplication.activateAction, "open-page", [Variant(Int32(26))], noOptions)
        #expect(try opened() == [
            OpenRequest(chapter: 0, uri: "dbmultiverse://page/130"),
            OpenRequest(chapter: 5, uri: "dbmultiverse://page/130"),
            OpenRequest(chapter: 0, uri: "dbmultiverse://page/100"), // a special's page
            OpenRequest(chapter: 3, uri: "dbmultiverse://chapter/3"),
            OpenRequest(chapter: 2, uri: "dbmultiverse://page/26"),
        ])

        // In a special, continuing opens the page, not the main story's chapter of that number.
        try await page(host, 101, chapter: 1, name: "The Special Begins", progress: 50, universe: 3)
        try await host.call(FreedesktopApplication.activateAction, "open-current", [Variant](), noOptions)
        try await host.call(FreedesktopApplication.activate, noOptions)
        #expect(try opened().suffix(2) == [OpenRequest(chapter: 0, uri: "dbmultiverse://page/101"),
                                           OpenRequest(chapter: 0, uri: "dbmultiverse://page/101")])
    }
}
