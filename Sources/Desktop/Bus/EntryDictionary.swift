public import ComicDomain
public import DBus

/// The entry as it travels on the bus: an `a{sv}` with exactly the keys of DESIGN §4 and §13, and
/// `next-chapter` / `first-unread-page` (what the cards' buttons open: the rules stay here).
extension ChapterEntry {
    public var dbusDictionary: [String: Variant] {
        [
            "chapter": Variant(Int32(clamping: chapter)),
            "name": Variant(name),
            "progress": Variant(Int32(clamping: progress)),
            "image-path": Variant(imagePath),
            "deep-link": Variant(deepLink),
            "date": Variant(date),
            "family": Variant(family.rawValue),
            "is-placeholder": Variant(isPlaceholder),
            "universe": Variant(Int32(clamping: universe)),
            "latest-page": Variant(Int32(clamping: latestPage)),
            "new-pages": Variant(Int32(clamping: newPages)),
            "next-chapter": Variant(Int32(clamping: nextChapter)),
            "first-unread-page": Variant(Int32(clamping: firstUnreadPage)),
        ]
    }

    /// Reads an entry received from the service; a missing or mistyped key is `InvalidArgs`, except
    /// the keys of DESIGN §13 (`universe`, `latest-page`, `new-pages`), which an older service
    /// leaves out: 0 then. A special's page is read back from its page link; `next-chapter` and
    /// `first-unread-page` are derived from the other keys, so they are not read.
    public init(dbusDictionary entry: [String: Variant]) throws(DBusError) {
        func value<T: DBusArgument>(_ key: String, _ type: T.Type) throws(DBusError) -> T {
            guard let variant = entry[key] else { throw DBusError.invalidArgs("the entry has no '\(key)' key") }
            return try variant.get(T.self)
        }
        func count(_ key: String) throws(DBusError) -> Int {
            entry[key] == nil ? 0 : Int(try value(key, Int32.self))
        }
        let familyName = try value("family", String.self)
        guard let family = WidgetFamily(rawValue: familyName) else {
            throw DBusError.invalidArgs("the entry's family '\(familyName)' is unknown")
        }
        var page: Int?
        if case .page(let number)? = try? ComicLink(parsing: try value("deep-link", String.self)) { page = number }
        self.init(
            chapter: Int(try value("chapter", Int32.self)),
            name: try value("name", String.self),
            progress: Int(try value("progress", Int32.self)),
            imagePath: try value("image-path", String.self),
            date: try value("date", Int64.self),
            family: family,
            isPlaceholder: try value("is-placeholder", Bool.self),
            page: page,
            language: nil,
            universe: try count("universe"),
            latestPage: try count("latest-page"),
            newPages: try count("new-pages")
        )
    }
}
