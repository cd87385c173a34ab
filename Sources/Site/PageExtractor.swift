import ComicDomain
/// Reads a page of the comic (docs/usage.md#the-comics-site): its image, `#balloonsimg img` since 2025, before that
/// `img#balloonsimg` (its `src`, or a `url(…)` in its `style`) or a `div#balloonsimg` whose `style`
/// holds `url(…)`; and `link[rel=Last]`, the latest page.
enum PageExtractor {
    struct Page: Sendable, Equatable {
        /// The page image's absolute URL.
        var imageURL: String?
        /// The latest page of the comic, from `link rel="Last"`.
        var latestPage: Int?
    }

    static func page(in html: [UInt8], encoding: String? = nil, pageURL: String) throws(SiteError) -> Page {
        let document = try MarkupDocument.html(html, encoding: encoding, source: pageURL)
        var page = Page()
        let candidates: [(String, (MarkupNode) -> String?)] = [
            ("//*[@id='balloonsimg']//img[@src]", { $0.attribute("src") }),
            ("//img[@id='balloonsimg']", { $0.attribute("src").flatMap(nonEmpty) ?? $0.attribute("style").flatMap(styleURL) }),
            ("//*[@id='balloonsimg'][@style]", { $0.attribute("style").flatMap(styleURL) }),
        ]
        for (expression, reference) in candidates {
            if let found = document.select(expression).lazy.compactMap(reference).compactMap({ SiteURL.resolve($0, against: pageURL) }).first {
                page.imageURL = found
                break
            }
        }
        let rel = "translate(normalize-space(@rel), 'LAST', 'last')"
        page.latestPage = document.select("//link[\(rel) = 'last'] | //a[\(rel) = 'last']")
            .lazy.compactMap { $0.attribute("href").flatMap(SiteURL.pageNumber(inLink:)) }.first
        return page
    }

    private static func nonEmpty(_ text: String) -> String? { text.trimmingWhitespace().isEmpty ? nil : text }

    /// The URL in a style's `url(…)` (quoted or not), e.g. `background-image:url("/img.png")`.
    static func styleURL(_ style: String) -> String? {
        let bytes = Array(style.utf8)
        let lower = bytes.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }
        guard let open = lower.firstRange(of: Array("url(".utf8)),
              let close = bytes[open.upperBound...].firstIndex(of: UInt8(ascii: ")")) else { return nil }
        let inner = String(decoding: bytes[open.upperBound..<close], as: UTF8.self).trimmingWhitespace()
        let unquoted = inner.count >= 2 && (inner.first == "\"" || inner.first == "'") && inner.last == inner.first
            ? String(inner.dropFirst().dropLast()) : inner
        return unquoted.isEmpty ? nil : unquoted
    }
}

/// Reads the site's feed of new pages (docs/notifications.md): RSS 1.0/RDF, whose items link to
/// `page-N.html`, and RSS 2.0 as well. The latest page is the highest page any item links to.
enum FeedExtractor {
    /// - Throws: `unexpectedContent` when the document is not RSS or names no page.
    static func latestPage(in xml: [UInt8], feedURL: String) throws(SiteError) -> Int {
        let document = try MarkupDocument.xml(xml, source: feedURL)
        guard let root = document.root, let rootName = root.name, rootName == "rss" || rootName == "RDF" else {
            throw SiteError(.unexpectedContent, "\(feedURL): not an RSS feed")
        }
        // Namespace-blind: RSS 1.0 items are in the RSS 1.0 namespace, RSS 2.0 ones in none.
        let links = document.select("//*[local-name()='item']/*[local-name()='link' or local-name()='guid'] | //*[local-name()='item']/@*[local-name()='about']")
        let pages = links.compactMap { SiteURL.pageNumber(inLink: $0.text(limit: 2048)) }
        guard let latest = pages.max() else {
            throw SiteError(.unexpectedContent, "\(feedURL): the feed lists no pages")
        }
        return latest
    }
}
