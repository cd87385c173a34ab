import ComicDomain
import JSON

/// A request the extension sends the host (docs/browser-extension.md). The only one: `{"type":"page","url":"…"}`,
/// the page of the comic the reader has opened.
enum BrowserRequest: Sendable, Equatable {
    case page(SitePage)

    /// Reads one message. Members other than `type` and `url` are ignored, so a newer extension
    /// can add some.
    ///
    /// - Parameter origin: the site, or its `$DBMULTIVERSE_SITE_URL` override, whose pages are
    ///   accepted beside the real site's.
    /// - Throws: a message for the reply saying what is wrong: empty, not UTF-8, not JSON, not an
    ///   object, a missing or unknown `type`, a missing `url`, or a URL that is not a page of the
    ///   comic (`SitePage`'s reasons: another host or path, an unknown language, a page out of range).
    init(message: [UInt8], origin: SiteOrigin) throws(BrowserHostError) {
        guard !message.isEmpty else {
            throw BrowserHostError(#"empty message: expected a request such as {"type":"page","url":"…"}"#)
        }
        let value: JSONValue
        do {
            value = try JSONValue.parse(message)
        } catch {
            throw BrowserHostError("the request is \(error.description)")
        }
        guard case .object = value else {
            throw BrowserHostError("the request must be a JSON object, found \(value.typeDescription)")
        }
        let type = try Self.string("type", of: value, in: "request")
        guard type == "page" else {
            throw BrowserHostError("unknown request type \(quotedForMessage(type)): the host answers only \"page\"")
        }
        let url = try Self.string("url", of: value, in: "page request")
        do {
            self = .page(try SitePage(url: url, extraOrigin: origin))
        } catch {
            throw BrowserHostError(error.message)
        }
    }

    private static func string(_ key: String, of object: JSONValue, in what: String) throws(BrowserHostError) -> String {
        guard let member = object[key] else {
            throw BrowserHostError("the \(what) has no \"\(key)\"")
        }
        guard case .string(let text) = member else {
            throw BrowserHostError("the \(what)'s \"\(key)\" must be a string, found \(member.typeDescription)")
        }
        return text
    }
}

/// A request the host refuses, or a page it could not store: the reply's `error` text.
package struct BrowserHostError: Error, Sendable, Equatable, CustomStringConvertible {
    let message: String

    init(_ message: String) { self.message = message }

    package var description: String { message }
}
