/// An error of the comic domain: what kind of rule was broken, and a precise message.
///
/// The kinds' raw values are the suffixes of the contract's D-Bus error names
/// (`com.nobadi.DBMultiverse.Error.<rawValue>`), except `invalidOption`, which the desktop
/// layer reports as `org.freedesktop.DBus.Error.InvalidArgs`.
public struct ComicError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The rule that was broken.
    public enum Kind: String, Sendable, CaseIterable {
        case invalidChapter = "InvalidChapter"
        case invalidName = "InvalidName"
        case invalidProgress = "InvalidProgress"
        case invalidDeepLink = "InvalidDeepLink"
        case invalidFamily = "InvalidFamily"
        case unknownKind = "UnknownKind"
        case unknownAction = "UnknownAction"
        case coverRejected = "CoverRejected"
        case noCurrentChapter = "NoCurrentChapter"
        case storageFailed = "StorageFailed"
        /// A language the comic's site does not publish in (DESIGN §11).
        case invalidLanguage = "InvalidLanguage"
        /// A page number out of range, or a URL that is not a page of the comic's site.
        case invalidPage = "InvalidPage"
        /// A bad `page` or `language` option value.
        case invalidOption = "InvalidOption"
    }

    /// The rule that was broken.
    public let kind: Kind
    /// Human-readable: what was wrong and, where there is one, the allowed range.
    public let message: String

    /// Makes an error of `kind` explained by `message`.
    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The message alone, ready for stderr or a D-Bus error reply.
    public var description: String { message }
}
