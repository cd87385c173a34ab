@testable import ComicDomain
import DBus
import DBusTestSupport
import DesktopTestSupport
@testable import Recorder
import Foundation
import Site
import SiteTestSupport
import Testing
import Widget
import TestingTraits

/// The page recorder (docs/usage.md `update --page`, docs/browser-extension.md) in-process: a real service on a private bus
/// with a manual clock, the fixture site, and the recorder blocking on its own connection.
@Suite(.timeLimit(.minutes(10)), .holds(.privateBuses), .offThePool) struct PageRecorderTests {
    /// The service, the fixture site serving the small comic, and recorders pointed at both.
    final class Setup {
        let host: ServiceHost
        let site: FixtureSite
        let warnings = WarningLines()

        init() async throws {
            host = try await ServiceHost.start()
            site = try FixtureSite()
            site.publish(.small)
        }

        deinit {
            site.stop()
            host.stop()
        }

        /// A recorder as one command makes it: its own lookup (politeness log) and connection.
        func recorder() throws -> PageRecorder {
            let warnings = self.warnings
            let configuration = SiteConfiguration(origin: try SiteOrigin(parsing: site.origin), folder: host.folder,
                                                  warn: { warnings.add($0) })
            return PageRecorder(lookup: PageLookup(configuration: configuration), caller: try BlockingCaller(address: .address(host.bus.address)))
        }

        func record(_ page: Int) throws -> RecordedPage {
            try recorder().record(try SitePage(language: .english, number: page))
        }

        var catalogueLatestPage: Int? { host.folder.readCatalogue(.english).value?.latestPage }
    }

    @Test func anotherChapterComesWithItsCoverTheSameChapterWithoutAnyRequestForIt() async throws {
        let setup = try await Setup()
        let first = try setup.record(130)
        #expect(first.description == "en page 130: Chapter 5: The Tournament Goes On, 8% (another chapter, with its cover)")
        var reloads = try await setup.host.waitForReloads(1)
        #expect(reloads.map(\.reason) == ["chapter-change"])
        try expectEntry(reloads[0].entry, chapter: 5, name: "The Tournament Goes On", progress: 8,
                        imagePath: setup.host.folder.coverImagePath, latestPage: 152, newPages: 22)
        #expect(FileManager.default.contents(atPath: setup.host.folder.coverImagePath) == Data(FixtureSite.pngBytes),
                "the image of the chapter's first page")
        #expect(setup.site.count("/en/page-129.html") == 1)
        #expect(setup.catalogueLatestPage == 152, "the first catalogue, stored by the lookup")

        let requests = setup.site.requests.count
        let next = try setup.record(140)
        #expect(next.description == "en page 140: Chapter 5: The Tournament Goes On, 50% (same chapter)")
        #expect(setup.site.requests.count == requests, "the stored catalogue answers, and no cover is asked for")
        try await setup.host.advance(by: .seconds(2))
        reloads = try await setup.host.waitForReloads(2)
        #expect(reloads.map(\.reason) == ["chapter-change", "progress-change"])
        try expectEntry(reloads[1].entry, chapter: 5, name: "The Tournament Goes On", progress: 50,
                        imagePath: setup.host.folder.coverImagePath, latestPage: 152, newPages: 12)

        // A special's page: another chapter (universe 3, chapter 1), its own cover.
        let special = try setup.record(100)
        #expect(special.description == "en page 100: Special Universe 3 · Chapter 1: The Special Begins, 40% (another chapter, with its cover)")
        reloads = try await setup.host.waitForReloads(3)
        try expectEntry(reloads[2].entry, chapter: 1, name: "The Special Begins", progress: 40, imagePath: setup.host.folder.coverImagePath,
                        universe: 3, latestPage: 152, deepLink: "dbmultiverse://page/100")
    }

    /// A page past the catalogue's end fetches a newer catalogue. The service must never see the
    /// new latest page before the reader's new position, or the `pages-published` reload would count
    /// the pages just read: the catalogue goes with the page in the one `UpdatePage`, and both are
    /// stored together. (Storing the catalogue before `UpdatePage` made this fail: that reload then
    /// said 3 new pages.)
    @Test func theNewPositionIsStoredWithTheNewerCatalogue() async throws {
        let setup = try await Setup()
        _ = try setup.record(152) // the last page: caught up
        try await setup.host.waitForReloads(1)
        #expect(try await setup.host.property(Widget1.newPages) == 0)

        setup.site.publish(FixtureComic.small.publishing(3))
        let latest = try setup.record(155) // past the stored catalogue's end: fetched again
        #expect(latest.latestPage == 155 && !latest.isAnotherChapter)
        #expect(setup.site.count("/en/chapters.html?comic=page&chaptersmode=1") == 2)
        let reloads = try await setup.host.waitForReloads(2)
        #expect(reloads.map(\.reason) == ["chapter-change", "pages-published"])
        try expectEntry(reloads[1].entry, chapter: 5, name: "The Tournament Goes On", progress: 100,
                        imagePath: setup.host.folder.coverImagePath, latestPage: 155, newPages: 0)
        #expect(try setup.host.reloads().allSatisfy { try $0.entry.value("new-pages", Int32.self) == 0 },
                "no reload ever counted a page the reader had read")
    }

    @Test func aPageNoChapterHoldsReachesNothing() async throws {
        let setup = try await Setup()
        _ = try setup.record(140)
        try await setup.host.waitForReloads(1)
        try await setup.host.sync() // the reload's handler (the cover's end) has also written the sync state
        let before = try snapshot(setup.host.folder.path)
        setup.site.publish(FixtureComic.small.publishing(3))
        let missing = try #require(throws: PageRecordingError.self) { try setup.record(5000) }
        guard case .site(let error) = missing else { throw FixtureError("expected a site error: \(missing)") }
        #expect(error.kind == .pageNotFound && error.message.contains("pages 1–155"), "\(error)")
        try await setup.host.sync()
        #expect(try setup.host.reloads().count == 1)
        #expect(try snapshot(setup.host.folder.path).filter { $0.key != "siteRequests.json" } == before.filter { $0.key != "siteRequests.json" },
                "nothing stored, not even the newer catalogue")
    }

    /// The service refuses the page (here: its storage is broken): the newer catalogue is not stored
    /// either, so the service never sees a latest page newer than the reader's.
    @Test func aPageTheServiceRefusesLeavesTheNewerCatalogueUnstored() async throws {
        let setup = try await Setup()
        _ = try setup.record(140)
        try await setup.host.waitForReloads(1)
        setup.site.publish(FixtureComic.small.publishing(3))
        try FileManager.default.removeItem(atPath: setup.host.folder.chapterDataPath)
        try FileManager.default.createDirectory(atPath: setup.host.folder.chapterDataPath, withIntermediateDirectories: false)
        let refused = try #require(throws: PageRecordingError.self) { try setup.record(154) }
        guard case .bus(let busError) = refused else { throw FixtureError("expected a bus error: \(refused)") }
        #expect(busError.name == "com.nobadi.DBMultiverse.Error.StorageFailed", "\(busError)")
        #expect(setup.catalogueLatestPage == 152)
    }
}

/// Warnings a recorder reported. `@unchecked Sendable`: under the lock.
final class WarningLines: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func add(_ line: String) { lock.lock(); lines.append(line); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return lines }
}
