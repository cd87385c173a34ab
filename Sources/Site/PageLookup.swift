package import ComicDomain

/// Where a page of the comic is (docs/usage.md `update --page`, docs/browser-extension.md): the chapter, name, progress
/// and universe of a page, from the stored catalogue, fetched first when there is none or when the
/// page is past its last one (then without the 15-minute wait, as a new page is likely); and the
/// chapter's cover, on request.
///
/// A first catalogue (none was stored, or none readable) is stored at once: it announces nothing,
/// as the widget service counts no pages as published from one. A newer catalogue, fetched for a
/// page past the stored one's end, comes back in the result instead, for the caller to `save`
/// once the reader's new position is stored: in the other order, the service would see the new
/// latest page with the reader still on an older one, and count as new the pages the reader has
/// just read. `PageRecorder` (the Recorder target) runs the steps in that order.
///
/// One per command: its requests share one politeness log.
package struct PageLookup {
    /// Where a page is, with what the entry needs.
    package struct Result: Sendable, Equatable {
        package let language: SiteLanguage
        package let position: ReadingPosition
        /// The catalogue's latest page.
        package let latestPage: Int
        /// The newer catalogue fetched for this lookup, not stored yet (`save(_:)`); nil when the
        /// stored one answered, or a first one was stored.
        package let fetchedCatalogue: Catalogue?

        package var chapter: Catalogue.Chapter { position.chapter }
        package var universe: Int? { position.chapter.universe }
    }

    package let configuration: SiteConfiguration
    private let client: SiteClient

    package init(configuration: SiteConfiguration) {
        self.configuration = configuration
        client = SiteClient(configuration)
    }

    /// Looks up `page`: the stored catalogue, or a fresh one when none is stored (then stored at
    /// once) or `page` is past its last page (then returned, not stored).
    /// - Throws: `pageNotFound` when no chapter holds it even after a fetch; the fetch's failures;
    ///   `storage` when a first catalogue cannot be stored.
    package func lookUp(page: SitePage) throws(SiteError) -> Result {
        let store = CatalogueStore(client: client)
        let language = page.language
        let stored = store.stored(language)
        var catalogue = stored
        var fetched: Catalogue?
        if stored == nil || page.number > stored?.lastChapterPage ?? 0 {
            let rate: SiteClient.Rate = stored == nil ? .polite : .skipInterval
            let refreshed = try store.refresh(language, stored: stored, rate: rate)
            if stored == nil {
                try store.save(refreshed.catalogue)
            } else if refreshed.catalogue != stored {
                fetched = refreshed.catalogue
            }
            catalogue = refreshed.catalogue
        }
        guard let catalogue, let position = catalogue.position(ofPage: page.number) else {
            let range = catalogue.map { " (its chapters hold pages \($0.pageRange.lowerBound)–\($0.pageRange.upperBound))" } ?? ""
            throw SiteError(.pageNotFound, "no chapter of the \(language.code) catalogue holds page \(page.number)\(range)")
        }
        return Result(language: language, position: position, latestPage: catalogue.latestPage, fetchedCatalogue: fetched)
    }

    /// The cover of `chapter`: its first page's image, else its thumbnail (JPEG or PNG of at most
    /// 8 MiB); nil when neither could be had. Failures are warnings, not errors.
    package func cover(of chapter: Catalogue.Chapter, language: SiteLanguage) -> [UInt8]? {
        var candidates: [String] = []
        let pageURL = client.url("/\(language.code)/page-\(chapter.startPage).html")
        do {
            if case .fetched(let response) = try client.get(pageURL, bodyLimit: SiteClient.markupLimit, rate: .polite),
               let image = try PageExtractor.page(in: response.body, encoding: charset(of: response.contentType), pageURL: pageURL).imageURL {
                candidates.append(image)
            }
        } catch {
            configuration.warn("no cover from the chapter's first page: \(error.message)")
        }
        if !chapter.thumbnailURL.isEmpty { candidates.append(chapter.thumbnailURL) }
        for url in candidates where isOnOrigin(url) {
            do {
                guard case .fetched(let response) = try client.get(url, bodyLimit: SiteClient.imageLimit, rate: .polite) else { continue }
                try CoverImage.validate(response.body)
                return response.body
            } catch let error as SiteError {
                configuration.warn("cover \(url): \(error.message)")
            } catch {
                configuration.warn("cover \(url): \(error)")
            }
        }
        return nil
    }

    /// Images are fetched only from the site (or its override): the markup could name any host.
    private func isOnOrigin(_ url: String) -> Bool {
        let origin = configuration.origin.url
        let lower = url.lowercased()
        return lower.hasPrefix(origin + "/") || SitePage.siteHosts.contains { lower.hasPrefix("https://\($0)/") }
    }
}
