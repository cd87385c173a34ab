package import ComicDomain

/// `dbmultiverse sync` (docs/usage.md#the-comics-site, docs/notifications.md): reads the feed with a conditional request and, when a
/// newer page exists (or there is no catalogue yet, or `force`), the chapter list; stores the
/// catalogue with its latest page. The stored catalogue is replaced only by a valid fetch with at
/// least as many chapters; a failure leaves it byte for byte as it was.
package struct CatalogueSync {
    /// What a sync did.
    package struct Summary: Sendable, Equatable {
        package enum Change: Sendable, Equatable {
            /// A first catalogue.
            case created
            /// `count` pages were published since the last sync (the chapter list may have changed too).
            case newPages(Int)
            /// The chapter list changed without a newer page.
            case updated
            case unchanged
            /// The feed was read less than 15 minutes ago: not asked again.
            case checkedRecently(secondsAgo: Int64)
        }

        package let catalogue: Catalogue
        package let change: Change
        /// Requests that went out.
        package let requests: Int

        /// `en: 93 chapters, pages 1–2450, latest page 2450 (unchanged)`.
        package var line: String {
            let range = catalogue.pageRange
            let note: String = switch change {
            case .created: "new catalogue"
            case .newPages(let count): count == 1 ? "1 new page" : "\(count) new pages"
            case .updated: "chapter list updated"
            case .unchanged: "unchanged"
            case .checkedRecently(let seconds): "checked \(max(seconds / 60, 0)) min ago; not asked again before 15 min"
            }
            return "\(catalogue.language.code): \(catalogue.chapters.count) chapters, pages \(range.lowerBound)–\(range.upperBound), latest page \(catalogue.latestPage) (\(note))"
        }
    }

    package let configuration: SiteConfiguration

    package init(configuration: SiteConfiguration) {
        self.configuration = configuration
    }

    /// - Throws: `SiteError` with one line saying what failed; nothing stored changed then.
    package func sync(language: SiteLanguage, force: Bool) throws(SiteError) -> Summary {
        let client = SiteClient(configuration)
        let store = CatalogueStore(client: client)
        let stored = store.stored(language)
        let rate: SiteClient.Rate = force ? .skipInterval : .polite

        // The feed first: a conditional request, its validators kept only while a catalogue exists.
        let feedURL = client.url(ComicSite.feedPath(language: language.code))
        let validators = stored == nil ? (etag: nil, lastModified: nil) : client.validators(for: feedURL)
        var feedLatest: Int?
        var feedResponse: HTTPResponse?
        var checkedRecently: Int64?
        switch try client.get(feedURL, etag: validators.etag, lastModified: validators.lastModified,
                              bodyLimit: SiteClient.markupLimit, rate: rate) {
        case .fetched(let response):
            feedLatest = try FeedExtractor.latestPage(in: response.body, feedURL: feedURL)
            feedResponse = response
        case .notModified:
            break
        case .askedRecently(let secondsAgo):
            checkedRecently = secondsAgo
        }

        // Then the chapter list, when needed.
        var catalogue: Catalogue
        var listChanged = false
        if let stored, !force, feedLatest.map({ $0 <= stored.latestPage }) ?? true {
            catalogue = stored
        } else {
            let refreshed = try store.refresh(language, stored: stored, rate: rate)
            catalogue = refreshed.catalogue
            listChanged = refreshed.changed
        }
        if let feedLatest, feedLatest > catalogue.latestPage {
            catalogue = try withLatestPage(catalogue, feedLatest)
        }
        if catalogue != stored { try store.save(catalogue) }
        if let feedResponse { client.remember(feedResponse, for: feedURL) }

        let change: Summary.Change
        if let stored {
            if catalogue.latestPage > stored.latestPage {
                change = .newPages(catalogue.latestPage - stored.latestPage)
            } else if listChanged || catalogue.chapters != stored.chapters {
                change = .updated
            } else if let checkedRecently {
                change = .checkedRecently(secondsAgo: checkedRecently)
            } else {
                change = .unchanged
            }
        } else {
            change = .created
        }
        return Summary(catalogue: catalogue, change: change, requests: client.requestCount)
    }

    private func withLatestPage(_ catalogue: Catalogue, _ page: Int) throws(SiteError) -> Catalogue {
        do {
            return try catalogue.withLatestPage(page)
        } catch {
            throw SiteError(.unexpectedContent, "latest page \(page): \(error.message)")
        }
    }
}

