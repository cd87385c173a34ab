@testable import ComicDomain
import Foundation
@testable import Site
import SiteTestSupport
import Testing
import TestingTraits

/// A wall clock the test moves by hand. `@unchecked Sendable`: the value is read and written
/// under the lock.
final class ManualWallClock: @unchecked Sendable {
    private let lock = NSLock()
    private var seconds: Int64 = 1_795_000_000
    func now() -> Int64 { lock.lock(); defer { lock.unlock() }; return seconds }
    func advance(_ by: Int64) { lock.lock(); seconds += by; lock.unlock() }
}

/// Warnings a run reported. `@unchecked Sendable`: under the lock.
final class WarningLog: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []
    func add(_ line: String) { lock.lock(); lines.append(line); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return lines }
}

/// A data folder, the fixture site and a clock for one test.
struct SiteFixture {
    let site: FixtureSite
    let folder: String
    let clock = ManualWallClock()
    let warnings = WarningLog()

    init() throws {
        site = try FixtureSite()
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("dbm-site-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    func configuration(totalTimeoutMilliseconds: Int = 30_000) throws -> SiteConfiguration {
        let clock = self.clock, warnings = self.warnings
        var limits = FetchLimits.standard
        limits.totalTimeoutMilliseconds = totalTimeoutMilliseconds
        return SiteConfiguration(origin: try SiteOrigin(parsing: site.origin), folder: DataFolder(path: folder), limits: limits,
                                 now: { clock.now() }, warn: { warnings.add($0) })
    }

    func sync(force: Bool = false, language: SiteLanguage = .english) throws -> CatalogueSync.Summary {
        try CatalogueSync(configuration: configuration()).sync(language: language, force: force)
    }

    /// A fixture whose site publishes the small comic, synced once: the stored catalogue's bytes.
    static func withSmallCatalogue() throws -> (SiteFixture, Data) {
        let fixture = try SiteFixture()
        fixture.site.publish(.small)
        _ = try fixture.sync()
        return (fixture, try #require(fixture.catalogueBytes))
    }

    func syncError(force: Bool = false) throws -> SiteError {
        try #require(throws: SiteError.self) { try sync(force: force) }
    }

    var cataloguePath: String { folder + "/chapters-en.json" }
    var catalogueBytes: Data? { FileManager.default.contents(atPath: cataloguePath) }

    func stop() {
        site.stop()
        try? FileManager.default.removeItem(atPath: folder)
    }

    static let feed = "/flux.rss.php?lang=en"
    static let list = "/en/chapters.html?comic=page&chaptersmode=1"
}

@Suite(.timeLimit(.minutes(10)), .offThePool)
struct SyncTests {
    @Test func firstSyncReadsFeedAndListAndStoresTheCatalogue() throws {
        let fixture = try SiteFixture()
        defer { fixture.stop() }
        fixture.site.publish(.small)
        let summary = try fixture.sync()
        #expect(summary.line == "en: 8 chapters, pages 1–152, latest page 152 (new catalogue)")
        #expect(summary.requests == 2)
        #expect(fixture.site.count(SiteFixture.feed) == 1 && fixture.site.count(SiteFixture.list) == 1)
        let agent = fixture.site.requests.first?.headers["user-agent"]
        #expect(agent == "dbmultiverse-desktop/\(ProjectInfo.version) (+\(ProjectInfo.url))")
        let stored = try #require(DataFolder(path: fixture.folder).readCatalogue(.english).value)
        #expect(stored.chapters.count == 8)
        #expect(stored.fetch.etag == "\"list-152-8\"")
        var status = stat()
        #expect(stat(fixture.cataloguePath, &status) == 0 && status.st_mode & 0o777 == 0o600)
    }

    @Test func fifteenMinuteRuleThenConditionalRequestsAnd304() throws {
        let fixture = try SiteFixture()
        defer { fixture.stop() }
        fixture.site.publish(.small)
        _ = try fixture.sync()
        let before = fixture.catalogueBytes

        fixture.clock.advance(14 * 60)
        let recent = try fixture.sync()
        #expect(recent.requests == 0)
        #expect(recent.line.hasSuffix("(checked 14 min ago; not asked again before 15 min)"), "\(recent.line)")

        fixture.clock.advance(60)
        let unchanged = try fixture.sync()
        #expect(unchanged.requests == 1, "only the feed")
        #expect(unchanged.line == "en: 8 chapters, pages 1–152, latest page 152 (unchanged)")
        let conditional = try #require(fixture.site.requests(for: SiteFixture.feed).last)
        #expect(conditional.headers["if-none-match"] == "W/\"feed-152\"", "the weak ETag exactly as received")
        #expect(conditional.headers["if-modified-since"] == "Wed, 22 Nov 2026 20:00:00 GMT")
        #expect(fixture.site.count(SiteFixture.list) == 1)
        #expect(fixture.catalogueBytes == before, "a 304 leaves the file as it was")
    }

    @Test func newPagesRefreshTheListConditionally() throws {
        let fixture = try SiteFixture()
        defer { fixture.stop() }
        fixture.site.publish(.small)
        _ = try fixture.sync()
        fixture.site.publish(FixtureComic.small.publishing(3))
        fixture.clock.advance(16 * 60)
        let summary = try fixture.sync()
        #expect(summary.line == "en: 8 chapters, pages 1–155, latest page 155 (3 new pages)", "\(summary.line)")
        #expect(summary.catalogue.chapters[4].endPage == 155)
        let list = try #require(fixture.site.requests(for: SiteFixture.list).last)
        #expect(list.headers["if-none-match"] == "\"list-152-8\"")
    }

    @Test func forceReadsTheListWithinFifteenMinutes() throws {
        let fixture = try SiteFixture()
        defer { fixture.stop() }
        fixture.site.publish(.small)
        _ = try fixture.sync()
        let forced = try fixture.sync(force: true)
        #expect(forced.requests == 2)
        #expect(fixture.site.count(SiteFixture.list) == 2)
        #expect(fixture.site.count(SiteFixture.feed) == 2)
    }

    @Test(arguments: [429, 503])
    func retryAfterIsHonouredAcrossRunsEvenWithForce(_ status: Int) throws {
        let fixture = try SiteFixture()
        defer { fixture.stop() }
        fixture.site.publish(.small)
        fixture.site.serve(SiteFixture.feed, .status(status, retryAfter: "3600"))
        let error = try fixture.syncError()
        #expect(error.kind == .retryLater)
        #expect(error.message.contains("HTTP \(status)") && error.message.contains("Retry-After"), "\(error.message)")
        // A later run (a new client reading the log), forced: not asked before the deadline.
        fixture.clock.advance(30 * 60)
        let held = try fixture.syncError(force: true)
        #expect(held.kind == .retryLater && held.message.contains("not asking before then"), "\(held.message)")
        #expect(fixture.site.count(SiteFixture.feed) == 1)
        fixture.site.publish(.small)
        fixture.clock.advance(31 * 60)
        #expect(try fixture.sync().requests == 2)
    }

    @Test func retryAfterAsAnHTTPDate() throws {
        #expect(SiteClient.retryDeadline("Sun, 06 Nov 1994 08:49:37 GMT", now: 0) == 784_111_777)
        #expect(SiteClient.retryDeadline("120", now: 1000) == 1120)
        #expect(SiteClient.retryDeadline("soon", now: 1000) == nil)
        #expect(utcTime(784_111_777) == "1994-11-06 08:49 UTC")
    }

    @Test func fewerChaptersNeverReplaceTheStoredCatalogue() throws {
        let (fixture, before) = try SiteFixture.withSmallCatalogue()
        defer { fixture.stop() }
        var shorter = FixtureComic.small
        shorter.chapters.removeLast(2)
        fixture.site.publish(shorter.publishing(1))
        let error = try fixture.syncError(force: true)
        #expect(error.message.contains("fewer than the 8 stored"), "\(error.message)")
        #expect(fixture.catalogueBytes == before)
    }

    @Test func zeroChaptersIsAMarkupChangeThatKeepsTheCatalogue() throws {
        let (fixture, before) = try SiteFixture.withSmallCatalogue()
        defer { fixture.stop() }
        fixture.site.serve(SiteFixture.list, .content(body: Array("<html><body><h1>New site!</h1></body></html>".utf8), contentType: "text/html"))
        let error = try fixture.syncError(force: true)
        #expect(error.message.contains("no chapters found"), "\(error.message)")
        #expect(fixture.catalogueBytes == before)
    }

    @Test func gzipBodiesWithoutContentLength() throws {
        let fixture = try SiteFixture()
        defer { fixture.stop() }
        fixture.site.publish(.small, gzip: true)
        #expect(try fixture.sync().catalogue.chapters.count == 8)
        #expect(fixture.site.requests.first?.headers["accept-encoding"]?.contains("gzip") == true)
    }

    @Test func rss2FeedAndDriftingMarkup() throws {
        let fixture = try SiteFixture()
        defer { fixture.stop() }
        fixture.site.publish(.small, list: .drift, feedRSS2: true)
        let summary = try fixture.sync()
        #expect(summary.line == "en: 8 chapters, pages 1–152, latest page 152 (new catalogue)")
    }

    @Test func aCorruptRequestLogIsReportedAndIgnored() throws {
        let fixture = try SiteFixture()
        defer { fixture.stop() }
        fixture.site.publish(.small)
        try Data("{not json".utf8).write(to: URL(fileURLWithPath: fixture.folder + "/siteRequests.json"))
        #expect(try fixture.sync().requests == 2)
        #expect(fixture.warnings.all.contains { $0.contains("ignoring the site request log") }, "\(fixture.warnings.all)")
    }

    @Test func aTricklingServerIsStoppedByTheTotalTimeout() throws {
        let fixture = try SiteFixture()
        defer { fixture.stop() }
        fixture.site.serve(SiteFixture.feed, .trickle(interval: 1))
        let started = Date()
        let error = try #require(throws: SiteError.self) {
            try CatalogueSync(configuration: fixture.configuration(totalTimeoutMilliseconds: 1500)).sync(language: .english, force: false)
        }
        #expect(error.kind == .timeout, "\(error.message)")
        #expect(Date().timeIntervalSince(started) < 10)
    }
}

@Suite(.timeLimit(.minutes(10)), .offThePool)
struct PageLookupTests {
    @Test func pageToChapterProgressUniverseAndCover() throws {
        let fixture = try SiteFixture()
        defer { fixture.stop() }
        fixture.site.publish(.small, pages: .divStyle)
        let lookup = PageLookup(configuration: try fixture.configuration())
        let result = try lookup.lookUp(page: SitePage(language: .english, number: 30))
        #expect(result.chapter.number == 2 && result.chapter.name == "Vegeta & <Goku>")
        #expect(result.position.progress == (30 - 25 + 1) * 100 / 24)
        #expect(result.universe == nil && result.latestPage == 152)
        #expect(fixture.site.count("/en/page-25.html") == 0, "no cover asked for yet")
        #expect(lookup.cover(of: result.chapter, language: .english) == FixtureSite.pngBytes, "the first page's image")
        #expect(fixture.site.count("/en/page-25.html") == 1)

        // A first catalogue is stored at once: it announces nothing.
        #expect(result.fetchedCatalogue == nil)
        let stored = try #require(DataFolder(path: fixture.folder).readCatalogue(.english).value)
        #expect(stored.latestPage == 152 && stored.chapters.count == 8)

        let special = try lookup.lookUp(page: SitePage(language: .english, number: 106))
        #expect(special.chapter.number == 1 && special.universe == 3 && special.position.progress == 100)
        #expect(special.fetchedCatalogue == nil, "the stored catalogue answers")
        #expect(fixture.site.count(SiteFixture.list) == 1)
    }

