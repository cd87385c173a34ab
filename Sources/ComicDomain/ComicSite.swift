/// Addresses on the comic's site (docs/deep-links.md, docs/usage.md#the-comics-site), on its own origin or the `$DBMULTIVERSE_SITE_URL`
/// override, which replaces it everywhere.
package enum ComicSite {
    /// The site's base address.
    static let base = SiteOrigin.site.url
    /// The language used when none (or an invalid one) is known.
    static let defaultLanguage = "en"

    /// `…/<language>/page-<page>.html` when `page` is known (and in `Limits.pages`), else the
    /// chapter list `…/<language>/chapters.html?comic=page&chaptersmode=1`, on `origin`.
    /// `language` defaults to `en`, also when the site has no such language, since it goes into the URL path.
    package static func url(page: Int?, language: String?, origin: SiteOrigin) -> String {
        let lang = language.flatMap(SiteLanguage.init(code:))?.code ?? defaultLanguage
        if let page, Limits.pages.contains(page) {
            return origin.url(path: "/\(lang)/page-\(page).html")
        }
        return origin.url(path: chapterListPath(language: lang))
    }

    /// `/<language>/chapters.html?comic=page&chaptersmode=1`.
    package static func chapterListPath(language: String) -> String {
        "/\(language)/chapters.html?comic=page&chaptersmode=1"
    }

    /// `/flux.rss.php?lang=<language>`, the feed of new pages.
    package static func feedPath(language: String) -> String {
        "/flux.rss.php?lang=\(language)"
    }
}
