import BrowserHistory
import BrowserHistoryFixtures
import ComicDomain
import DBusTestSupport
import Foundation
import Glibc
import Testing

/// Reading the newest comic page from history databases in the browsers' real schemas: epochs,
/// validation, several profiles, a running browser's lock and WAL, and broken files. Every
/// lookup is checked to leave the browsers' files byte-identical and no copy behind.
@Suite(.timeLimit(.minutes(10))) struct HistoryReadingTests {
    @Test func theNewestValidComicPageWins() async throws {
        let home = try ProfileHome()
        defer { home.remove() }
        try await home.addFirefoxProfile("abcd.default-release", visits: [
            comicPage(979, after: 0), comicPage(980, after: 3600), otherPage("later", after: 7200),
            // Later, but not pages of the comic: each must be skipped, not taken.
            PageVisit("\(site)/en/page-0981.html", atUnixSeconds: t0 + 7300),
            PageVisit("\(site)/xx/page-982.html", atUnixSeconds: t0 + 7400),
            PageVisit("https://evil.example/?next=\(site)/en/page-983.html", atUnixSeconds: t0 + 7500),
            PageVisit("\(site)/en/chapters.html?comic=page&chaptersmode=1", atUnixSeconds: t0 + 7600),
            PageVisit("ftp://www.dragonball-multiverse.com/en/page-984.html", atUnixSeconds: t0 + 7700),
        ])
        let (search, outcome) = try await lookUp(in: home)
        #expect(search.profiles.count == 1)
        #expect(outcome.failures.isEmpty)
        let visit = try #require(outcome.newest)
        #expect(visit.page == (try SitePage(language: .english, number: 980)))
        #expect(visit.time == (t0 + 3600) * 1_000_000)
        #expect(visit.description == "firefox profile abcd.default-release: en page 980, read 2026-11-18 12:06 UTC")
    }

    @Test func aPageCountsAtItsLatestVisit() async throws {
        let home = try ProfileHome()
        defer { home.remove() }
        // Page 979 first read before 980, then read again after it (a reader going back).
        try await home.addChromiumProfile("Default", userData: ".config/chromium", visits: [
            comicPage(979, "fr", after: 0), comicPage(980, "fr", after: 60), comicPage(979, "fr", after: 120), comicPage(12, "pt_BR", after: -60),
        ])
        let visit = try #require(try await lookUp(in: home).outcome.newest)
        #expect(visit.description == "chromium profile Default: fr page 979, read 2026-11-18 11:08 UTC")
    }

    @Test func eachBrowsersEpochGivesTheSameMoment() async throws {
        let home = try ProfileHome()
        defer { home.remove() }
        let visits = [PageVisit("http://dragonball-multiverse.com/pt_BR/page-12.html#pagetop", at: (t0 + 61) * 1_000_000 + 999_999)]
        try await home.addFirefoxProfile("ff.default", visits: visits)
        try await home.addChromiumProfile("Default", userData: ".config/google-chrome", visits: visits)
        let firefox = try #require(try await lookUp(in: home, [.firefox]).outcome.newest)
        let chrome = try #require(try await lookUp(in: home, [.chrome]).outcome.newest)
        #expect(firefox.time == chrome.time)
        #expect(firefox.description == "firefox profile ff.default: pt_BR page 12, read 2026-11-18 11:07 UTC")
        #expect(chrome.description == "chrome profile Default: pt_BR page 12, read 2026-11-18 11:07 UTC")
        #expect(chrome.url == visits[0].url)
    }

    @Test func theNewestAcrossProfilesAndBrowsersWins() async throws {
        let home = try ProfileHome()
        defer { home.remove() }
        try await home.addFirefoxProfile("abcd.default-release", visits: [comicPage(100, after: 0), otherPage("newest-of-all", after: 9000)])
        try await home.addFirefoxProfile("snap1.default", firefoxHome: "snap/firefox/common/.mozilla/firefox", visits: [comicPage(200, after: 100)])
        try await home.addChromiumProfile("Default", userData: ".config/chromium", visits: [comicPage(300, after: 200)])
        try await home.addChromiumProfile("Profile 2", userData: ".config/chromium", visits: [comicPage(400, "de", after: 400)])
        try await home.addChromiumProfile("Default", userData: ".var/app/com.brave.Browser/config/BraveSoftware/Brave-Browser",
                                    visits: [comicPage(350, after: 300)])
        let (search, outcome) = try await lookUp(in: home)
        #expect(search.profiles.count == 5)
        #expect(outcome.newest?.description == "chromium profile Profile 2: de page 400, read 2026-11-18 11:13 UTC")
        #expect(outcome.profilesRead == 5)
        #expect(try await lookUp(in: home, [.firefox]).outcome.newest?.description == "firefox (snap) profile snap1.default: en page 200, read 2026-11-18 11:08 UTC")
        #expect(try await lookUp(in: home, [.brave]).outcome.newest?.page.number == 350)
    }

    @Test func noComicPageIsNoVisitAndNoFailure() async throws {
        let home = try ProfileHome()
        defer { home.remove() }
        try await home.addFirefoxProfile("a.default", visits: [otherPage("one"), otherPage("two", after: 5)])
        try await home.addChromiumProfile("Default", userData: ".config/vivaldi", visits: [])
        let outcome = try await lookUp(in: home).outcome
        #expect(outcome.newest == nil)
        #expect(outcome.failures.isEmpty)
        #expect(outcome.profilesRead == 2)
    }

    @Test func pagesOnTheSiteOverrideCountOnlyWithIt() async throws {
        let home = try ProfileHome()
        defer { home.remove() }
        try await home.addFirefoxProfile("a.default", visits: [comicPage(5, after: 0), comicPage(6, after: 60, origin: "http://127.0.0.1:8080")])
        #expect(try await lookUp(in: home).outcome.newest?.page.number == 5)
        let overridden = try await lookUp(in: home, environment: ["DBMULTIVERSE_SITE_URL": "http://127.0.0.1:8080"]).outcome
        #expect(overridden.newest?.page.number == 6)
    }

    // MARK: A running browser

    /// Firefox keeps places.sqlite in WAL mode with SQLite's exclusive locking: recent visits
    /// are only in places.sqlite-wal, there is no -shm, and no other connection gets in.
    @Test func aRunningFirefoxsLockedDatabaseWithItsNewestVisitOnlyInTheWAL() async throws {
        let home = try ProfileHome()
        defer { home.remove() }
        let database = try await home.addFirefoxProfile("abcd.default-release", visits: [comicPage(979)])
        let firefox = try await SQLiteHolder.start(database: database, setup: """
            PRAGMA locking_mode = EXCLUSIVE;
            \(HistoryDatabases.insertion(of: comicPage(980, after: 3600), .firefox))
            """)
        defer { firefox.stop() }

        #expect(try await isLocked(database))
        #expect(FileManager.default.fileExists(atPath: database + "-wal"))
        #expect(!FileManager.default.fileExists(atPath: database + "-shm"))
        // The main file alone still has page 979 as its newest: page 980 is only in the WAL.
        let scratch = home.root + "/main-file-only.sqlite"
        try FileManager.default.copyItem(atPath: database, toPath: scratch)
        #expect(try await HistoryDatabases.run("SELECT max(visit_date) FROM moz_historyvisits;", on: scratch)
            == "\(t0 * 1_000_000)\n")

        let visit = try #require(try await lookUp(in: home).outcome.newest)
        #expect(visit.description == "firefox profile abcd.default-release: en page 980, read 2026-11-18 12:06 UTC")
    }

    /// Chromium keeps History in rollback-journal mode with exclusive locking. A transaction in
    /// progress holds the lock, and one too large for its cache has already written pages into
    /// History itself, their old content saved in History-journal: only with the journal does
    /// the copy read the committed state (SQLite rolls the copy's hot journal back).
    @Test func aRunningChromiumsLockedDatabaseMidTransaction() async throws {
        let home = try ProfileHome()
        defer { home.remove() }
        let database = try await home.addChromiumProfile("Default", userData: ".config/chromium", visits: [comicPage(979), comicPage(980, after: 60)])
        let chromium = try await SQLiteHolder.start(database: database, setup: """
            PRAGMA locking_mode = EXCLUSIVE;
            PRAGMA cache_size = 1;
            BEGIN EXCLUSIVE;
            \(HistoryDatabases.insertion(of: comicPage(999, after: 3600), .chromium))
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 2000)
                INSERT INTO urls (url, title, visit_count, typed_count, last_visit_time, hidden)
                SELECT 'https://filler.example.org/' || i, 'Filler', 0, 0, 0, 0 FROM n;
            """)
        defer { chromium.stop() }

        #expect(try await isLocked(database))
        // History alone already holds the uncommitted visit: the journal is what undoes it.
        let scratch = home.root + "/main-file-only.sqlite"
        try FileManager.default.copyItem(atPath: database, toPath: scratch)
        #expect(try await HistoryDatabases.run("SELECT count(*) FROM urls WHERE url LIKE '%page-999%';", on: scratch) == "1\n")

        let visit = try #require(try await lookUp(in: home).outcome.newest)
        #expect(visit.description == "chromium profile Default: en page 980, read 2026-11-18 11:07 UTC")
    }

    // MARK: Bad files

    @Test(arguments: BadDatabase.allCases)
    func aBadDatabaseIsReportedAndTheOthersStillCount(_ bad: BadDatabase) async throws {
        let home = try ProfileHome()
        defer { home.remove() }
        try await home.addChromiumProfile("Default", userData: ".config/chromium", visits: [comicPage(42)])
        let path = try await bad.install(in: home)
        let (search, outcome) = try await lookUp(in: home, checkFiles: bad != .huge)
        #expect(search.profiles.count == 2)
        #expect(outcome.newest?.description == "chromium profile Default: en page 42, read 2026-11-18 11:06 UTC")
        #expect(outcome.failures.count == 1)
        let failure = try #require(outcome.failures.first)
        #expect(failure.profile.description == "firefox profile bad.default")
        #expect(failure.error.kind == bad.kind)
        #expect(failure.error.message == bad.message(path: path))
    }
}

