package import ComicDomain

/// Where the reader now is, once a page is stored: the reply's content.
package struct StoredPosition: Sendable, Equatable {
    /// The chapter's number and name, and how far into it the page is (0…100).
    let chapter: Int, name: String, progress: Int
    let page: SitePage

    init(chapter: Int, name: String, progress: Int, page: SitePage) {
        (self.chapter, self.name, self.progress, self.page) = (chapter, name, progress, page)
    }
}

/// Stores a page the reader opened in the browser as the reading position: maps it to its
/// chapter, name and progress and updates the widget (docs/browser-extension.md, "Storing").
///
/// The browser host calls it once per valid request, before it replies, and never for a refused one.
package protocol PageStore {
    /// - Throws: why nothing was stored (the reply's `error`).
    func store(_ page: SitePage) throws(BrowserHostError) -> StoredPosition
}