/// Reading, fetching and storing catalogues, shared by the sync and the page lookup.
struct CatalogueStore {
    let client: SiteClient
    var configuration: SiteConfiguration { client.configuration }

    /// The stored catalogue; an invalid file is reported and treated as none (a fetch replaces it).
    func stored(_ language: SiteLanguage) -> Catalogue? {
        switch configuration.folder.readCatalogue(language) {
        case .missing: return nil
        case .valid(let catalogue): return catalogue
        case .invalid(let reason):
            configuration.warn("ignoring the stored catalogue: \(reason)")
            return nil
        }
    }

    /// Fetches the chapter list (conditionally when a catalogue is stored) and returns the
    /// catalogue to keep: the stored one when the list is unchanged (304) or was asked recently,
    /// else the fetched one (not yet saved).
    /// - Throws: the fetch's failure; `unexpectedContent` when the list yields no chapters or
    ///   fewer than stored; `askedRecently` when nothing is stored and it was asked recently.
    func refresh(_ language: SiteLanguage, stored: Catalogue?, rate: SiteClient.Rate) throws(SiteError) -> (catalogue: Catalogue, changed: Bool) {
        let url = client.url(ComicSite.chapterListPath(language: language.code))
        switch try client.get(url, etag: stored?.fetch.etag, lastModified: stored?.fetch.lastModified,
                              bodyLimit: SiteClient.markupLimit, rate: rate) {
        case .notModified:
            guard let stored else { throw SiteError(.unexpectedContent, "\(url): HTTP 304 to an unconditional request") }
            return (stored, false)
        case .askedRecently(let secondsAgo):
            guard let stored else {
                throw SiteError(.askedRecently, "\(url): asked \(secondsAgo / 60) min ago without a usable answer; not asked again before 15 min (--force asks now)")
            }
            return (stored, false)
        case .fetched(let response):
            let chapters = try ChapterListExtractor.chapters(in: response.body, encoding: charset(of: response.contentType), pageURL: url,
                                                             skipped: configuration.warn)
            let fetch = Catalogue.FetchMetadata(url: url, etag: response.etag.flatMap(SiteClient.usableValidator),
                                                lastModified: response.lastModified.flatMap(SiteClient.usableValidator),
                                                fetchedAt: configuration.now())
            let fetched: Catalogue
            do {
                fetched = try Catalogue(language: language, chapters: chapters, latestPage: stored?.latestPage ?? 1, fetch: fetch)
            } catch {
                throw SiteError(.unexpectedContent, "\(url): \(error.message)")
            }
            if let stored, let reason = stored.reasonToKeep(over: fetched) {
                throw SiteError(.unexpectedContent, "\(url): \(reason)")
            }
            return (fetched, stored.map { $0.chapters != fetched.chapters } ?? true)
        }
    }

    func save(_ catalogue: Catalogue) throws(SiteError) {
        do {
            try configuration.folder.writeCatalogue(catalogue)
        } catch {
            throw SiteError(.storage, error.message)
        }
    }
}

/// The `charset` parameter of a Content-Type header, when it names one.
func charset(of contentType: String?) -> String? {
    guard let contentType else { return nil }
    for parameter in contentType.split(separator: ";").dropFirst() {
        let pair = parameter.split(separator: "=", maxSplits: 1)
        guard pair.count == 2, pair[0].trimmingWhitespace().lowercased() == "charset" else { continue }
        var value = pair[1].trimmingWhitespace()
        if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
        // A charset name goes to libxml2: letters, digits and - _ . : only.
        guard !value.isEmpty, value.utf8.count <= 40,
              value.utf8.allSatisfy({ ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || (0x30...0x39).contains($0) || [0x2D, 0x5F, 0x2E, 0x3A].contains($0) })
        else { return nil }
        return value
    }
    return nil
}