/// A broken `places.sqlite`, put in a Firefox profile `bad.default`.
enum BadDatabase: CaseIterable, Sendable, CustomTestStringConvertible {
    case text, empty, corruptPages, corruptSchema, chromiumsFile, olderFirefox, folder, fifo, huge

    var kind: HistoryError.Kind {
        switch self {
        case .text, .empty: .notADatabase
        case .corruptPages, .corruptSchema: .corrupt
        case .chromiumsFile, .olderFirefox: .unknownSchema
        case .folder, .fifo: .unreadable
        case .huge: .tooLarge
        }
    }

    /// The message for the database at `path`.
    func message(path: String) -> String {
        let unknown = "not a Firefox history database, or one of a version this command does not know"
        return switch self {
        case .text: "\"\(path)\" is not an SQLite database"
        case .empty: "\"\(path)\" is empty, not an SQLite database"
        case .corruptPages, .corruptSchema: "\"\(path)\" is damaged (database disk image is malformed)"
        case .chromiumsFile: "\"\(path)\" has no table moz_places: \(unknown)"
        case .olderFirefox: "\"\(path)\" has no column moz_historyvisits.visit_date: \(unknown)"
        case .folder, .fifo: "cannot read \"\(path)\": it is not a regular file"
        case .huge: "\"\(path)\" and its journal are over 1024 MiB, more than this command copies"
        }
    }

