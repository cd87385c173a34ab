/// One widget entry (docs/dbus-api.md): what the widget shows for a chapter, or the placeholder.
package struct ChapterEntry: Sendable, Equatable {
    /// Chapter number.
    package var chapter: Int
    /// Chapter name.
    package var name: String
    /// Read progress in percent.
    package var progress: Int
    /// Absolute path of the cover image, or "" when there is none.
    package var imagePath: String
    /// When the entry was made, Unix seconds.
    package var date: Int64
    /// The widget size the entry is for.
    package var family: WidgetFamily
    /// True when no chapter has been read yet.
    package var isPlaceholder: Bool
    /// Last page read on the comic's site, when known (on the bus only inside a special's
    /// `deep-link`).
    package var page: Int?
    /// Site language code, when known (not part of the D-Bus entry).
    package var language: String?
    /// The special universe of the chapter, 0 for the main story (`universe`).
    package var universe: Int
    /// The latest page of the comic in the reader's language, 0 when unknown (`latest-page`).
    package var latestPage: Int
    /// Main-story pages published after the reader's page, 0 when unknown (`new-pages`; see
    /// `Catalogue.mainStoryPages(after:)`).
    package var newPages: Int
    /// The first of those pages (`first-unread-page`), skipping the pages of specials published
    /// among them; 0 without new pages.
    package var firstUnreadPage: Int
    /// The main-story chapter after this one (`next-chapter`), 0 when there is none to offer: for
    /// the placeholder, in a special (its chapter numbers would name the main story's), and when
    /// the catalogue has no such chapter (after the last one published, or with no catalogue).
    package var nextChapter: Int
    /// The name of the next main-story chapter (`next-chapter-name`), "" when the catalogue does
    /// not know it.
    package var nextChapterName: String
    /// The name of the computer this reading was made on, when it is another one whose reading
    /// the sync folder brought here (`continued-on`, docs/sync.md); "" for a reading made here.
    package var continuedOn: String = ""

    /// The name the placeholder shows: the title of chapter 1.
    static let placeholderName = "A Really Strange Tournament!"

    /// An entry from its fields, e.g. as received over D-Bus.
    package init(
        chapter: Int, name: String, progress: Int, imagePath: String, date: Int64,
        family: WidgetFamily, isPlaceholder: Bool, page: Int? = nil, language: String? = nil,
        universe: Int = 0, latestPage: Int = 0, newPages: Int = 0, firstUnreadPage: Int = 0, nextChapter: Int = 0,
        nextChapterName: String = ""
    ) {
        self.chapter = chapter
        self.name = name
        self.progress = progress
        self.imagePath = imagePath
        self.date = date
        self.family = family
        self.isPlaceholder = isPlaceholder
        self.page = page
        self.language = language
        self.universe = universe
        self.latestPage = latestPage
        self.newPages = newPages
        self.firstUnreadPage = firstUnreadPage
        self.nextChapter = nextChapter
        self.nextChapterName = nextChapterName
    }

    /// The entry for stored chapter data. `imagePath` is the already resolved cover
    /// (`DataFolder.resolvedCoverPath(_:)`), or "" for none. `catalogue` is the one of the reader's
    /// language, when known: it gives `latestPage` (never below the page being read, which is
    /// published: a page past the stored list is counted before the newer list is stored), the
    /// next main-story chapter and its name when it has one, and `newPages` and the first of them while the reader is on a known
    /// page of the main story (0 otherwise).
    package init(data: ChapterData, imagePath: String, family: WidgetFamily, date: Int64, catalogue: Catalogue? = nil) {
        var latestPage = 0, newPages = 0, firstUnreadPage = 0, nextChapter = 0, nextChapterName = ""
        if let catalogue {
            latestPage = max(catalogue.latestPage, data.page ?? 0)
            if let page = data.page, data.universe == nil {
                newPages = catalogue.mainStoryPages(after: page)
                if newPages > 0 { firstUnreadPage = catalogue.firstMainStoryPage(after: page) ?? 0 }
            }
            if data.universe == nil, let name = catalogue.mainStoryName(of: data.number + 1) {
                nextChapter = data.number + 1
                nextChapterName = name
            }
        }
        self.init(
            chapter: data.number, name: data.name, progress: data.progress, imagePath: imagePath,
            date: date, family: family, isPlaceholder: false, page: data.page, language: data.language,
            universe: data.universe ?? 0, latestPage: latestPage, newPages: newPages,
            firstUnreadPage: firstUnreadPage, nextChapter: nextChapter, nextChapterName: nextChapterName)
    }

    /// The entry shown before anything was read: chapter 1, no image, progress 0.
    package static func placeholder(family: WidgetFamily, date: Int64) -> ChapterEntry {
        ChapterEntry(
            chapter: 1, name: placeholderName, progress: 0, imagePath: "", date: date,
            family: family, isPlaceholder: true)
    }

    /// `dbmultiverse://chapter/<chapter>`; while the reader is in a special (whose chapter numbers
    /// would name the main story's), the page link `dbmultiverse://page/<page>` of the page read.
    package var deepLink: String {
        if universe != 0, let page { return ComicLink.uri(page: page) }
        return DeepLink.uri(chapter: chapter)
    }
}
