/// Where the opener shows a chapter: the comic's own site.
public enum ComicSite {
    /// The site's base address.
    public static let base = "https://www.dragonball-multiverse.com"
    /// The language used when none (or an invalid one) is known.
    public static let defaultLanguage = "en"

    /// `…/<language>/page-<page>.html` when `page` is known (and in `Limits.pages`), else the
    /// chapter list `…/<language>/chapters.html?comic=page&chaptersmode=1`. `language`
    /// defaults to `en`, also when it is not a valid code, since it goes into the URL path.
    public static func url(page: Int?, language: String?) -> String {
        let lang = language.flatMap { Limits.isValidLanguage($0) ? $0 : nil } ?? defaultLanguage
        if let page, Limits.pages.contains(page) {
            return "\(base)/\(lang)/page-\(page).html"
        }
        return "\(base)/\(lang)/chapters.html?comic=page&chaptersmode=1"
    }
}
