public import ComicDomain

/// Where the reader now is, once a page is stored: the reply's content.
public struct StoredPosition: Sendable, Equatable {
    public let chapter: Int
    public let name: String
    public let progress: Int
    public let page: SitePage

    public init(chapter: Int, name: String, progress: Int, page: SitePage) {
        self.chapter = chapter
        self.name = name
        self.progress = progress
        self.page = page
    }
}

/// Stores a page the reader opened in the browser as the reading position: maps it to its
/// chapter, name and progress and updates the widget (DESIGN §12, "Storing").
///
/// The browser host calls it once per valid request, before it replies, and never for a refused one.
public protocol PageStore {
    /// - Throws: why nothing was stored (the reply's `error`).
    func store(_ page: SitePage) throws(BrowserHostError) -> StoredPosition
}

/// The store of a build without the site catalogue: mapping a page to its chapter needs the
/// catalogue (DESIGN §11), so every page is refused with that reason and nothing is stored.
public struct CatalogueMissingPageStore: PageStore {
    public init() {}

    public func store(_ page: SitePage) throws(BrowserHostError) -> StoredPosition {
        throw BrowserHostError("\(page) was not stored: this build of dbmultiverse cannot map a page to its chapter yet (no site catalogue)")
    }
}
