/// What the comic's site says about one language of the comic (docs/usage.md#the-comics-site): its chapters, its
/// latest page, and how the chapter list was fetched. Stored as `chapters-<language>.json` in the
/// data folder.
///
/// A value always satisfies the checks of `init(language:chapters:latestPage:fetch:)`: at least
/// one chapter, every field in range. Built by the site's extractors or read from the file.
package struct Catalogue: Sendable, Equatable {
    /// One chapter of the main story or of a special.
    package struct Chapter: Sendable, Equatable {
        /// The chapter's number; specials number theirs from 1 again.
        package let number: Int
        /// The chapter's name (trimmed, `Limits.nameLength` characters).
        package let name: String
        /// Its first and last page on the site.
        package let startPage: Int
        package let endPage: Int
        /// nil for the main story, else the special universe (Broly's is 20).
        package let universe: Int?
        /// The thumbnail's absolute URL, or "" when the list shows none.
        package let thumbnailURL: String

        /// - Throws: `invalidChapter`, `invalidName` or `invalidPage` for a value out of range.
        package init(number: Int, name: String, startPage: Int, endPage: Int, universe: Int?, thumbnailURL: String) throws(ComicError) {
            self.number = try ChapterData.validChapter(number)
            self.name = try ChapterData.validName(name)
            guard Limits.pages.contains(startPage), Limits.pages.contains(endPage), startPage <= endPage else {
                throw ComicError(.invalidPage, "chapter \(number) has pages \(startPage)–\(endPage); pages must be \(Limits.describe(Limits.pages)), the first no later than the last")
            }
            if let universe, !Limits.chapters.contains(universe) {
                throw ComicError(.invalidChapter, "chapter \(number) names universe \(universe), out of range \(Limits.describe(Limits.chapters))")
            }
            guard thumbnailURL.utf8.count <= Catalogue.maxURLBytes, !thumbnailURL.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else {
                throw ComicError(.storageFailed, "chapter \(number) has a thumbnail URL that is too long or holds control characters")
            }
            self.startPage = startPage
            self.endPage = endPage
            self.universe = universe
            self.thumbnailURL = thumbnailURL
        }

        /// Whether `page` is one of this chapter's pages.
        func contains(page: Int) -> Bool { (startPage...endPage).contains(page) }

        /// How far into the chapter `page` is, in percent (the iOS app's formula):
        /// (page − start + 1) × 100 ÷ (end − start + 1), clamped to 0…100.
        package func progress(atPage page: Int) -> Int {
            let pages = endPage - startPage + 1
            return min(max((page - startPage + 1) * 100 / pages, 0), 100)
        }
    }

    /// How the chapter list was fetched: its URL, the validators for the next conditional
    /// request, and when (Unix seconds).
    package struct FetchMetadata: Sendable, Equatable {
        package let url: String
        package let etag: String?
        package let lastModified: String?
        package let fetchedAt: Int64

        package init(url: String, etag: String?, lastModified: String?, fetchedAt: Int64) {
            self.url = url
            self.etag = etag
            self.lastModified = lastModified
            self.fetchedAt = fetchedAt
        }
    }

    /// The longest URL or validator kept.
    package static let maxURLBytes = 2048
    /// The most chapters a catalogue holds (the real one has about a hundred).
    static let maxChapters = 5000

    package let language: SiteLanguage
    /// In the site's order: the main story, then the specials.
    package let chapters: [Chapter]
    /// The latest page published, as far as known: at least the last page of every chapter.
    package let latestPage: Int
    package let fetch: FetchMetadata

    /// - Throws: `invalidPage` without chapters, with too many, or with `latestPage` out of range.
    ///   `latestPage` is raised to the last chapter page when lower.
    package init(language: SiteLanguage, chapters: [Chapter], latestPage: Int, fetch: FetchMetadata) throws(ComicError) {
        guard !chapters.isEmpty else { throw ComicError(.invalidPage, "a catalogue without chapters") }
        guard chapters.count <= Self.maxChapters else {
            throw ComicError(.invalidPage, "\(chapters.count) chapters, more than \(Self.maxChapters)")
        }
        guard Limits.pages.contains(latestPage) else {
            throw ComicError(.invalidPage, "latest page \(latestPage) is out of range \(Limits.describe(Limits.pages))")
        }
        self.language = language
        self.chapters = chapters
        self.latestPage = max(latestPage, chapters.map(\.endPage).max() ?? latestPage)
        self.fetch = fetch
    }

    /// The same catalogue with another latest page (never lower than the chapters' last page).
    package func withLatestPage(_ page: Int) throws(ComicError) -> Catalogue {
        try Catalogue(language: language, chapters: chapters, latestPage: page, fetch: fetch)
    }

    /// The last page any chapter holds.
    package var lastChapterPage: Int { chapters.map(\.endPage).max() ?? latestPage }

    /// The first and last page of all chapters.
    package var pageRange: ClosedRange<Int> {
        (chapters.map(\.startPage).min() ?? 1)...lastChapterPage
    }

    // MARK: Reading position

    /// Where page `page` is: the chapter whose range holds it (the main story's first, when a
    /// special's range overlaps) and the progress through it; nil when no chapter holds it.
    package func position(ofPage page: Int) -> ReadingPosition? {
        let holding = chapters.filter { $0.contains(page: page) }
        guard let chapter = holding.first(where: { $0.universe == nil }) ?? holding.first else { return nil }
        return ReadingPosition(chapter: chapter, page: page, progress: chapter.progress(atPage: page))
    }

    /// The main-story chapter holding `page` (what a `dbmultiverse://page/N` link's chapter is);
    /// nil for a special's page or a page no chapter holds.
    package func mainStoryChapter(holding page: Int) -> Chapter? {
        chapters.first { $0.universe == nil && $0.contains(page: page) }
    }

    /// The entry's `new-pages` (docs/notifications.md) for a reader on main-story page `page`: the pages after
    /// it up to `latestPage`, less those a special holds (pages are numbered in publication order,
    /// specials included; pages past every chapter's range count as the main story's, published
    /// since the chapter list was read). 0 when the reader is at or past the latest page, as after
    /// a site rollback: never negative.
    func mainStoryPages(after page: Int) -> Int {
        guard page < latestPage else { return 0 }
        let unread = (page + 1)...latestPage
        var specialPages = 0
        var counted = page // the pages up to here are done with (specials' ranges may overlap)
        let specials = chapters.filter { $0.universe != nil }.sorted { $0.startPage < $1.startPage }
        for special in specials {
            let start = max(special.startPage, counted + 1)
            let end = min(special.endPage, latestPage)
            if start <= end {
                specialPages += end - start + 1
                counted = end
            }
        }
        return max(unread.count - specialPages, 0)
    }

    /// The first main-story page after `page` up to `latestPage` (pages a special holds skipped),
    /// nil when there is none: what "Read new pages" opens (docs/notifications.md).
    func firstMainStoryPage(after page: Int) -> Int? {
        var candidate = page + 1
        // Specials in page order: one may start where another ends, so a candidate is moved past
        // each range that holds it.
        for special in chapters.filter({ $0.universe != nil }).sorted(by: { $0.startPage < $1.startPage })
        where (special.startPage...special.endPage).contains(candidate) {
            candidate = special.endPage + 1
        }
        return candidate <= latestPage ? candidate : nil
    }

    /// The name of main-story chapter `number`, when the catalogue has it.
    func mainStoryName(of number: Int) -> String? {
        chapters.first { $0.universe == nil && $0.number == number }?.name
    }

    // MARK: Replacing

    /// Whether `fetched` may replace this stored catalogue: nil when it may, else the reason it
    /// may not (a fetch with fewer chapters is a broken or changed page, never a shorter comic).
    package func reasonToKeep(over fetched: Catalogue) -> String? {
        guard fetched.chapters.count >= chapters.count else {
            return "the site's chapter list now yields \(fetched.chapters.count) chapters, fewer than the \(chapters.count) stored; keeping the stored catalogue (the page's markup may have changed)"
        }
        return nil
    }
}

/// The reader's place in the comic: a page, its chapter, and the progress through the chapter.
package struct ReadingPosition: Sendable, Equatable {
    package let chapter: Catalogue.Chapter
    package let page: Int
    /// 0…100.
    package let progress: Int
}
