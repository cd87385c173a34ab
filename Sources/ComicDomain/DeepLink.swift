/// A validated `dbmultiverse://chapter/<N>` link (docs/deep-links.md).
///
/// Grammar: scheme `dbmultiverse` and host `chapter` (both ASCII case-insensitive), `://`
/// between them, then `/N` with N decimal in `Limits.chapters`, no sign, no leading zero, and
/// at most one trailing `/`. No user info, port, query, fragment, further path segments,
/// whitespace or percent-encoding.
///
/// Valid: `dbmultiverse://chapter/42`, `DBMultiverse://Chapter/42/`.
/// Invalid: `dbmultiverse://chapter/042`, `dbmultiverse://chapter/42?page=3`,
/// `dbmultiverse:chapter/42`, `dbmultiverse://chapter/%34%32`.
package struct DeepLink: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// The URL scheme.
    package static let scheme = "dbmultiverse"
    /// The only host.
    static let host = "chapter"

    /// The chapter the link opens.
    package let chapter: Int

    /// The normalised form, `dbmultiverse://chapter/<chapter>`.
    package var uri: String { Self.uri(chapter: chapter) }

    package var description: String { uri }

    /// The link to `chapter`.
    /// - Throws: `invalidChapter` when `chapter` is outside `Limits.chapters`.
    package init(chapter: Int) throws(ComicError) {
        self.chapter = try ChapterData.validChapter(chapter)
    }

    /// Parses `text` (see the type's grammar).
    /// - Throws: `invalidDeepLink` quoting the link and saying what is wrong.
    init(parsing text: String) throws(ComicError) {
        switch Self.parse(text) {
        case .success(let link): self = link
        case .failure(let failure): throw failure.error
        }
    }

    private init(validChapter: Int) {
        chapter = validChapter
    }

    /// What is wrong with a rejected link, for callers that branch on it.
    enum Problem: Sendable, Equatable {
        /// The text is empty.
        case empty
        /// The scheme is not `dbmultiverse`.
        case unknownScheme
        /// No `//` authority, or its host is not `chapter`.
        case unknownHost
        /// The chapter is missing or is not a plain decimal number.
        case notANumber
        /// The chapter is a number outside `Limits.chapters`.
        case outOfRange
        /// User info, port, query, fragment or further path segments.
        case extraParts
    }

    /// A rejected link: the problem, and the `invalidDeepLink` error that explains it.
    struct Failure: Error, Sendable, Equatable {
        /// What is wrong.
        let problem: Problem
        /// `invalidDeepLink`, with a message quoting the link.
        let error: ComicError
    }

    /// `dbmultiverse://chapter/<chapter>`, unvalidated.
    package static func uri(chapter: Int) -> String { "\(scheme)://\(host)/\(chapter)" }

    /// Parses `text` without throwing.
    static func parse(_ text: String) -> Result<DeepLink, Failure> {
        parseLink(text, hosts: [host]).map { DeepLink(validChapter: $0.number) }
    }

    /// Parses `dbmultiverse://<host>/<N>` for one of `hosts` (see the type's grammar, which both
    /// link kinds share); returns the host as listed and N.
    static func parseLink(_ text: String, hosts: [String]) -> Result<(host: String, number: Int), Failure> {
        let bytes = Array(text.utf8)
        let expected = hosts.map { "\(scheme)://\($0)/<\(Limits.describe(Limits.chapters))>" }.joined(separator: " or ")
        func fail(_ problem: Problem, _ why: String) -> Result<(host: String, number: Int), Failure> {
            let message = "invalid deep link \(quotedForMessage(text)): \(why); expected \(expected)"
            return .failure(Failure(problem: problem, error: ComicError(.invalidDeepLink, message)))
        }
        guard !bytes.isEmpty else { return fail(.empty, "it is empty") }

        // Scheme: everything before the first ':'.
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else {
            return fail(.unknownScheme, "it has no scheme")
        }
        guard asciiLowercased(bytes[..<colon]) == Array(scheme.utf8) else {
            return fail(.unknownScheme, "the scheme is not \(scheme)\(whitespaceNote(bytes[..<colon]))")
        }

        // Authority: after "//", up to '/', '?' or '#' (RFC 3986).
        var i = colon + 1
        guard bytes[i...].starts(with: Array("//".utf8)) else {
            return fail(.unknownHost, "\"//\(hosts[0])\" must follow \"\(scheme):\"")
        }
        i += 2
        let authorityEnd = bytes[i...].firstIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) ?? bytes.endIndex
        let authority = bytes[i..<authorityEnd]
        if authority.contains(UInt8(ascii: "@")) {
            return fail(.extraParts, "user information is not allowed")
        }
        if let portColon = authority.firstIndex(of: UInt8(ascii: ":")),
           hosts.contains(where: { asciiLowercased(authority[..<portColon]) == Array($0.utf8) }) {
            return fail(.extraParts, "a port is not allowed")
        }
        guard let matchedHost = hosts.first(where: { asciiLowercased(authority) == Array($0.utf8) }) else {
            return fail(.unknownHost, "the host is not \(hosts.joined(separator: " or "))\(whitespaceNote(authority))")
        }
        let what = matchedHost // "chapter" or "page": what the number is
        i = authorityEnd

        // Path: "/N" and at most one more "/".
        guard i < bytes.endIndex else { return fail(.notANumber, "the \(what) number is missing") }
        if bytes[i] != UInt8(ascii: "/") { return fail(.extraParts, extraDescription(bytes[i])) }
        i += 1
        let numberEnd = bytes[i...].firstIndex(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) ?? bytes.endIndex
        let digits = bytes[i..<numberEnd]
        guard !digits.isEmpty else { return fail(.notANumber, "the \(what) number is missing") }
        guard digits.allSatisfy(\.isASCIIDigit) else {
            return fail(.notANumber, "the \(what) \(quotedForMessage(String(decoding: digits, as: UTF8.self))) is not a plain decimal number\(whitespaceNote(digits))")
        }
        let rest = bytes[numberEnd...]
        if !(rest.isEmpty || rest.elementsEqual([UInt8(ascii: "/")])) {
            let first = rest.first ?? UInt8(ascii: "/")
            return fail(.extraParts, first == UInt8(ascii: "/") ? "nothing may follow the \(what) number but one \"/\"" : extraDescription(first))
        }
        switch number(digits, what: what) {
        case .success(let value): return .success((matchedHost, value))
        case .failure(let failure): return fail(failure.problem, failure.why)
        }
    }

    /// A link's number from its decimal digits: no leading zero, in the range chapters and pages
    /// share (1…99999).
    private static func number(_ digits: ArraySlice<UInt8>, what: String) -> Result<Int, NumberProblem> {
        guard digits.count == 1 || digits.first != UInt8(ascii: "0") else {
            return .failure(NumberProblem(problem: .notANumber, why: "the \(what) number has a leading zero"))
        }
        // Decimal digits only here; more than 5 digits (or a lone 0) is out of range anyway.
        var value = 0
        if digits.count <= 5 {
            for digit in digits { value = value * 10 + Int(digit - UInt8(ascii: "0")) }
        }
        guard digits.count <= 5, Limits.chapters.contains(value), Limits.pages.contains(value) else {
            return .failure(NumberProblem(
                problem: .outOfRange, why: "\(what) \(shortened(String(decoding: digits, as: UTF8.self))) is out of range \(Limits.describe(Limits.chapters))"))
        }
        return .success(value)
    }

    private struct NumberProblem: Error {
        let problem: Problem
        let why: String
    }

    /// A chapter or page number as a command line writes it (`activate open-chapter N`), by the
    /// links' rule: decimal digits, no sign, no leading zero, in 1…99999. A negative number is
    /// said to be out of range.
    /// - Throws: `invalidChapter` (`what` "chapter") or `invalidPage` with the reason.
    package static func plainNumber(_ text: String, what: String) throws(ComicError) -> Int {
        let kind: ComicError.Kind = what == "chapter" ? .invalidChapter : .invalidPage
        var digits = Array(text.utf8)[...]
        let negative = digits.first == UInt8(ascii: "-")
        if negative { digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit) else {
            throw ComicError(kind, "the \(what) \(quotedForMessage(text)) is not a plain decimal number")
        }
        if negative {
            throw ComicError(kind, "\(what) \(shortened(text)) is out of range \(Limits.describe(Limits.chapters))")
        }
        switch number(digits, what: what) {
        case .success(let value): return value
        case .failure(let failure): throw ComicError(kind, failure.why)
        }
    }

    private static func whitespaceNote(_ bytes: ArraySlice<UInt8>) -> String {
        if bytes.contains(where: { $0 <= 0x20 || $0 == 0x7F }) { return " (it contains whitespace or a control character)" }
        if bytes.contains(UInt8(ascii: "%")) { return " (percent-encoding is not allowed)" }
        return ""
    }

    private static func extraDescription(_ separator: UInt8) -> String {
        switch separator {
        case UInt8(ascii: "?"): "a query is not allowed"
        case UInt8(ascii: "#"): "a fragment is not allowed"
        default: "unexpected extra parts"
        }
    }
}

