import DBusTestSupport
import Foundation

/// A realistic history for the benchmark: `visitCount` visits spread over `pageCount` pages of
/// 400 sites over the last year, one page in 50 a page of the comic (read now and then between
/// other browsing), in the browser's real schema.
package enum LargeHistory {
    /// Writes the history at `path` (which must not exist yet) and returns its newest visit to
    /// a comic page, read back with the `sqlite3` tool.
    package static func write(_ format: FixtureFormat, at path: String, visitCount: Int = 100_000, pageCount: Int = 25_000,
                             newest: Int64 = 1_795_000_000 * 1_000_000) throws -> PageVisit {
        let year: Int64 = 365 * 86_400 * 1_000_000
        let first = newest - year + format.epochOffset
        let step = year / Int64(visitCount)
        let url = """
            CASE WHEN i % 50 = 0 THEN 'https://www.dragonball-multiverse.com/en/page-' || (i / 50) || '.html'
                 ELSE 'https://site' || (i % 400) || '.example.org/articles/' || i || '/a-title-of-some-length?ref=feed' END
            """
        // Visits pick pages in a scattered order (a multiplier prime to the page count).
        let visitedPage = "1 + (i * 7919) % \(pageCount)"
        let fill: String
        switch format {
        case .firefox:
            fill = """
                INSERT INTO moz_origins (id, prefix, host, frecency)
                    SELECT i, 'https://', 'site' || i || '.example.org', 100 FROM n WHERE i < 400;
                INSERT INTO moz_origins (id, prefix, host, frecency) VALUES (400, 'https://', 'www.dragonball-multiverse.com', 100);
                INSERT INTO moz_places (id, url, title, rev_host, frecency, guid, origin_id)
                    SELECT i, \(url), 'The title of page ' || i, 'gro.elpmaxe.' || (i % 400) || 'etis.', 100,
                        printf('g%011d', i), CASE WHEN i % 50 = 0 THEN 400 ELSE max(1, i % 400) END
                    FROM n WHERE i <= \(pageCount);
                INSERT INTO moz_historyvisits (from_visit, place_id, visit_date, visit_type, session, source)
                    SELECT 0, \(visitedPage), \(first) + i * \(step), 1, 0, 0 FROM n WHERE i <= \(visitCount);
                UPDATE moz_places SET
                    visit_count = (SELECT count(*) FROM moz_historyvisits WHERE place_id = moz_places.id),
                    last_visit_date = (SELECT max(visit_date) FROM moz_historyvisits WHERE place_id = moz_places.id);
                """
        case .chromium:
            fill = """
                INSERT INTO urls (id, url, title, visit_count, typed_count, last_visit_time, hidden)
                    SELECT i, \(url), 'The title of page ' || i, 0, 0, 0, 0 FROM n WHERE i <= \(pageCount);
                INSERT INTO visits (url, visit_time, from_visit, transition, segment_id, visit_duration)
                    SELECT \(visitedPage), \(first) + i * \(step), 0, 805306368, 0, 0 FROM n WHERE i <= \(visitCount);
                UPDATE urls SET
                    visit_count = (SELECT count(*) FROM visits WHERE visits.url = urls.id),
                    last_visit_time = ifnull((SELECT max(visit_time) FROM visits WHERE visits.url = urls.id), 0);
                """
        }
        let numbers = "CREATE TEMP TABLE n AS WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM c WHERE i < \(max(visitCount, pageCount))) SELECT i FROM c;\n"
        try HistoryDatabases.run(HistoryDatabases.creationScript(format) + numbers + "BEGIN;\n" + fill + "\nCOMMIT;\n", on: path, timeout: 300)

        let (pages, pageID, visits, visitPage, visitTime) = format == .firefox
            ? ("moz_places", "id", "moz_historyvisits", "place_id", "visit_date")
            : ("urls", "id", "visits", "url", "visit_time")
        let newestComic = try HistoryDatabases.run("""
            SELECT p.url || ' ' || v.\(visitTime) FROM \(visits) v JOIN \(pages) p ON p.\(pageID) = v.\(visitPage)
            WHERE p.url LIKE '%dragonball-multiverse.com/%' ORDER BY v.\(visitTime) DESC LIMIT 1;
            """, on: path).split(separator: " ")
        guard newestComic.count == 2, let time = Int64(newestComic[1].trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw FixtureError("the generated history at \(path) has no comic page")
        }
        return PageVisit(String(newestComic[0]), at: time - format.epochOffset)
    }
}
