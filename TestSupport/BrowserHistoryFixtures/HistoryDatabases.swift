import DBusTestSupport
import Foundation

/// A visit to a URL at a time, as a fixture writes it into a browser's history.
package struct PageVisit: Sendable {
    package let url: String
    /// Microseconds since 1970-01-01 UTC.
    package let time: Int64

    package init(_ url: String, at time: Int64) {
        self.url = url
        self.time = time
    }

    /// `seconds` after 1970-01-01 UTC, as microseconds.
    package init(_ url: String, atUnixSeconds seconds: Int64) {
        self.init(url, at: seconds * 1_000_000)
    }
}

/// A browser's history format, as the fixtures write it: its schema and its epoch.
package enum FixtureFormat: Sendable {
    case firefox, chromium

    /// Microseconds from the browser's epoch to 1970 (Chromium counts from 1601).
    package var epochOffset: Int64 { self == .firefox ? 0 : 11_644_473_600 * 1_000_000 }

    /// The database's name in a profile folder.
    package var databaseName: String { self == .firefox ? "places.sqlite" : "History" }
}

/// Writes history databases with the `sqlite3` tool: the browser's real schema, its page size,
/// journal mode and version, and the visits given.
package enum HistoryDatabases {
    /// Creates the database at `path` (which must not exist yet) holding `visits`.
    package static func write(_ format: FixtureFormat, at path: String, visits: [PageVisit]) throws {
        try run(creationScript(format) + "BEGIN;\n" + visits.map { insertion(of: $0, format) }.joined() + "COMMIT;\n", on: path)
    }

    /// The statements that create an empty database of `format`, as the browser does.
    package static func creationScript(_ format: FixtureFormat) -> String {
        switch format {
        case .firefox:
            // Firefox: 32 KiB pages and a write-ahead log.
            """
            PRAGMA page_size = 32768;
            PRAGMA journal_mode = WAL;
            PRAGMA user_version = \(HistorySchemas.firefoxVersion);
            \(HistorySchemas.firefox)

            """
        case .chromium:
            // Chromium: SQLite's default 4 KiB pages and a rollback journal.
            """
            \(HistorySchemas.chromium)
            INSERT INTO meta VALUES ('mmap_status', '-1'), ('version', '\(HistorySchemas.chromiumVersion)'),
                ('last_compatible_version', '\(HistorySchemas.chromiumCompatibleVersion)');

            """
        }
    }

    /// The statements that add one visit (and its page when new), as the browser records it.
    package static func insertion(of visit: PageVisit, _ format: FixtureFormat) -> String {
        let url = literal(visit.url)
        let time = visit.time + format.epochOffset
        switch format {
        case .firefox:
            let host = URLComponents(string: visit.url)?.host ?? ""
            let prefix = visit.url.hasPrefix("https://") ? "https://" : "http://"
            return """
                INSERT OR IGNORE INTO moz_origins (prefix, host, frecency) VALUES (\(literal(prefix)), \(literal(host)), 1);
                INSERT INTO moz_places (url, title, rev_host, frecency, guid, origin_id)
                    SELECT \(url), 'A page', \(literal(String(host.reversed()) + ".")), 100, lower(hex(randomblob(6))),
                        (SELECT id FROM moz_origins WHERE prefix = \(literal(prefix)) AND host = \(literal(host)))
                    WHERE NOT EXISTS (SELECT 1 FROM moz_places WHERE url = \(url));
                INSERT INTO moz_historyvisits (from_visit, place_id, visit_date, visit_type, session, source)
                    SELECT 0, id, \(time), 1, 0, 0 FROM moz_places WHERE url = \(url);
                UPDATE moz_places SET visit_count = visit_count + 1, last_visit_date = max(ifnull(last_visit_date, 0), \(time))
                    WHERE url = \(url);

                """
        case .chromium:
            return """
                INSERT INTO urls (url, title, visit_count, typed_count, last_visit_time, hidden)
                    SELECT \(url), 'A page', 0, 0, 0, 0 WHERE NOT EXISTS (SELECT 1 FROM urls WHERE url = \(url));
                INSERT INTO visits (url, visit_time, from_visit, transition, segment_id, visit_duration)
                    SELECT id, \(time), 0, 805306368, 0, 0 FROM urls WHERE url = \(url);
                UPDATE urls SET visit_count = visit_count + 1, last_visit_time = max(last_visit_time, \(time)) WHERE url = \(url);

                """
        }
    }

    /// Runs `script` with the `sqlite3` tool on the database at `path`; returns what it printed.
    /// - Throws: when the tool fails or prints an error.
    @discardableResult
    package static func run(_ script: String, on path: String, timeout: Double = 60) throws -> String {
        let result = try runCommand(["sqlite3", "-batch", "-bail", path], input: Data(script.utf8), timeout: timeout)
        guard result.status == 0, result.stderr.isEmpty else {
            throw FixtureError("sqlite3 \(path) failed: \(result)")
        }
        return result.stdout
    }

    /// `text` as an SQL string literal.
    package static func literal(_ text: String) -> String {
        "'" + text.replacingOccurrences(of: "'", with: "''") + "'"
    }
}
