import ComicDomain
import JSON

/// The host's answer to one request (docs/browser-extension.md).
enum BrowserReply: Sendable, Equatable {
    /// The page was stored: `{"ok":true,"chapter":42,"name":"…","progress":35,"page":980,"language":"en"}`.
    case stored(StoredPosition)
    /// Nothing was stored: `{"ok":false,"error":"…"}`.
    case refused(BrowserHostError)

    var json: JSONValue {
        switch self {
        case .stored(let position):
            .object([
                ("ok", .bool(true)),
                ("chapter", .integer(position.chapter)),
                ("name", .string(position.name)),
                ("progress", .integer(position.progress)),
                ("page", .integer(position.page.number)),
                ("language", .string(position.page.language.code)),
            ])
        case .refused(let error):
            .object([("ok", .bool(false)), ("error", .string(error.message))])
        }
    }

    /// The reply as a framed message.
    var frame: [UInt8] { NativeMessageFraming.frame(json.serialized()) }
}
