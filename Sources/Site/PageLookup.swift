public import ComicDomain

/// "The reader is on page N" (DESIGN §8 `update --page`, §11, §12): the chapter, name, progress,
/// universe and cover of a page, from the stored catalogue, fetched first when there is none or
/// when N is past its last page (then without the 15-minute wait, as a new page is likely).
/// Phase 2 wires it to the bus; it stores nothing but the catalogue.
public struct PageLookup {
    /// Where a page is, with what the entry needs.
    public struct Result: Sendable, Equatable {
        public let language: SiteLanguage
        public let position: ReadingPosition
        /// The catalogue's latest page.
        public let latestPage: Int
        /// The chapter's cover, JPEG or PNG of at most 8 MiB: its first page's image, else its
        /// thumbnail; nil when neither could be had.
        public let cover: [UInt8]?

        public var chapter: Catalogue.Chapter { position.chapter }
        public var universe: Int? { position.chapter.universe }
    }

    public let configuration: SiteConfiguration

    public init(configuration: SiteConfiguration) {
        self.configuration = configuration
    }

    /// Looks up `page` of `language`; `withCover: false` skips the cover's requests.
    /// - Throws: `pageNotFound` when no chapter holds it even after a fetch; the fetch's failures.
    public func lookUp(page: SitePage, withCover: Bool = true) throws(SiteError) -> Result {
        let client = SiteClient(configuration)
        let store = CatalogueStore(client: client)
        let language = page.language
        var catalogue = store.stored(language)
        if catalogue == nil || page.number > catalogue?.lastChapterPage ?? 0 {
            let rate: SiteClient.Rate = catalogue == nil ? .polite : .skipInterval
            let refreshed = try store.refresh(language, stored: catalogue, rate: rate)
            if refreshed.catalogue != catalogue { try store.save(refreshed.catalogue) }
            catalogue = refreshed.catalogue
        }
        guard let catalogue, let position = catalogue.position(ofPage: page.number) else {
            let range = catalogue.map { " (its chapters hold pages \($0.pageRange.lowerBound)–\($0.pageRange.upperBound))" } ?? ""
            throw SiteError(.pageNotFound, "no chapter of the \(language.code) catalogue holds page \(page.number)\(range)")
        }
        let cover = withCover ? self.cover(of: position.chapter, language: language, client: client) : nil
        return Result(language: language, position: position, latestPage: catalogue.latestPage, cover: cover)
    }

    /// The chapter's first page's image, else its thumbnail; failures are warnings, not errors.
    private func cover(of chapter: Catalogue.Chapter, language: SiteLanguage, client: SiteClient) -> [UInt8]? {
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
