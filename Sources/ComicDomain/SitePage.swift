/// A page of the comic on its site: `https://www.dragonball-multiverse.com/<language>/page-<number>.html`.
package struct SitePage: Sendable, Hashable, CustomStringConvertible {
    package let language: SiteLanguage
    /// The page number, in `Limits.pages`.
    package let number: Int

    /// - Throws: `invalidPage` when `number` is outside `Limits.pages`.
    package init(language: SiteLanguage, number: Int) throws(ComicError) {
        self.language = language
        self.number = try Self.validNumber(number)
    }

    /// - Throws: `invalidPage` unless `number` is in `Limits.pages`.
    package static func validNumber(_ number: Int) throws(ComicError) -> Int {
        guard Limits.pages.contains(number) else {
            throw ComicError(.invalidPage, "page \(number) is out of range \(Limits.describe(Limits.pages))")
        }
        return number
    }

    /// The path of the page on any origin: `/<language>/page-<number>.html`.
    package var path: String { "/\(language.code)/page-\(number).html" }

    package var description: String { "\(language.code) page \(number)" }

    /// The host names the real site answers on (ASCII, compared case-insensitively).
    package static let siteHosts = ["www.dragonball-multiverse.com", "dragonball-multiverse.com"]

    /// Reads a page URL of the comic's site: `http` or `https` (any case), a host of `siteHosts`
    /// or `extraOrigin`'s host and port, then exactly `/<language>/page-<N>.html` with a listed
    /// language and N decimal without sign or leading zero in `Limits.pages`. A query or fragment
    /// is allowed and ignored; user info, other ports, other paths and percent-encoding are not.
    ///
    /// `extraOrigin` is the `$DBMULTIVERSE_SITE_URL` override (scheme, host, optional port), whose
    /// pages are accepted too.
    ///
    /// Valid: `https://www.dragonball-multiverse.com/en/page-42.html`,
    /// `http://dragonball-multiverse.com/pt_BR/page-1.html#pagetop`.
    /// Invalid: `https://example.com/en/page-42.html`, `https://www.dragonball-multiverse.com/en/page-042.html`,
    /// `https://www.dragonball-multiverse.com/xx/page-42.html`, `https://www.dragonball-multiverse.com/en/chapters.html`.
    /// - Throws: `invalidPage` (another host, path or scheme, or a bad number), or
    ///   `invalidLanguage` for a well-formed page URL in an unknown language; the message quotes the URL.
    package init(url text: String, extraOrigin: SiteOrigin? = nil) throws(ComicError) {
        func reject(_ why: String) -> ComicError {
            ComicError(.invalidPage, "not a page of the comic's site \(quotedForMessage(text)): \(why)")
        }
        let bytes = Array(text.utf8)
        guard let schemeEnd = bytes.firstIndex(of: UInt8(ascii: ":")) else { throw reject("it has no scheme") }
        let scheme = String(decoding: asciiLowercased(bytes[..<schemeEnd]), as: UTF8.self)
        guard scheme == "http" || scheme == "https" else { throw reject("the scheme must be http or https") }
        guard bytes[(schemeEnd + 1)...].starts(with: Array("//".utf8)) else { throw reject("it has no host") }
        let authorityStart = schemeEnd + 3
        let authorityEnd = bytes[authorityStart...].firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.endIndex
        let authority = String(decoding: asciiLowercased(bytes[authorityStart..<authorityEnd]), as: UTF8.self)
        let isSite = Self.siteHosts.contains(authority)
        let isExtra = extraOrigin.map { $0.authority == authority } ?? false
        guard isSite || isExtra else { throw reject("the host is not the comic's site") }

        // The path runs to the query or the fragment, which are ignored.
        let pathEnd = bytes[authorityEnd...].firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.endIndex
        let segments = bytes[authorityEnd..<pathEnd].split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        // "/en/page-42.html" splits into "", "en", "page-42.html".
        guard segments.count == 3, segments[0].isEmpty else { throw reject("the path is not /<language>/page-<N>.html") }
        let file = segments[2]
        let prefix = Array("page-".utf8), suffix = Array(".html".utf8)
        guard file.starts(with: prefix), file.count > prefix.count + suffix.count,
              Array(file.suffix(suffix.count)) == suffix else {
            throw reject("the path is not /<language>/page-<N>.html")
        }
        let digits = file.dropFirst(prefix.count).dropLast(suffix.count)
        guard digits.allSatisfy(\.isASCIIDigit), digits.first != UInt8(ascii: "0"), digits.count <= 5,
              let number = Int(String(decoding: digits, as: UTF8.self)), Limits.pages.contains(number) else {
            throw reject("the page number must be \(Limits.describe(Limits.pages)) without leading zeros")
        }
        let language = try SiteLanguage(validating: String(decoding: segments[1], as: UTF8.self))
        try self.init(language: language, number: number)
    }
}

