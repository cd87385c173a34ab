package import ComicDomain

/// A visit to a page of the comic, read from a browser's history.
package struct HistoryVisit: Sendable, Equatable, CustomStringConvertible {
    /// The page visited.
    package let page: SitePage
    /// The URL as the browser recorded it.
    package let url: String
    /// When, in microseconds since 1970-01-01 UTC.
    package let time: Int64
    /// Whose history it is in.
    package let profile: BrowserProfile

    /// `firefox profile abcd.default-release: en page 980, read 2026-11-20 21:14 UTC`.
    package var description: String {
        "\(profile): \(page), read \(UTCTime(unixSeconds: time.floorDividing(by: 1_000_000)))"
    }
}
