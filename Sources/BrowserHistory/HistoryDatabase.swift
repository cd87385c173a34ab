import ComicDomain
import CSQLite
import Glibc

/// What the lookup reads in one browser's history database: the table of pages (URLs) and the
/// table of visits to them, with each visit's time and its epoch.
struct HistorySchema: Sendable {
    let pages: String
    let pageID: String
    let pageURL: String
    let visits: String
    let visitPage: String
    let visitTime: String
    /// Microseconds from the browser's epoch to 1970-01-01 UTC.
    let epochOffset: Int64
    /// The browser's name in messages.
    let browserName: String

    static func of(_ format: HistoryFormat) -> HistorySchema {
        switch format {
        case .firefox:
            HistorySchema(pages: "moz_places", pageID: "id", pageURL: "url",
                          visits: "moz_historyvisits", visitPage: "place_id", visitTime: "visit_date",
                          epochOffset: 0, browserName: "Firefox")
        case .chromium:
            // Chromium counts from 1601-01-01 UTC (Windows FILETIME's epoch), 11 644 473 600 s before 1970.
            HistorySchema(pages: "urls", pageID: "id", pageURL: "url",
                          visits: "visits", visitPage: "url", visitTime: "visit_time",
                          epochOffset: 11_644_473_600 * 1_000_000, browserName: "Chromium-family")
        }
    }

    /// The columns each table must have.
    var requiredColumns: [(table: String, columns: [String])] {
        [(pages, [pageID, pageURL]), (visits, [visitPage, visitTime])]
    }

    /// Each page whose URL matches one of the patterns `?1`, `?2`, with the time of its latest
    /// visit after 1970, newest first. Grouping by page reads the pages table once and each
    /// matching page's visits through the browsers' index on the visits' page column.
    var newestVisitsQuery: String {
        """
        SELECT p.\(pageURL), MAX(v.\(visitTime)) AS newest
        FROM \(pages) AS p JOIN \(visits) AS v ON v.\(visitPage) = p.\(pageID)
        WHERE p.\(pageURL) LIKE ?1 OR p.\(pageURL) LIKE ?2
        GROUP BY p.\(pageID)
        HAVING newest > \(epochOffset)
        ORDER BY newest DESC
        """
    }
}

/// Reads one profile's history: copies the database privately, checks its schema, and finds
/// the newest visit to a page of the comic.
enum HistoryDatabase {
    /// The newest visit in `profile` to a page of the comic (on its site, or on `origin` when
    /// that is an override), or nil when there is none.
    /// - Throws: `HistoryError` naming the file: unreadable, too large, changing, not a
    ///   database, corrupt, or an unknown schema.
    static func newestPageVisit(in profile: BrowserProfile, origin: SiteOrigin, temporaryRoot: String) throws(HistoryError) -> HistoryVisit? {
        let copy = try DatabaseCopy(of: profile.databasePath, in: temporaryRoot)
        // The copy is borrowed for the whole read, and removed once the connection has closed.
        return try newestPageVisit(in: copy, of: profile, origin: origin)
    }

    private static func newestPageVisit(in copy: borrowing DatabaseCopy, of profile: BrowserProfile, origin: SiteOrigin) throws(HistoryError) -> HistoryVisit? {
        let source = profile.databasePath
        let schema = HistorySchema.of(profile.format)
        // SQLite takes an empty file for an empty database; for a browser's it means a broken one.
        guard case .success(let status) = Posix.pathStatus(copy.path), status.st_size > 0 else {
            throw HistoryError(.notADatabase, "\(quotedPath(source)) is empty, not an SQLite database")
        }
        do {
            let database = try SQLiteDatabase(path: copy.path)
            try checkSchema(schema, of: database, source: source)
            var newest: HistoryVisit?
            try database.forEachRow(schema.newestVisitsQuery, urlPatterns(origin: origin)) { row in
                guard let url = row.text(0), let time = row.integer(1),
                      let page = try? SitePage(url: url, extraOrigin: origin == .site ? nil : origin) else {
                    return true // a URL the filter let through that is not a comic page: the next one
                }
                // The query keeps only times after the epoch offset, so this cannot overflow.
                newest = HistoryVisit(page: page, url: url, time: time - schema.epochOffset, profile: profile)
                return false
            }
            return newest
        } catch let error as SQLiteError {
            throw describe(error, source: source)
        } catch let error as HistoryError {
            throw error
        } catch {
            throw HistoryError(.unreadable, "cannot read \(quotedPath(source)): \(error)")
        }
    }

    /// LIKE patterns for page URLs on the site and on `origin`: a cheap filter in SQL, before
    /// `SitePage` checks each URL exactly.
    static func urlPatterns(origin: SiteOrigin) -> [String] {
        // Neither a host nor a port can hold LIKE's wildcards `%` and `_`: SiteOrigin allows
        // only letters, digits, `-`, `.` and `:` in an authority.
        ["%dragonball-multiverse.com/%/page-%.html%", "%//\(origin.authority)/%/page-%.html%"]
    }

    private static func checkSchema(_ schema: HistorySchema, of database: SQLiteDatabase, source: String) throws(HistoryError) {
        for (table, columns) in schema.requiredColumns {
            var present = Set<String>()
            do {
                try database.forEachRow("SELECT name FROM pragma_table_info(?1)", [table]) { row in
                    if let name = row.text(0) { present.insert(name) }
                    return true
                }
            } catch {
                throw describe(error, source: source)
            }
            let unknown = "not a \(schema.browserName) history database, or one of a version this command does not know"
            guard !present.isEmpty else {
                throw HistoryError(.unknownSchema, "\(quotedPath(source)) has no table \(table): \(unknown)")
            }
            if let missing = columns.first(where: { !present.contains($0) }) {
                throw HistoryError(.unknownSchema, "\(quotedPath(source)) has no column \(table).\(missing): \(unknown)")
            }
        }
    }

    private static func describe(_ error: SQLiteError, source: String) -> HistoryError {
        switch error.code {
        case SQLITE_NOTADB:
            HistoryError(.notADatabase, "\(quotedPath(source)) is not an SQLite database")
        case SQLITE_CORRUPT:
            HistoryError(.corrupt, "\(quotedPath(source)) is damaged (\(error.message))")
        default:
            HistoryError(.unreadable, "cannot read \(quotedPath(source)): \(error.message)")
        }
    }
}