/// Where the comic's site is reached: `https://www.dragonball-multiverse.com`, or the
/// `$DBMULTIVERSE_SITE_URL` override (scheme, host, optional port; no path) for tests and mirrors.
package struct SiteOrigin: Sendable, Hashable, CustomStringConvertible {
    /// `http` or `https`.
    package let scheme: String
    /// `host` or `host:port`, lower-cased.
    package let authority: String

    /// The real site.
    package static let site = SiteOrigin(scheme: "https", authority: "www.dragonball-multiverse.com")
    /// The environment variable that replaces the site's origin.
    package static let environmentVariable = "DBMULTIVERSE_SITE_URL"

    private init(scheme: String, authority: String) {
        self.scheme = scheme
        self.authority = authority
    }

    /// Parses an origin: `http` or `https`, a host of letters, digits, `-` and `.` (or an IPv4
    /// address), an optional port 1…65535, and at most a trailing `/`.
    /// - Throws: `invalidOption`, quoting the text.
    init(parsing text: String) throws(ComicError) {
        func reject(_ why: String) -> ComicError {
            ComicError(.invalidOption, "invalid site URL \(quotedForMessage(text)): \(why); expected http(s)://host[:port]")
        }
        var rest = Substring(text)
        let scheme: String
        if rest.lowercased().hasPrefix("https://") {
            scheme = "https"
            rest = rest.dropFirst(8)
        } else if rest.lowercased().hasPrefix("http://") {
            scheme = "http"
            rest = rest.dropFirst(7)
        } else {
            throw reject("the scheme must be http or https")
        }
        if rest.hasSuffix("/") { rest = rest.dropLast() }
        let parts = rest.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        let host = parts[0]
        guard !host.isEmpty, host.utf8.allSatisfy({ $0.isASCIILetter || $0.isASCIIDigit || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }) else {
            throw reject("the host must be a name or an IPv4 address, with no path, user or query")
        }
        if parts.count == 2 {
            let port = parts[1]
            guard !port.isEmpty, port.utf8.count <= 5, port.utf8.allSatisfy(\.isASCIIDigit),
                  let number = Int(port), (1...65535).contains(number) else {
                throw reject("the port must be 1…65535")
            }
        }
        self.init(scheme: scheme, authority: rest.lowercased())
    }

    /// The override from `environment`, else the real site.
    /// - Throws: `invalidOption` when the variable is set but not a valid origin.
    package static func resolve(environment: [String: String]) throws(ComicError) -> SiteOrigin {
        guard let value = environment[environmentVariable], !value.isEmpty else { return .site }
        return try SiteOrigin(parsing: value)
    }

    /// `scheme://authority`.
    package var url: String { "\(scheme)://\(authority)" }

    package var description: String { url }

    /// The absolute URL of `path` (which starts with `/`) on this origin.
    package func url(path: String) -> String { url + path }
}

/// ASCII letters lower-cased, every other byte kept.
func asciiLowercased<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> [UInt8] {
    bytes.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }
}
