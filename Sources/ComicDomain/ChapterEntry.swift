/// One widget entry (DESIGN §4): what the widget shows for a chapter, or the placeholder.
public struct ChapterEntry: Sendable, Equatable {
    /// Chapter number.
    public var chapter: Int
    /// Chapter name.
    public var name: String
    /// Read progress in percent.
    public var progress: Int
    /// Absolute path of the cover image, or "" when there is none.
    public var imagePath: String
    /// When the entry was made, Unix seconds.
    public var date: Int64
    /// The widget size the entry is for.
    public var family: WidgetFamily
    /// True when no chapter has been read yet.
    public var isPlaceholder: Bool
    /// Last page read on the comic's site, when known (not part of the D-Bus entry).
    public var page: Int?
    /// Site language code, when known (not part of the D-Bus entry).
    public var language: String?

    /// The name the placeholder shows: the title of chapter 1.
    public static let placeholderName = "A Really Strange Tournament!"

    /// An entry from its fields, e.g. as received over D-Bus.
    public init(
        chapter: Int, name: String, progress: Int, imagePath: String, date: Int64,
        family: WidgetFamily, isPlaceholder: Bool, page: Int? = nil, language: String? = nil
    ) {
        self.chapter = chapter
        self.name = name
        self.progress = progress
        self.imagePath = imagePath
        self.date = date
        self.family = family
        self.isPlaceholder = isPlaceholder
        self.page = page
        self.language = language
    }

    /// The entry for stored chapter data. `imagePath` is the already resolved cover
    /// (`DataFolder.resolvedCoverPath(_:)`), or "" for none.
    public init(data: ChapterData, imagePath: String, family: WidgetFamily, date: Int64) {
        self.init(
            chapter: data.number, name: data.name, progress: data.progress, imagePath: imagePath,
            date: date, family: family, isPlaceholder: false, page: data.page, language: data.language)
    }

    /// The entry shown before anything was read: chapter 1, no image, progress 0.
    public static func placeholder(family: WidgetFamily, date: Int64) -> ChapterEntry {
        ChapterEntry(
            chapter: 1, name: placeholderName, progress: 0, imagePath: "", date: date,
            family: family, isPlaceholder: true)
    }

    /// `dbmultiverse://chapter/<chapter>`.
    public var deepLink: String { DeepLink.uri(chapter: chapter) }

    /// The widget's text for `family`: small `Ch. 42 · 35%`, medium
    /// `Chapter 42: <name> — 35% read`; the placeholder reads `Read Multiverse Reader`
    /// (small) or `Read Multiverse Reader — start with Chapter 1` (medium).
    public func rendered(_ family: WidgetFamily) -> String {
        switch (family, isPlaceholder) {
        case (.small, true): "Read Multiverse Reader"
        case (.medium, true): "Read Multiverse Reader \u{2014} start with Chapter 1"
        case (.small, false): "Ch. \(chapter) \u{00B7} \(progress)%"
        case (.medium, false): "Chapter \(chapter): \(name) \u{2014} \(progress)% read"
        }
    }
}
