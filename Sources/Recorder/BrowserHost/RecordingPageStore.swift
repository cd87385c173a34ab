package import ComicDomain
import DBus
package import Logging
import Site

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
