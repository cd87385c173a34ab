internal import JSON

/// The content of `widgetSyncState.json`: the last state a reload was signalled for.
public struct SyncState: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// Chapter number.
    public var chapter: Int
    /// Read progress in percent.
    public var progress: Int

    /// A state; not validated (the engine only compares states).
    public init(chapter: Int, progress: Int) {
        self.chapter = chapter
        self.progress = progress
    }

    /// Decodes `{"chapter": Int, "progress": Int}`; unknown keys are ignored.
    /// - Throws: `storageFailed` for content problems, `invalidChapter` / `invalidProgress`
    ///   for values out of `Limits`.
    public static func decode(_ bytes: [UInt8]) throws(ComicError) -> SyncState {
        let reader = try JSONObjectReader(bytes: bytes)
        let chapter = try reader.integer("chapter", in: Limits.chapters) { written in
            ComicError(.invalidChapter, "chapter \(shortened(written)) is out of range \(Limits.describe(Limits.chapters))")
        }
        let progress = try reader.integer("progress", in: Limits.progress) { written in
            ComicError(.invalidProgress, "progress \(shortened(written)) is out of range \(Limits.describe(Limits.progress))")
        }
        return SyncState(chapter: chapter, progress: progress)
    }

    /// Compact JSON: `{"chapter":N,"progress":P}`.
    public func encodeJSON() -> [UInt8] {
        JSONValue.object([("chapter", .integer(chapter)), ("progress", .integer(progress))]).serialized()
    }

    /// "chapter 42 at 35%".
    public var description: String { "chapter \(chapter) at \(progress)%" }
}
