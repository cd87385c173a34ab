import ComicDomain
import JSON

/// The politeness state that must survive runs (docs/usage.md#the-comics-site), kept in the data folder as
/// `siteRequests.json`: per URL, when it was last asked (the 15-minute rule), until when the site
/// asked us to wait (Retry-After), and the feed's validators for the next conditional request.
///
/// A corrupt or unreadable file is reported once and treated as empty: it never blocks a sync.
struct RequestLog: Sendable, Equatable {
    struct Entry: Sendable, Equatable {
        /// Unix seconds of the last request that got an answer.
        var lastRequest: Int64
        /// Unix seconds before which the URL is not asked again, from Retry-After.
        var retryAfter: Int64?
        var etag: String?
        var lastModified: String?
    }

    /// The most URLs remembered; the least recently asked are forgotten first.
    static let maxEntries = 256
    static let maxFileBytes = 256 * 1024

    var entries: [String: Entry] = [:]

    /// Reads the log of `folder`; a bad file gives an empty log and a warning through `warn`.
    static func load(from folder: DataFolder, warn: (String) -> Void) -> RequestLog {
        switch folder.readFile(DataFolder.siteRequestsFile, limit: maxFileBytes, decode: decode) {
        case .missing: return RequestLog()
        case .valid(let log): return log
        case .invalid(let reason):
            warn("ignoring the site request log: \(reason)")
            return RequestLog()
        }
    }

    /// Writes the log atomically.
    func save(to folder: DataFolder) throws(ComicError) {
        try folder.writeFile(DataFolder.siteRequestsFile, bytes: encodeJSON() + [0x0A])
    }

    /// Forgets the least recently asked URLs past `maxEntries`.
    mutating func prune() {
        guard entries.count > Self.maxEntries else { return }
        let kept = entries.sorted { $0.value.lastRequest > $1.value.lastRequest }.prefix(Self.maxEntries)
        entries = Dictionary(uniqueKeysWithValues: kept.map { ($0.key, $0.value) })
    }

    func encodeJSON() -> [UInt8] {
        func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }
        let members: [(key: String, value: JSONValue)] = entries.keys.sorted().compactMap { url in
            guard let entry = entries[url] else { return nil }
            return (url, .object([
                ("lastRequest", .integer(entry.lastRequest)),
                ("retryAfter", entry.retryAfter.map { .integer($0) } ?? .null),
                ("etag", optional(entry.etag)),
                ("lastModified", optional(entry.lastModified)),
            ]))
        }
        return JSONValue.object([("urls", .object(members))]).serialized()
    }

    static func decode(_ bytes: [UInt8]) throws(ComicError) -> RequestLog {
        let document: JSONValue
        do {
            document = try JSONValue.parse(bytes)
        } catch {
            throw ComicError(.storageFailed, error.description)
        }
        guard case .object(let urls)? = document["urls"] else {
            throw ComicError(.storageFailed, "expected an object with an object \"urls\"")
        }
        var log = RequestLog()
        for (url, value) in urls {
            func time(_ key: String) throws(ComicError) -> Int64? {
                guard let member = value[key], member != .null else { return nil }
                guard case .number(let lexeme) = member, case .integer(let seconds) = JSONValue.integer(fromLexeme: lexeme), seconds >= 0 else {
                    throw ComicError(.storageFailed, "\(url): \(key) must be a time in Unix seconds")
                }
                return Int64(seconds)
            }
            func text(_ key: String) throws(ComicError) -> String? {
                guard let member = value[key], member != .null else { return nil }
                guard case .string(let text) = member, text.utf8.count <= Catalogue.maxURLBytes else {
                    throw ComicError(.storageFailed, "\(url): \(key) must be a short string")
                }
                return text
            }
            guard let lastRequest = try time("lastRequest") else {
                throw ComicError(.storageFailed, "\(url): missing lastRequest")
            }
            log.entries[url] = Entry(lastRequest: lastRequest, retryAfter: try time("retryAfter"),
                                     etag: try text("etag"), lastModified: try text("lastModified"))
        }
        return log
    }
}
