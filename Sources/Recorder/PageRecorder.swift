package import ComicDomain
package import DBus
package import Site
package import Widget

/// "The reader is on page N" (docs/usage.md `update --page`, docs/browser-extension.md): the one path that records a page
/// read, for `dbmultiverse update --page`, the browser host and `import-history`.
///
/// The steps, in this order:
/// 1. the page is looked up in the catalogue of its language (`PageLookup`: fetched from the site
///    when there is none, or when the page is past its last one);
/// 2. one `UpdatePage` hands the service all of it: the page, its chapter, the progress, and the
///    catalogue fetched in step 1 if any. The service alone decides whether it is another chapter
///    and stores the position with the catalogue at once (the pages just read are never counted
///    as new);
/// 3. when the service stored another chapter, it asks for the chapter's cover on the call's
///    `cover_channel` (`CoverChannel`): only then is the cover fetched from the site, which is run
///    by volunteers, and written to the service.
///
/// ```swift
/// let lookup = PageLookup(configuration: try SiteConfiguration.resolve(environment: environment) { warning in … })
/// let recorder = PageRecorder(lookup: lookup, caller: try BlockingCaller())
/// let recorded = try recorder.record(try SitePage(url: "https://www.dragonball-multiverse.com/en/page-980.html"))
/// ```
///
/// Blocking (one `BlockingCaller`), for short-lived processes: never in the service.
package struct PageRecorder {
    let lookup: PageLookup
    let caller: BlockingCaller
    let widget: WidgetClient

    package init(lookup: PageLookup, caller: BlockingCaller, widget: WidgetClient = WidgetClient()) {
        self.lookup = lookup
        self.caller = caller
        self.widget = widget
    }

    /// Records that the reader is on `page` (see the type's steps).
    /// - Throws: `PageRecordingError.site` when the page cannot be looked up (the site fails, or no
    ///   chapter holds the page); `.bus` when the service cannot be asked or refuses the page (then
    ///   nothing is stored, the fetched catalogue neither).
    package func record(_ page: SitePage) throws(PageRecordingError) -> RecordedPage {
        let found: PageLookup.Result
        do {
            found = try lookup.lookUp(page: page)
        } catch {
            throw .site(error)
        }
        let chapter = found.chapter
        let channel: CoverChannel
        do {
            channel = try CoverChannel()
            try caller.call(widget.updatePage(
                page.number, language: page.language, chapter: chapter.number, name: chapter.name,
                progress: found.position.progress, universe: chapter.universe,
                catalogue: found.fetchedCatalogue?.encodeJSON(), coverChannel: channel.serviceEnd))
        } catch {
            throw .bus(error)
        }
        let isAnotherChapter = channel.coverWanted()
        let cover = isAnotherChapter ? lookup.cover(of: chapter, language: page.language) ?? [] : []
        let hasCover = !cover.isEmpty && channel.send(cover)
        return RecordedPage(page: page, chapter: chapter, progress: found.position.progress, latestPage: found.latestPage,
                            isAnotherChapter: isAnotherChapter, hasCover: hasCover)
    }
}

/// A page recorded: where the reader now is.
package struct RecordedPage: Sendable, Equatable, CustomStringConvertible {
    let page: SitePage
    /// The chapter holding the page (a special's when `chapter.universe` is set).
    let chapter: Catalogue.Chapter
    /// 0…100.
    let progress: Int
    /// The catalogue's latest page.
    let latestPage: Int
    /// Another chapter than the one stored before (stored with its name and cover: the chapter
    /// rule); false when the reader moved on in the stored chapter (the progress rule).
    let isAnotherChapter: Bool
    /// Whether a cover went with it (only for another chapter, when the site had one).
    let hasCover: Bool

    /// `en page 980: Chapter 42: Name, 35% (another chapter, with its cover)`, a special's chapter
    /// prefixed with `Special Universe 3 · `.
    package var description: String {
        let story = chapter.universe.map { "Special Universe \($0) · " } ?? ""
        let change = isAnotherChapter ? (hasCover ? "another chapter, with its cover" : "another chapter, no cover found") : "same chapter"
        return "\(page): \(story)Chapter \(chapter.number): \(chapter.name), \(progress)% (\(change))"
    }
}

/// Why a page was not recorded: the site's failure or the bus's, with its one line.
package enum PageRecordingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Looking the page up (the site failed, or no chapter holds the page), or storing the catalogue.
    case site(SiteError)
    /// Asking the service, or the service refusing the page.
    case bus(DBusError)

    package var description: String {
        switch self {
        case .site(let error): error.message
        case .bus(let error): "\(error.message) (\(error.name))"
        }
    }
}
