package import ComicDomain
internal import DBus
package import Logging
internal import Site

/// Where the reader now is, once a page is stored: the reply's content.
package struct StoredPosition: Sendable, Equatable {
    /// The chapter's number and name, and how far into it the page is (0…100).
    package let chapter: Int, name: String, progress: Int
    package let page: SitePage

    package init(chapter: Int, name: String, progress: Int, page: SitePage) {
        (self.chapter, self.name, self.progress, self.page) = (chapter, name, progress, page)
    }
}

/// Stores a page the reader opened in the browser as the reading position: maps it to its
/// chapter, name and progress and updates the widget (DESIGN §12, "Storing").
///
/// The browser host calls it once per valid request, before it replies, and never for a refused one.
package protocol PageStore {
    /// - Throws: why nothing was stored (the reply's `error`).
    func store(_ page: SitePage) throws(BrowserHostError) -> StoredPosition
}

/// The store the host uses: the page recorder (`PageRecorder`, as `dbmultiverse update --page`),
/// on the session bus, whose D-Bus activation starts the service when it is not running.
///
/// The site configuration and the bus connection are made per page, so a refused request never
/// reaches the bus (nor activates the service) and a broken `$DBMULTIVERSE_SITE_URL` is the page's
/// error.
package struct RecordingPageStore: PageStore {
    let environment: [String: String]
    let logger: Logger

    /// - Parameters:
    ///   - environment: the host's (the site override, the data folder).
    ///   - logger: where the site's warnings go (stderr: never the browser's stdout).
    package init(environment: [String: String], logger: Logger) {
        self.environment = environment
        self.logger = logger
    }

    package func store(_ page: SitePage) throws(BrowserHostError) -> StoredPosition {
        let logger = self.logger
        let configuration: SiteConfiguration
        do {
            configuration = try SiteConfiguration.resolve(environment: environment) { logger.warning("\($0)") }
        } catch {
            throw BrowserHostError("\(page) was not stored: \(error.message)")
        }
        let caller: BlockingCaller
        do {
            caller = try BlockingCaller()
        } catch {
            throw BrowserHostError("\(page) was not stored: cannot connect to the session bus: \(error)")
        }
        do {
            let recorded = try PageRecorder(lookup: PageLookup(configuration: configuration), caller: caller).record(page)
            return StoredPosition(chapter: recorded.chapter.number, name: recorded.chapter.name, progress: recorded.progress, page: page)
        } catch {
            throw BrowserHostError("\(page) was not stored: \(error.description)")
        }
    }
}
