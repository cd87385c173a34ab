import JSON

/// `chapters-<language>.json`: a `Catalogue` as JSON.
///
/// ```json
/// {"language":"en","latestPage":2450,
///  "chapters":[{"number":1,"name":"A Really Strange Tournament!","startPage":1,"endPage":24,
///               "universe":null,"thumbnailURL":"https://…"}],
///  "fetch":{"url":"https://…/en/chapters.html?comic=page&chaptersmode=1","etag":"W/\"5e1\"",
///           "lastModified":null,"fetchedAt":1795323865}}
/// ```
/// Read strictly, like the other storage files: the service reads it through its inotify watch, so
/// anything wrong is an error with the reason, never a trap.
extension Catalogue {
    /// The file name for `language`.
    package static func fileName(for language: SiteLanguage) -> String { "chapters-\(language.code).json" }

    /// The largest catalogue file read (the real comic's is about 20 KiB).
    static let maxFileBytes = 1024 * 1024

    /// Compact JSON, keys in a stable order; `decode(encodeJSON(), language:) == self`.
    package func encodeJSON() -> [UInt8] {
        func optional(_ text: String?) -> JSONValue { text.map(JSONValue.string) ?? .null }
        let chapterValues: [JSONValue] = chapters.map { chapter in
            .object([
                ("number", .integer(chapter.number)),
                ("name", .string(chapter.name)),
                ("startPage", .integer(chapter.startPage)),
                ("endPage", .integer(chapter.endPage)),
                ("universe", chapter.universe.map { .integer($0) } ?? .null),
                ("thumbnailURL", .string(chapter.thumbnailURL)),
            ])
        }
        return JSONValue.object([
            ("language", .string(language.code)),
            ("latestPage", .integer(latestPage)),
            ("chapters", .array(chapterValues)),
            ("fetch", .object([
                ("url", .string(fetch.url)),
                ("etag", optional(fetch.etag)),
                ("lastModified", optional(fetch.lastModified)),
                ("fetchedAt", .integer(fetch.fetchedAt)),
            ])),
        ]).serialized()
    }

    /// Decodes the file of `language`.
    /// - Throws: `storageFailed` (content, shape, types, another language) or the kind of an
    ///   out-of-range value, with a message naming the chapter.
    package static func decode(_ bytes: [UInt8], language: SiteLanguage) throws(ComicError) -> Catalogue {
        let reader = try JSONObjectReader(bytes: bytes, limit: maxFileBytes)
        let code = try reader.string("language")
        guard code == language.code else {
            throw ComicError(.storageFailed, "the catalogue is for language \(quotedForMessage(code)), not \(language.code)")
        }
        let latestPage = try reader.integer("latestPage", in: Limits.pages) { written in
            ComicError(.invalidPage, "latest page \(shortened(written)) is out of range \(Limits.describe(Limits.pages))")
        }
        let elements = try reader.array("chapters")
        guard elements.count <= maxChapters else {
            throw ComicError(.storageFailed, "\(elements.count) chapters, more than \(maxChapters)")
        }
        var chapters: [Chapter] = []
        chapters.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            do {
                chapters.append(try decodeChapter(element))
            } catch {
                throw ComicError(error.kind, "chapter entry \(index + 1): \(error.message)")
            }
        }
        let fetchReader = try JSONObjectReader(object: reader.value["fetch"] ?? .null, what: "key \"fetch\"")
        let fetch = FetchMetadata(
            url: try boundedString(try fetchReader.string("url"), "fetch.url"),
            etag: try fetchReader.optionalString("etag").map { text throws(ComicError) in try boundedString(text, "fetch.etag") },
            lastModified: try fetchReader.optionalString("lastModified").map { text throws(ComicError) in try boundedString(text, "fetch.lastModified") },
            fetchedAt: Int64(try fetchReader.integer("fetchedAt", in: 0...Int.max) { written in
                ComicError(.storageFailed, "fetch.fetchedAt \(shortened(written)) is not a time")
            }))
        return try Catalogue(language: language, chapters: chapters, latestPage: latestPage, fetch: fetch)
    }

    private static func decodeChapter(_ element: JSONValue) throws(ComicError) -> Chapter {
        let reader = try JSONObjectReader(object: element, what: "a chapter")
        let pageOutOfRange: (String) -> ComicError = { written in
            ComicError(.invalidPage, "page \(shortened(written)) is out of range \(Limits.describe(Limits.pages))")
        }
        return try Chapter(
            number: try reader.integer("number", in: Limits.chapters) { written in
                ComicError(.invalidChapter, "chapter \(shortened(written)) is out of range \(Limits.describe(Limits.chapters))")
            },
            name: try reader.string("name"),
            startPage: try reader.integer("startPage", in: Limits.pages, outOfRange: pageOutOfRange),
            endPage: try reader.integer("endPage", in: Limits.pages, outOfRange: pageOutOfRange),
            universe: try reader.optionalInteger("universe", in: Limits.chapters) { written in
                ComicError(.invalidChapter, "universe \(shortened(written)) is out of range \(Limits.describe(Limits.chapters))")
            },
            thumbnailURL: try reader.optionalString("thumbnailURL") ?? "")
    }

    private static func boundedString(_ text: String, _ key: String) throws(ComicError) -> String {
        guard text.utf8.count <= maxURLBytes else {
            throw ComicError(.storageFailed, "\(key) is \(text.utf8.count) bytes, more than \(maxURLBytes)")
        }
        return text
    }
}
