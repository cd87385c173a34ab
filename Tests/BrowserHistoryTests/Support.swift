import BrowserHistory
import BrowserHistoryFixtures
import ComicDomain
import DBusTestSupport
import Foundation
import Testing

/// The comic's site, as browsers record its pages.
let site = "https://www.dragonball-multiverse.com"
/// 2026-11-18 11:06 UTC: the fixtures' visits are this many seconds after 1970, or a little later.
let t0: Int64 = 1_795_000_000

/// A visit to page `number` of the comic in `language`, `offset` seconds after `t0`.
func comicPage(_ number: Int, _ language: String = "en", after offset: Int64 = 0, origin: String = site) -> PageVisit {
    PageVisit("\(origin)/\(language)/page-\(number).html", atUnixSeconds: t0 + offset)
}

/// A visit to a page of another site, `offset` seconds after `t0`.
func otherPage(_ path: String, after offset: Int64 = 0) -> PageVisit {
    PageVisit("https://news.example.org/\(path)", atUnixSeconds: t0 + offset)
}

/// The state of a home's files, to prove afterwards that a lookup wrote nothing there and left
/// no copy behind.
struct UntouchedCheck {
    let home: ProfileHome
    let before: FolderSnapshot

    init(_ home: ProfileHome) throws {
        self.home = home
        before = try FolderSnapshot(of: home.home)
    }

    /// Records a test issue for every file changed, added or removed, and every copy left.
    func verify(sourceLocation: SourceLocation = #_sourceLocation) throws {
        let after = try FolderSnapshot(of: home.home)
        #expect(after.differences(from: before) == [], "the browsers' files changed", sourceLocation: sourceLocation)
        #expect(try home.temporaryLeftovers() == [], "copies left behind", sourceLocation: sourceLocation)
    }
}

/// Finds the profiles of `browsers` in `home` and looks up the newest comic page, as
/// `import-history` does, checking that nothing was written next to the browsers' files.
func lookUp(in home: ProfileHome, _ browsers: [Browser] = Browser.allCases, environment extra: [String: String] = [:],
            checkFiles: Bool = true, sourceLocation: SourceLocation = #_sourceLocation) async throws -> (search: ProfileFinder.Search, outcome: HistoryLookup.Outcome) {
    let check = checkFiles ? try UntouchedCheck(home) : nil
    let environment = home.environment(extra)
    let origin = try SiteOrigin.resolve(environment: environment)
    let (search, outcome) = try await offThePool {
        let search = ProfileFinder(environment: environment).profiles(of: browsers)
        return (search, HistoryLookup.newestPageVisit(in: search.profiles, origin: origin,
                                                      temporaryRoot: HistoryLookup.temporaryRoot(environment: environment)))
    }
    try check?.verify(sourceLocation: sourceLocation)
    #expect(try home.temporaryLeftovers() == [], "copies left behind", sourceLocation: sourceLocation)
    return (search, outcome)
}

/// Whether another SQLite connection is kept out of `database` by a lock, as a running browser
/// keeps it. The lock turns the probe away before it reads the database or makes any file.
func isLocked(_ database: String) async throws -> Bool {
    let result = try await offThePool { try runCommand(["sqlite3", "-batch", database, "SELECT count(*) FROM sqlite_schema;"]) }
    return result.status != 0 && result.stderr.contains("locked")
}