/// A deep link of either kind (docs/deep-links.md): `dbmultiverse://chapter/<N>` (the main story's chapter
/// N) or `dbmultiverse://page/<N>` (page N of the comic, in whatever chapter or special holds it).
/// Both follow `DeepLink`'s grammar; only the host differs.
///
/// Valid: `dbmultiverse://page/980`, `DBMultiverse://Page/980/`, `dbmultiverse://chapter/42`.
/// Invalid: `dbmultiverse://page/0980`, `dbmultiverse://page/980?lang=fr`, `dbmultiverse://pages/980`.
package enum ComicLink: Sendable, Hashable, CustomStringConvertible {
    case chapter(DeepLink)
    /// A page number in `Limits.pages`.
    case page(Int)

    /// The host of page links.
    static let pageHost = "page"

    /// `dbmultiverse://page/<page>`, unvalidated.
    package static func uri(page: Int) -> String { "\(DeepLink.scheme)://\(pageHost)/\(page)" }

    /// The link to `page`.
    /// - Throws: `invalidPage` when `page` is outside `Limits.pages`.
    package init(page: Int) throws(ComicError) {
        self = .page(try SitePage.validNumber(page))
    }

    /// Parses a chapter or page link.
    /// - Throws: `invalidDeepLink` quoting the link, saying what is wrong and what is expected.
    package init(parsing text: String) throws(ComicError) {
        switch DeepLink.parseLink(text, hosts: [DeepLink.host, Self.pageHost]) {
        case .success(let link) where link.host == Self.pageHost:
            self = .page(link.number)
        case .success(let link):
            self = .chapter(try DeepLink(chapter: link.number))
        case .failure(let failure):
            throw failure.error
        }
    }

    /// The normalised form.
    package var uri: String {
        switch self {
        case .chapter(let link): link.uri
        case .page(let page): Self.uri(page: page)
        }
    }

    package var description: String { uri }
}
