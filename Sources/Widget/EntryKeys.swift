package import ComicDomain
package import DBus
import JSON

/// The entry (docs/dbus-api.md), declared once as a table, as sd-bus declares a vtable: each
/// key with its D-Bus type (the Swift type of its value), how a client reads it back, and the
/// `Widget1` property that publishes it (which emits `PropertiesChanged` whenever the value
/// differs). The `a{sv}` on the bus, its decoding, `--format json` (the same names, in this
/// order), the widget's properties and the property-change diff all come from here.
///
/// A new key is one line here, plus the rule that computes it on `ChapterEntry`.
package enum EntryKeys {
    static let all: [EntryKey] = [
        .key("chapter", \.chapter, read: .required { $0.chapter = $1 }, property: Widget1.chapter),
        .key("name", \.name, read: .required { $0.name = $1 }, property: Widget1.chapterName),
        .key("progress", \.progress, read: .required { $0.progress = $1 }, property: Widget1.progress),
        .key("image-path", \.imagePath, read: .required { $0.imagePath = $1 }, property: Widget1.coverImagePath),
        // A special's page travels inside its page link only: read back from it.
        .key("deep-link", \.deepLink, read: .ifValid { entry, link in
            if case .page(let page)? = try? ComicLink(parsing: link) { entry.page = page } // else a chapter's link: no page
        }, property: Widget1.deepLink),
        .key("date", \.date, read: .required { $0.date = $1 }),
        .key("family", \.family.rawValue, read: .required { entry, name throws(DBusError) in
            guard let family = WidgetFamily(rawValue: name) else { throw DBusError.invalidArgs("the entry's family '\(name)' is unknown") }
            entry.family = family
        }),
        .key("is-placeholder", \.isPlaceholder, read: .required { $0.isPlaceholder = $1 }),
        // The new-pages keys: an older service leaves them out (0 then).
        .key("universe", \.universe, read: .optional { $0.universe = $1 }),
        .key("latest-page", \.latestPage, read: .optional { $0.latestPage = $1 }, property: Widget1.latestPage),
        .key("new-pages", \.newPages, read: .optional { $0.newPages = $1 }, property: Widget1.newPages),
        // What the view's actions open, from the catalogue (absent from an older service: 0 then).
        .key("next-chapter", \.nextChapter, read: .optional { $0.nextChapter = $1 }),
        .key("first-unread-page", \.firstUnreadPage, read: .optional { $0.firstUnreadPage = $1 }),
        .key("next-chapter-name", \.nextChapterName, read: .optional { $0.nextChapterName = $1 }),
        // The computer a reading came from through the sync folder ("" when read here).
        .key("continued-on", \.continuedOn, read: .optional { $0.continuedOn = $1 }),
        // The view (EntryView): what every face shows, decided here once; derived, so not read back.
        .key("panel-text", \.view.panelText),
        .key("title", \.view.title),
        .key("progress-text", \.view.progressText),
        .key("new-pages-text", \.view.newPagesText),
        .key("actions", \.view.actions),
    ]
}

/// One key of the entry. Made with `key(_:_:read:property:)`.
struct EntryKey: Sendable {
    /// How a client reads a key back into a `ChapterEntry`.
    struct Reading<Value: Sendable>: Sendable {
        let presence: EntryKeyPresence
        let store: @Sendable (inout ChapterEntry, Value) throws(DBusError) -> Void

        /// Missing or of another type: `InvalidArgs`.
        static func required(_ store: @escaping @Sendable (inout ChapterEntry, Value) throws(DBusError) -> Void) -> Reading {
            Reading(presence: .required, store: store)
        }
        /// Missing: left as it is; of another type: `InvalidArgs`.
        static func optional(_ store: @escaping @Sendable (inout ChapterEntry, Value) throws(DBusError) -> Void) -> Reading {
            Reading(presence: .optional, store: store)
        }
        /// Missing or of another type: left as it is.
        static func ifValid(_ store: @escaping @Sendable (inout ChapterEntry, Value) throws(DBusError) -> Void) -> Reading {
            Reading(presence: .ifValid, store: store)
        }
    }

    /// The key in the `a{sv}`, and the member name in `--format json`.
    let name: String
    /// The `Widget1` property publishing it, if any.
    let propertyName: String?
    let variant: @Sendable (ChapterEntry) -> Variant
    let json: @Sendable (ChapterEntry) -> JSONValue
    let read: (@Sendable (inout ChapterEntry, [String: Variant]) throws(DBusError) -> Void)?
    let differs: @Sendable (ChapterEntry, ChapterEntry) -> Bool
    let bind: (@Sendable (@escaping () -> ChapterEntry) -> Property<Widget1>)?
    let insertChange: @Sendable (inout PropertyChanges<Widget1>) -> Void

