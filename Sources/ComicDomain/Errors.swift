/// A failure of one of the layers: what kind it is (`Kind`, each layer's own enum, so kinds can be
/// added without breaking callers) and one precise line that says it. The comic domain's
/// `ComicError`, the site's `SiteError` and the browser history's `HistoryError` are this struct.
package struct KindedError<Failure: Sendable & Equatable>: Error, Sendable, Equatable, CustomStringConvertible {
    /// The layer's kinds of failure.
    package typealias Kind = Failure

    /// What went wrong.
    package let kind: Kind
    /// Human-readable: what was wrong and, where there is one, the allowed range or the file at fault.
    package let message: String

    /// Makes an error of `kind` explained by `message`.
    package init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message alone, ready for stderr or a D-Bus error reply.
    package var description: String { message }
}

/// An error of the comic domain: the rule that was broken, and a precise message.
package typealias ComicError = KindedError<ComicErrorKind>

/// The rules of the comic domain. The raw values are the suffixes of the contract's D-Bus error
/// names (`com.nobadi.DBMultiverse.Error.<rawValue>`: the case names, capitalised), except
/// `invalidOption`, which the widget's bus layer reports as `org.freedesktop.DBus.Error.InvalidArgs`.
package enum ComicErrorKind: CaseIterable, Sendable, RawRepresentable {
    case invalidChapter, invalidName, invalidProgress, invalidDeepLink, invalidFamily, unknownKind, unknownAction
    case coverRejected, noCurrentChapter, storageFailed
    /// A language the comic's site does not publish in (docs/usage.md#the-comics-site).
    case invalidLanguage
    /// A page number out of range, or a URL that is not a page of the comic's site.
    case invalidPage
    /// A bad `page` or `language` option value.
    case invalidOption

    /// `InvalidChapter` for `invalidChapter`.
    package var rawValue: String {
        let name = String(describing: self)
        return name.prefix(1).uppercased() + name.dropFirst()
    }

    package init?(rawValue: String) {
        guard let kind = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = kind
    }
}
