/// A language the comic's site publishes in (docs/usage.md#the-comics-site): its code as the site writes it in
/// paths, `en`, `fr`, `pt_BR`… Only the 37 codes of `all` exist; anything else is rejected, since
/// a code goes into URL paths and file names (`chapters-<code>.json`).
package struct SiteLanguage: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The site's code, e.g. `en` or `pt_BR`.
    package let code: String

    /// Every language of the site, in the site's own order.
    package static let all: [SiteLanguage] = [
        "en", "fr", "it", "es", "pt_BR", "pl", "es_CO", "de", "ct_CT", "pt", "jp", "cn", "hu_HU", "nl", "kr_KR",
        "tr_TR", "ar_JO", "xx_VE", "xx_LMO", "gr_GR", "eu_EH", "sv_SE", "he_HE", "ga_ES", "ru_RU", "co_FR", "lt_LT",
        "la_LA", "da_DK", "ro_RO", "fi_FI", "hr_HR", "no_NO", "tl_PI", "bg_BG", "br_FR", "fr_PA",
    ].map(SiteLanguage.init(listed:))

    /// English, the site's (and the contract's) default.
    package static let english = SiteLanguage(listed: "en")

    private static let codes: Set<String> = Set(all.map(\.code))

    init(listed code: String) { self.code = code }

    /// The language with this code, matched exactly (the site's paths are case-sensitive).
    /// - Throws: `invalidLanguage`, naming the valid codes.
    package init(validating code: String) throws(ComicError) {
        guard Self.codes.contains(code) else {
            throw ComicError(.invalidLanguage,
                             "unknown site language \(quotedForMessage(code)): the languages are \(Self.all.map(\.code).joined(separator: " "))")
        }
        self.code = code
    }

    /// The language with this code, or nil when the site has none.
    init?(code: String) {
        guard Self.codes.contains(code) else { return nil }
        self.code = code
    }

    package var description: String { code }

    package static func < (lhs: SiteLanguage, rhs: SiteLanguage) -> Bool { lhs.code < rhs.code }
}