    /// A key whose value is `value(entry)` on the bus (its Swift type gives its D-Bus type).
    static func key<Value: EntryValue>(
        _ name: String, _ value: @escaping @Sendable (ChapterEntry) -> Value, read: Reading<Value>? = nil,
        property: PropertyDeclaration<Widget1, Value>? = nil
    ) -> EntryKey {
        var readKey: (@Sendable (inout ChapterEntry, [String: Variant]) throws(DBusError) -> Void)?
        if let read {
            readKey = { entry, dictionary throws(DBusError) in
                guard let variant = dictionary[name] else {
                    if read.presence == .required { throw DBusError.invalidArgs("the entry has no '\(name)' key") }
                    return
                }
                let typed: Value
                do throws(DBusError) {
                    typed = try variant.get(Value.self)
                } catch {
                    if read.presence == .ifValid { return }
                    throw error
                }
                try read.store(&entry, typed)
            }
        }
        var bind: (@Sendable (@escaping () -> ChapterEntry) -> Property<Widget1>)?
        if let property {
            bind = { entry in Property(property) { value(entry()) } }
        }
        return EntryKey(
            name: name, propertyName: property?.name,
            variant: { Variant(value($0)) },
            json: { value($0).jsonValue },
            read: readKey,
            differs: { value($0) != value($1) },
            bind: bind,
            insertChange: { changes in if let property { changes.insert(property) } })
    }

    /// `key` for the entry's `Int` fields, which travel as `i` (clamped).
    static func key(
        _ name: String, _ value: @escaping @Sendable (ChapterEntry) -> Int, read: Reading<Int>? = nil,
        property: PropertyDeclaration<Widget1, Int32>? = nil
    ) -> EntryKey {
        key(name, { Int32(clamping: value($0)) },
            read: read.map { reading in Reading<Int32>(presence: reading.presence) { entry, number throws(DBusError) in try reading.store(&entry, Int(number)) } },
            property: property)
    }
}

/// Whether a client needs a key: `required` (missing or mistyped is `InvalidArgs`), `optional`
/// (missing is left as it is), `ifValid` (missing or mistyped is left as it is).
enum EntryKeyPresence: Sendable { case required, optional, ifValid }

/// The D-Bus types an entry's values have, and how each is written in JSON.
protocol EntryValue: DBusArgument, Equatable, Sendable {
    var jsonValue: JSONValue { get }
}

extension Int32: EntryValue { var jsonValue: JSONValue { .integer(Int(self)) } }
extension Int64: EntryValue { var jsonValue: JSONValue { .integer(Int(self)) } }
extension String: EntryValue { var jsonValue: JSONValue { .string(self) } }
extension Bool: EntryValue { var jsonValue: JSONValue { .bool(self) } }

extension ChapterEntry {
    /// The entry as it travels on the bus: an `a{sv}` with the keys of `EntryKeys.all`.
    package var dbusDictionary: [String: Variant] {
        var dictionary: [String: Variant] = [:]
        for key in EntryKeys.all { dictionary[key.name] = key.variant(self) }
        return dictionary
    }

    /// Reads an entry received from the service, key by key as `EntryKeys.all` says.
    package init(dbusDictionary entry: [String: Variant]) throws(DBusError) {
        self.init(chapter: 0, name: "", progress: 0, imagePath: "", date: 0, family: .medium, isPlaceholder: false)
        for key in EntryKeys.all { try key.read?(&self, entry) }
        // A service too old to send first-unread-page: the page after those read is
        // latest-page − new-pages + 1, exact unless a special was published among the new pages.
        if firstUnreadPage == 0, newPages > 0, Limits.pages.contains(latestPage - newPages + 1) {
            firstUnreadPage = latestPage - newPages + 1
        }
    }

    /// The entry as one JSON object: the keys of `EntryKeys.all`, in that order.
    var jsonObject: JSONValue {
        .object(EntryKeys.all.map { (key: $0.name, value: $0.json(self)) })
    }
}

extension EntryKeys {
    /// The `Widget1` properties the entry's keys publish, read from `entry` when asked.
    package static func properties(of entry: @escaping () -> ChapterEntry) -> [Property<Widget1>] {
        all.compactMap { $0.bind?(entry) }
    }

    /// The `Widget1` properties whose value differs between `old` and `new`.
    package static func changedProperties(from old: ChapterEntry, to new: ChapterEntry, into changes: inout PropertyChanges<Widget1>) {
        for key in all where key.differs(old, new) { key.insertChange(&changes) }
    }
}