    @Test func aPagePastTheEndRefetchesWithinFifteenMinutes() throws {
        let fixture = try SiteFixture()
        defer { fixture.stop() }
        fixture.site.publish(.small)
        let lookup = PageLookup(configuration: try fixture.configuration())
        _ = try lookup.lookUp(page: SitePage(language: .english, number: 1))
        let stored = try #require(fixture.catalogueBytes)
        fixture.site.publish(FixtureComic.small.publishing(2))
        let result = try lookup.lookUp(page: SitePage(language: .english, number: 154))
        #expect(result.chapter.number == 5 && result.position.progress == 100 && result.latestPage == 154)
        #expect(fixture.site.count(SiteFixture.list) == 2)
        let fetched = try #require(result.fetchedCatalogue)
        #expect(fetched.latestPage == 154)
        #expect(fixture.catalogueBytes == stored, "a newer catalogue is not stored by the lookup: the service stores it with the page")
        let missing = try #require(throws: SiteError.self) { try lookup.lookUp(page: SitePage(language: .english, number: 500)) }
        #expect(missing.kind == .pageNotFound, "\(missing.message)")
    }

    @Test func aCoverThatIsNotAnImageFallsBackToTheThumbnail() throws {
        let fixture = try SiteFixture()
        defer { fixture.stop() }
        fixture.site.publish(.small)
        fixture.site.serve("/images/page-25.png", .content(body: Array("<html>not an image</html>".utf8), contentType: "image/png"))
        let lookup = PageLookup(configuration: try fixture.configuration())
        let result = try lookup.lookUp(page: SitePage(language: .english, number: 30))
        #expect(lookup.cover(of: result.chapter, language: .english) == FixtureSite.jpegBytes)
        #expect(fixture.warnings.all.contains { $0.contains("cover is neither JPEG nor PNG") }, "\(fixture.warnings.all)")
    }
}
