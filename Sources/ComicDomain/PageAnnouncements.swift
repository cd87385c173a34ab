import JSON

/// The new-pages rule of the notifier (docs/notifications.md): which latest page it has dealt with, and
/// whether an entry deserves an announcement. Pure: no I/O, no clock (the rule compares page
/// numbers only, so clock skew cannot trigger it).
///
/// A latest page is dealt with once it was announced, or seen while the reader was caught up
/// (new-pages 0 in the main story) or reading (a chapter change: the reader is on the site, and
/// the widget and the tray show the count; an announcement would interrupt them): pages the
/// reader has passed are never announced, and each latest page at most once. A lower latest page
/// (a site rollback) or one dealt with before is nothing. In a special the entry counts no new
/// pages (`new-pages` is 0 there), so nothing is decided until the reader is back in the main story.
///
/// Stored as `announcedPages.json`: `{"latestPage": 984}`.
package struct PageAnnouncements: Sendable, Equatable {
    /// What an entry means for the announcements.
    package enum Decision: Sendable, Equatable {
        /// Announce the entry's new pages (its `new-pages`, opening its `first-unread-page`); its
        /// latest page is now dealt with.
        case announce
        /// A latest page not seen before, with the reader caught up or reading: remembered, nothing shown.
        case remembered
        /// Nothing to do or to remember.
        case nothing
    }

    /// The highest latest page announced or seen caught up; 0 for none.
    package private(set) var latestPage: Int

    /// The file's size limit: it holds one number.
    static let maxFileBytes = 4096

    package init(latestPage: Int = 0) {
        self.latestPage = latestPage
    }

    /// Applies the rule to `entry` and remembers its latest page when it is decided on; `reading`
    /// when the reader moved (a chapter change): then nothing is announced.
    package mutating func consider(_ entry: ChapterEntry, reading: Bool = false) -> Decision {
        guard !entry.isPlaceholder, entry.universe == 0, Limits.pages.contains(entry.latestPage),
              entry.latestPage > latestPage else { return .nothing }
        // An entry whose count cannot be right (negative, or more pages than exist) is not trusted.
        guard (0..<entry.latestPage).contains(entry.newPages) else { return .nothing }
        latestPage = entry.latestPage
        guard !reading, entry.newPages > 0, Limits.pages.contains(entry.firstUnreadPage) else { return .remembered }
        return .announce
    }

    /// Decodes the file; unknown keys are ignored.
    /// - Throws: `storageFailed` for content problems, `invalidPage` for a page out of `Limits.pages`.
    static func decode(_ bytes: [UInt8]) throws(ComicError) -> PageAnnouncements {
        let reader = try JSONObjectReader(bytes: bytes, limit: maxFileBytes)
        let page = try reader.integer("latestPage", in: Limits.pages) { written in
            ComicError(.invalidPage, "latest page \(shortened(written)) is out of range \(Limits.describe(Limits.pages))")
        }
        return PageAnnouncements(latestPage: page)
    }

    /// `{"latestPage":984}`.
    package func encodeJSON() -> [UInt8] {
        JSONValue.object([("latestPage", .integer(latestPage))]).serialized()
    }
}
