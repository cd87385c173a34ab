/// A chapter of the comic: the story it belongs to (`universe`: 0 for the main story, else the
/// special's) and its number there. Specials number their chapters from 1 again, so "is this
/// another chapter?" is this pair compared, in one place for everyone: the sync rules, the page
/// recorder and the service's `UpdatePage` (`ChapterData.afterReading`).
package struct ChapterID: Sendable, Hashable, CustomStringConvertible {
    /// 0 for the main story.
    package let universe: Int
    package let number: Int

    /// Chapter `number` of `universe` (nil or 0: the main story).
    init(_ number: Int, universe: Int? = nil) {
        self.number = number
        self.universe = universe ?? 0
    }

    package var description: String { universe == 0 ? "chapter \(number)" : "chapter \(number) of universe \(universe)" }
}

extension ChapterData {
    package var id: ChapterID { ChapterID(number, universe: universe) }

    /// Whether this is chapter `number` of `universe` (nil or 0: the main story).
    package func isChapter(_ number: Int, universe: Int?) -> Bool { id == ChapterID(number, universe: universe) }

    /// What is stored once the reader opens `page` of chapter `read` (docs/browser-extension.md): another
    /// chapter than `stored` is stored whole, with its name and cover; the stored chapter only
    /// moves its progress, page and language (name and cover kept).
    /// - Throws: `invalidProgress` or `invalidOption` for a value out of range.
    package static func afterReading(_ page: SitePage, of read: ChapterData, stored: ChapterData?) throws(ComicError)
        -> (data: ChapterData, isAnotherChapter: Bool) {
        guard let stored, stored.id == read.id else { return (read, true) }
        return (try stored.updatingPosition(progress: read.progress, page: page.number, language: page.language.code), false)
    }
}

extension ChapterEntry {
    /// The chapter shown; nil for the placeholder.
    package var chapterID: ChapterID? { isPlaceholder ? nil : ChapterID(chapter, universe: universe) }
}

extension Catalogue.Chapter {
    package var id: ChapterID { ChapterID(number, universe: universe) }
}

extension SyncState {
    package var chapterID: ChapterID { ChapterID(chapter, universe: universe) }

    /// Whether `other` shows the same chapter; false when `other` is nil.
    func isSameChapter(as other: SyncState?) -> Bool { other?.chapterID == chapterID }
}