    var testDescription: String { "\(self)" }

    /// Puts the file in place; returns the database's path.
    func install(in home: ProfileHome) async throws -> String {
        let path = try await home.addFirefoxProfile("bad.default", visits: [PageVisit("\(site)/en/page-1.html", atUnixSeconds: t0 + 99_999)])
        let valid = try Data(contentsOf: URL(fileURLWithPath: path))
        try FileManager.default.removeItem(atPath: path)
        switch self {
        case .text:
            try Data(String(repeating: "This is a text file, not a database.\n", count: 40).utf8).write(to: URL(fileURLWithPath: path))
        case .empty:
            try Data().write(to: URL(fileURLWithPath: path))
        case .corruptPages, .corruptSchema:
            // Garbage after the file header (the schema, page 1, is damaged) or after page 1
            // (the schema reads, the tables do not).
            let keep = self == .corruptSchema ? 100 : 32768
            var bytes = valid
            bytes.replaceSubrange(keep..<bytes.count, with: repeatElement(0xA5, count: bytes.count - keep))
            try bytes.write(to: URL(fileURLWithPath: path))
        case .chromiumsFile:
            try await HistoryDatabases.write(.chromium, at: path, visits: [comicPage(7)])
        case .olderFirefox:
            try await HistoryDatabases.run("""
                CREATE TABLE moz_places (id INTEGER PRIMARY KEY, url LONGVARCHAR, title LONGVARCHAR);
                CREATE TABLE moz_historyvisits (id INTEGER PRIMARY KEY, place_id INTEGER, visit_time INTEGER);
                INSERT INTO moz_places VALUES (1, '\(site)/en/page-7.html', 'x');
                INSERT INTO moz_historyvisits VALUES (1, 1, \(t0 * 1_000_000));
                """, on: path)
        case .folder:
            try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        case .fifo:
            guard mkfifo(path, 0o600) == 0 else { throw FixtureError("mkfifo \(path): \(errno)") }
        case .huge:
            // Sparse: takes no disk; refused by its size before a byte is copied.
            guard FileManager.default.createFile(atPath: path, contents: nil),
                  truncate(path, off_t(DatabaseCopy.maximumBytes + 1)) == 0 else {
                throw FixtureError("cannot make the sparse file \(path)")
            }
        }
        return path
    }
}
