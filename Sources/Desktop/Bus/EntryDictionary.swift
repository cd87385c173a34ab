public import ComicDomain
public import DBus

/// The entry as it travels on the bus: an `a{sv}` with exactly the keys of DESIGN §4.
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
        ]
    }

    /// Reads an entry received from the service; a missing or mistyped key is `InvalidArgs`.
    public init(dbusDictionary entry: [String: Variant]) throws(DBusError) {
        func value<T: DBusArgument>(_ key: String, _ type: T.Type) throws(DBusError) -> T {
            guard let variant = entry[key] else { throw DBusError.invalidArgs("the entry has no '\(key)' key") }
            return try variant.get(T.self)
        }
        let familyName = try value("family", String.self)
        guard let family = WidgetFamily(rawValue: familyName) else {
            throw DBusError.invalidArgs("the entry's family '\(familyName)' is unknown")
        }
        self.init(
            chapter: Int(try value("chapter", Int32.self)),
            name: try value("name", String.self),
            progress: Int(try value("progress", Int32.self)),
            imagePath: try value("image-path", String.self),
            date: try value("date", Int64.self),
            family: family,
            isPlaceholder: try value("is-placeholder", Bool.self),
            page: nil,
            language: nil
        )
    }
}
