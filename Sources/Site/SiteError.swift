package import ComicDomain

/// Why talking to the comic's site failed: what kind of failure, and one line that says it
/// (e.g. "https://…/flux.rss.php?lang=en: HTTP 503").
package typealias SiteError = KindedError<SiteFailure>

/// The kinds of `SiteError`.
package enum SiteFailure: String, Sendable, Equatable {
    /// libcurl or libxml2 cannot be loaded.
    case libraryMissing
    /// No connection, DNS failure, reset, TLS failure.
    case network
    /// The connect or total timeout passed.
    case timeout
    /// An HTTP status other than 200 and 304.
    case httpStatus
    /// The site asked (Retry-After) not to be asked again yet.
    case retryLater
    /// The body passed its cap after decompression.
    case tooLarge
    /// A redirect to something other than http(s), a loop, or more than the limit.
    case badRedirect
    /// The body is not what the URL should serve (garbage, another format, no chapters).
    case unexpectedContent
    /// No chapter of the catalogue, even freshly fetched, holds the page.
    case pageNotFound
    /// The URL was asked less than 15 minutes ago and there is nothing stored to fall back on.
    case askedRecently
    /// The stored state cannot be written.
    case storage
}
