extension FixtureSite {
    /// A small valid PNG (the signature and an IHDR chunk; enough for the cover checks).
    package static let pngBytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0, 0x90, 0x77, 0x53, 0xDE]
    /// A JPEG start (enough for the cover checks).
    package static let jpegBytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 16, 0x4A, 0x46, 0x49, 0x46, 0, 1, 1, 0, 0, 1, 0, 1, 0, 0, 0xFF, 0xD9]

    /// Publishes `comic` in `language`: the chapter list (with an ETag), the feed (RSS 1.0, with a
    /// weak ETag and a Last-Modified), every page and the page images and thumbnails.
    package func publish(_ comic: FixtureComic, language: String = "en", list: FixtureComic.ChapterListVariant = .current,
                        pages: FixtureComic.PageVariant = .imageInside, feedRSS2: Bool = false, gzip: Bool = false) {
        let origin = self.origin
        serve("/\(language)/chapters.html?comic=page&chaptersmode=1",
              .content(body: Array(comic.chapterListHTML(list, language: language).utf8), contentType: "text/html; charset=utf-8",
                       etag: "\"list-\(comic.latestPage)-\(comic.chapters.count)\"", gzip: gzip))
        let feed = feedRSS2 ? comic.feedRSS2(origin: origin, language: language) : comic.feedRSS1(origin: origin, language: language)
        serve("/flux.rss.php?lang=\(language)",
              .content(body: Array(feed.utf8), contentType: "application/rss+xml", etag: "W/\"feed-\(comic.latestPage)\"",
                       lastModified: "Wed, 2\(comic.latestPage % 10) Nov 2026 20:00:00 GMT", gzip: gzip))
        serveOthers { target in
            if let page = Self.number(in: target, prefix: "/\(language)/page-", suffix: ".html"), page <= comic.latestPage {
                return .content(body: Array(comic.pageHTML(page, pages, language: language).utf8), contentType: "text/html; charset=utf-8")
            }
            if Self.number(in: target, prefix: "/images/page-", suffix: ".png") != nil {
                return .content(body: FixtureSite.pngBytes, contentType: "image/png")
            }
            if Self.number(in: target, prefix: "/images/thumb-", suffix: ".jpg") != nil {
                return .content(body: FixtureSite.jpegBytes, contentType: "image/jpeg")
            }
            return nil
        }
    }

    private static func number(in target: String, prefix: String, suffix: String) -> Int? {
        guard target.hasPrefix(prefix), target.hasSuffix(suffix) else { return nil }
        return Int(target.dropFirst(prefix.count).dropLast(suffix.count))
    }
}
