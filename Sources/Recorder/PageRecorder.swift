package import ComicDomain
package import DBus
package import Site
package import Widget

/// "The reader is on page N" (docs/usage.md `update --page`, docs/browser-extension.md): the one path that records a page
/// read, for `dbmultiverse update --page`, the browser host and `import-history`.
///
/// The steps, in this order:
/// 1. the page is looked up in the catalogue of its language (`PageLookup`: fetched from the site
///    when there is none, and stored then, or when the page is past its last one, and not stored
///    yet then);
/// 2. the service is asked for the stored chapter, and only when the page's chapter differs from it
///    (universe and chapter) is the chapter's cover fetched: the site is run by volunteers;
/// 3. `UpdatePage` stores the position: the service applies the chapter rule for another chapter,
///    the debounced progress rule for the same one;
/// 4. then the newer catalogue fetched in step 1, if any, is stored. The service reads it through
///    its folder watch: it must see the reader's new position before a new latest page, or a
///    notifier would announce as new the pages just read. When step 3 fails, it is not
///    stored.
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
    ///   chapter holds the page) or the fetched catalogue cannot be stored; `.bus` when the service
    ///   cannot be asked or refuses the page. Nothing is stored on the service's side before step 3.
    package func record(_ page: SitePage) throws(PageRecordingError) -> RecordedPage {
        let found: PageLookup.Result
        do {
            found = try lookup.lookUp(page: page)
        } catch {
            throw .site(error)
        }
        let chapter = found.chapter
        let stored: ChapterEntry
        do {
            stored = try caller.call(widget.currentEntry()).entry
        } catch {
            throw .bus(error)
        }
        let isAnotherChapter = stored.chapterID != chapter.id
        let cover = isAnotherChapter ? lookup.cover(of: chapter, language: page.language) ?? [] : []
        do {
            try caller.call(widget.updatePage(
                page.number, language: page.language, chapter: chapter.number, name: chapter.name,
                progress: found.position.progress, universe: chapter.universe, cover: cover))
        } catch {
            throw .bus(error)
        }
        do {
            try lookup.save(found)
        } catch {
            throw .site(error)
        }
        return RecordedPage(page: page, chapter: chapter, progress: found.position.progress, latestPage: found.latestPage,
                            isAnotherChapter: isAnotherChapter, hasCover: !cover.isEmpty)
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
