import JSON

/// The content of `currentChapterData.json`: the chapter being read, with the iOS app's keys
/// (`number`, `name`, `progress`, `coverImagePath`) plus the optional `page`, `language` and
/// `universe`.
///
/// A value always satisfies `Limits`; build one with the validating initializer or `decode`.
package struct ChapterData: Sendable, Equatable {
    /// Chapter number, in `Limits.chapters`.
    package let number: Int
    /// Chapter name, trimmed, `Limits.nameLength` characters.
    package let name: String
    /// Read progress in percent, in `Limits.progress`.
    package let progress: Int
    /// The cover as stored by the writer: absolute, relative to the data folder, or "" for none.
    /// Served only through `DataFolder.resolvedCoverPath(_:)`.
    package let coverImagePath: String
    /// Last page read on the comic's site, in `Limits.pages`.
    package let page: Int?
    /// Site language code, one of `SiteLanguage.all`.
    package let language: String?
    /// The language a stored file names that is none of `SiteLanguage.all` (a later version's, or
    /// another writer's): the chapter is read without it (the reader's language is used) and it is
    /// written back as it was while nothing replaces it. Nil when `language` is set.
    package private(set) var unknownLanguage: String?
    /// The special universe the chapter belongs to (in `Limits.chapters`), nil for the main story.
    /// Specials number their chapters from 1 again, so a special's chapter comes with its `page`.
    package let universe: Int?

    /// Validates and builds chapter data. Checks run in this order: chapter, name, progress,
    /// then the options (`page`, `language`, `universe`), so the first broken rule is the one
    /// reported. A `universe` of 0 is the main story (stored as nil).
    ///
    /// The name is trimmed of whitespace and newlines at both ends only.
    /// - Throws: `invalidChapter`, `invalidName`, `invalidProgress` or `invalidOption` (also for a
    ///   special's chapter without its page).
    package init(
        validatingNumber number: Int, name: String, progress: Int, coverImagePath: String = "",
        page: Int? = nil, language: String? = nil, universe: Int? = nil
    ) throws(ComicError) {
        self.number = try Self.validChapter(number)
        self.name = try Self.validName(name)
        self.progress = try Self.validProgress(progress)
        if let page, !Limits.pages.contains(page) {
            throw Self.pageOutOfRange(String(page))
        }
        if let language {
            do {
                _ = try SiteLanguage(validating: language)
            } catch {
                throw ComicError(.invalidOption, "language: \(error.message)")
            }
        }
        let special = try Self.validUniverse(universe)
        if let special, page == nil {
            throw ComicError(.invalidOption, "universe \(special) needs the page being read: a special numbers its chapters from 1 again")
        }
        // D-Bus strings cannot carry NUL, so a path with one could never be served.
        guard !coverImagePath.utf8.contains(0) else {
            throw ComicError(.storageFailed, "coverImagePath contains a NUL character")
        }
        self.coverImagePath = coverImagePath
        self.page = page
        self.language = language
        self.universe = special
    }

    /// The same data with another progress.
    /// - Throws: `invalidProgress` when `progress` is outside `Limits.progress`.
    package func updatingProgress(_ progress: Int) throws(ComicError) -> ChapterData {
        var data = try ChapterData(
            validatingNumber: number, name: name, progress: progress, coverImagePath: coverImagePath,
            page: page, language: language, universe: universe)
        data.unknownLanguage = unknownLanguage
        return data
    }

    /// The same data showing the cover at `coverImagePath`.
    package func showingCover(_ coverImagePath: String) throws(ComicError) -> ChapterData {
        var data = try ChapterData(
            validatingNumber: number, name: name, progress: progress, coverImagePath: coverImagePath,
            page: page, language: language, universe: universe)
        data.unknownLanguage = unknownLanguage
        return data
    }

    /// The same chapter (name, cover, universe) read further: another progress, page and language.
    /// - Throws: `invalidProgress` or `invalidOption` for a value out of range.
    func updatingPosition(progress: Int, page: Int, language: String) throws(ComicError) -> ChapterData {
        try ChapterData(
            validatingNumber: number, name: name, progress: progress, coverImagePath: coverImagePath,
            page: page, language: language, universe: universe)
    }

    /// The chapter and progress, as the sync rules see them, with the latest page of the catalogue
    /// of the reader's language when one is known.
    package func syncState(latestPage: SyncState.LatestPage? = nil) -> SyncState {
        SyncState(chapter: number, progress: progress, universe: universe ?? 0, latestPage: latestPage)
    }

    /// The keys this version reads and writes; a file's other keys are kept by every rewrite
    /// (`DataFolder.writeChapterData`).
    static let keys: Set<String> = ["number", "name", "progress", "coverImagePath", "page", "language", "universe"]

    /// Decodes the file content. At most `Limits.maxChapterFileBytes`, UTF-8 JSON, one object.
    ///
    /// Unknown keys are ignored; a missing or null `coverImagePath` means "no cover"; a null
    /// `page`/`language` is absent; a language the site does not have (as far as this version
    /// knows) is `unknownLanguage`, the rest is read. Integers must be plain JSON integers (no
    /// fraction, no exponent). Content problems throw `storageFailed`; values out of range throw
    /// the kind of that value (`invalidChapter`, `invalidName`, `invalidProgress`, `invalidOption`).
    static func decode(_ bytes: [UInt8]) throws(ComicError) -> ChapterData {
        let reader = try JSONObjectReader(bytes: bytes)
        let number = try reader.integer("number", in: Limits.chapters, outOfRange: chapterOutOfRange)
        // Validated here, not only in the initializer, so errors come in the contract's order.
        let name = try validName(try reader.string("name"))
        let progress = try reader.integer("progress", in: Limits.progress, outOfRange: progressOutOfRange)
        let cover = try reader.optionalString("coverImagePath") ?? ""
        let page = try reader.optionalInteger("page", in: Limits.pages, outOfRange: pageOutOfRange)
        let written = try reader.optionalString("language")
        let language = written.flatMap { SiteLanguage(code: $0) == nil ? nil : $0 }
        let universe = try reader.optionalInteger("universe", in: Limits.universes, outOfRange: universeOutOfRange)
        var data = try ChapterData(
            validatingNumber: number, name: name, progress: progress, coverImagePath: cover,
            page: page, language: language, universe: universe)
        data.unknownLanguage = language == nil ? written : nil
        return data
    }

    /// Compact JSON with a stable key order: number, name, progress, coverImagePath, then page,
    /// language (or the unknown one) and universe when present, then `others` (a stored file's
    /// keys this version does not know, as they were). `decode(encodeJSON()) == self`.
    package func encodeJSON() -> [UInt8] { encodeJSON(keeping: []) }

    func encodeJSON(keeping others: [(key: String, value: JSONValue)]) -> [UInt8] {
        var members: [(key: String, value: JSONValue)] = [
            ("number", .integer(number)),
            ("name", .string(name)),
            ("progress", .integer(progress)),
            ("coverImagePath", .string(coverImagePath)),
        ]
        if let page { members.append(("page", .integer(page))) }
        if let language = language ?? unknownLanguage { members.append(("language", .string(language))) }
        if let universe { members.append(("universe", .integer(universe))) }
        return JSONValue.object(members + others).serialized()
    }

    // MARK: Validation shared with the D-Bus layer's argument checks.

    /// - Throws: `invalidChapter` unless `number` is in `Limits.chapters`.
    static func validChapter(_ number: Int) throws(ComicError) -> Int {
        guard Limits.chapters.contains(number) else { throw chapterOutOfRange(String(number)) }
        return number
    }

    /// - Throws: `invalidProgress` unless `progress` is in `Limits.progress`.
    package static func validProgress(_ progress: Int) throws(ComicError) -> Int {
        guard Limits.progress.contains(progress) else { throw progressOutOfRange(String(progress)) }
        return progress
    }

    /// A universe as written (0 for the main story) as stored: nil for the main story.
    /// - Throws: `invalidOption` outside `Limits.universes`.
    static func validUniverse(_ universe: Int?) throws(ComicError) -> Int? {
        guard let universe else { return nil }
        guard Limits.universes.contains(universe) else { throw universeOutOfRange(String(universe)) }
        return universe == 0 ? nil : universe
    }

    /// Trims whitespace and newlines at both ends and checks the length: in characters
    /// (`Limits.nameLength`), Unicode scalars (`Limits.maxNameScalars`) and UTF-8 bytes
    /// (`Limits.maxNameBytes`), the cheap counts first.
    /// - Throws: `invalidName` when blank, too long, or containing NUL (D-Bus cannot carry it).
    static func validName(_ name: String) throws(ComicError) -> String {
        let trimmed = trimmed(name)
        let bytes = trimmed.utf8.count
        guard bytes <= Limits.maxNameBytes else {
            throw ComicError(.invalidName, "name is \(bytes) bytes long in UTF-8, more than \(Limits.maxNameBytes)")
        }
        let scalars = trimmed.unicodeScalars.count
        guard scalars <= Limits.maxNameScalars else {
            throw ComicError(.invalidName, "name has \(scalars) Unicode scalars, more than \(Limits.maxNameScalars)")
        }
        let length = trimmed.count
        guard length >= Limits.nameLength.lowerBound else {
            throw ComicError(.invalidName, "name is blank; it must have \(Limits.describe(Limits.nameLength)) characters after trimming")
        }
        guard length <= Limits.nameLength.upperBound else {
            throw ComicError(.invalidName, "name is \(length) characters long, more than \(Limits.nameLength.upperBound)")
        }
        guard !trimmed.utf8.contains(0) else {
            throw ComicError(.invalidName, "name contains a NUL character")
        }
        return trimmed
    }

    /// `text` without whitespace and newlines at both ends.
    static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let start = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
              let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[start...last])
    }

    private static func chapterOutOfRange(_ written: String) -> ComicError {
        ComicError(.invalidChapter, "chapter \(shortened(written)) is out of range \(Limits.describe(Limits.chapters))")
    }

    private static func progressOutOfRange(_ written: String) -> ComicError {
        ComicError(.invalidProgress, "progress \(shortened(written)) is out of range \(Limits.describe(Limits.progress))")
    }

    private static func pageOutOfRange(_ written: String) -> ComicError {
        ComicError(.invalidOption, "page \(shortened(written)) is out of range \(Limits.describe(Limits.pages))")
    }

    private static func universeOutOfRange(_ written: String) -> ComicError {
        ComicError(.invalidOption, "universe \(shortened(written)) is out of range \(Limits.describe(Limits.universes)) (0: the main story)")
    }
}

/// A number as written, cut short so a 60 KiB digit string cannot flood a log line.
func shortened(_ written: String) -> String {
    written.count > 40 ? String(written.prefix(40)) + "…" : written
}
