import JSON

/// The content of `widgetSyncState.json`: the last state a reload was signalled for.
///
/// `{"chapter": 42, "progress": 35}`, plus `"universe"` while the reader is in a special and
/// `"latestPage"` with its `"language"` when a catalogue was known (all optional: older files read).
package struct SyncState: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// The latest page of one language's catalogue: compared only within that language, so that
    /// reading in another language is never taken for pages being published.
    package struct LatestPage: Sendable, Equatable, Hashable {
        package var page: Int
        /// The site language code of the catalogue.
        package var language: String

        package init(page: Int, language: String) {
            self.page = page
            self.language = language
        }
    }

    /// Chapter number.
    package var chapter: Int
    /// Read progress in percent.
    package var progress: Int
    /// The special universe of the chapter, 0 for the main story.
    package var universe: Int
    /// The catalogue's latest page for the reader's language; nil when no catalogue is known.
    package var latestPage: LatestPage?

    /// A state; not validated (the engine only compares states).
    init(chapter: Int, progress: Int, universe: Int = 0, latestPage: LatestPage? = nil) {
        self.chapter = chapter
        self.progress = progress
        self.universe = universe
        self.latestPage = latestPage
    }

    /// Decodes the file; unknown keys are ignored, `universe` (absent: 0) and `latestPage` with
    /// its `language` are optional.
    /// - Throws: `storageFailed` for content problems (also a `latestPage` without a valid
    ///   `language`), `invalidChapter` / `invalidProgress` / `invalidPage` / `invalidOption` for
    ///   values out of `Limits`.
    static func decode(_ bytes: [UInt8]) throws(ComicError) -> SyncState {
        let reader = try JSONObjectReader(bytes: bytes)
        let chapter = try reader.integer("chapter", in: Limits.chapters) { written in
            ComicError(.invalidChapter, "chapter \(shortened(written)) is out of range \(Limits.describe(Limits.chapters))")
        }
        let progress = try reader.integer("progress", in: Limits.progress) { written in
            ComicError(.invalidProgress, "progress \(shortened(written)) is out of range \(Limits.describe(Limits.progress))")
        }
        let universe = try reader.optionalInteger("universe", in: Limits.universes) { written in
            ComicError(.invalidOption, "universe \(shortened(written)) is out of range \(Limits.describe(Limits.universes))")
        } ?? 0
        var latestPage: LatestPage?
        if let page = try reader.optionalInteger("latestPage", in: Limits.pages, outOfRange: { written in
            ComicError(.invalidPage, "latest page \(shortened(written)) is out of range \(Limits.describe(Limits.pages))")
        }) {
            guard let language = try reader.optionalString("language"), SiteLanguage(code: language) != nil else {
                throw ComicError(.storageFailed, "latestPage comes without the valid \"language\" of its catalogue")
            }
            latestPage = LatestPage(page: page, language: language)
        }
        return SyncState(chapter: chapter, progress: progress, universe: universe, latestPage: latestPage)
    }

    /// Compact JSON: `{"chapter":N,"progress":P}`, then `universe` when not 0 and `latestPage`
    /// with `language` when known.
    package func encodeJSON() -> [UInt8] {
        var members: [(key: String, value: JSONValue)] = [("chapter", .integer(chapter)), ("progress", .integer(progress))]
        if universe != 0 { members.append(("universe", .integer(universe))) }
        if let latestPage {
            members.append(("latestPage", .integer(latestPage.page)))
            members.append(("language", .string(latestPage.language)))
        }
        return JSONValue.object(members).serialized()
    }

    /// "chapter 42 at 35%", "chapter 1 of universe 3 at 35%, latest en page 2450".
    package var description: String {
        let special = universe == 0 ? "" : " of universe \(universe)"
        let latest = latestPage.map { ", latest \($0.language) page \($0.page)" } ?? ""
        return "chapter \(chapter)\(special) at \(progress)%\(latest)"
    }
}
