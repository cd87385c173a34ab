package import ComicDomain
package import DBus
import JSON

/// The entry and its view (docs/dbus-api.md), declared once as a table, as sd-bus declares a
/// vtable: each key with its D-Bus type (the Swift type of its value), how a client reads it back,
/// whether the view's revision covers it, and the `Widget1` property that publishes it (which
/// emits `PropertiesChanged` whenever the value differs). The `a{sv}` on the bus, its decoding,
/// `--format json` (the same names, in this order), the revision, the widget's properties and the
/// property-change diff all come from here.
///
/// A new key is one line here, plus the rule that computes it on `ChapterEntry` or `EntryView`.
package enum EntryKeys {
    static let all = fields + view

    /// The entry's fields.
    static let fields: [EntryKey] = [
        .key("chapter", \.entry.chapter, read: .required { $0.entry.chapter = $1 }, property: Widget1.chapter,
             doc: "the chapter being read, 1 for the placeholder"),
        .key("name", \.entry.name, read: .required { $0.entry.name = $1 }, property: Widget1.chapterName,
             doc: "its name"),
        .key("progress", \.entry.progress, read: .required { $0.entry.progress = $1 }, property: Widget1.progress,
             doc: "the read progress, 0-100"),
        .key("image-path", \.entry.imagePath, read: .required { $0.entry.imagePath = $1 }, property: Widget1.coverImagePath,
             doc: "the absolute path of the cover image, or \"\""),
        // A special's page travels inside its page link only: read back from it.
        .key("deep-link", \.entry.deepLink, read: .ifValid { view, link in
            if case .page(let page)? = try? ComicLink(parsing: link) { view.entry.page = page } // else a chapter's link: no page
        }, property: Widget1.deepLink,
             doc: "dbmultiverse://chapter/<N>; while the reader is in a special, dbmultiverse://page/<N> of the page read"),
        // When the entry was made, and the family asked for: no face shows them, the revision leaves them out.
        .key("date", \.entry.date, read: .required { $0.entry.date = $1 }, revised: false,
             doc: "when the entry was made, in Unix seconds"),
        .key("family", \.entry.family.rawValue, read: .required { view, name throws(DBusError) in
            guard let family = WidgetFamily(rawValue: name) else { throw DBusError.invalidArgs("the entry's family '\(name)' is unknown") }
            view.entry.family = family
        }, revised: false,
             doc: "the family asked for, small or medium"),
        .key("is-placeholder", \.entry.isPlaceholder, read: .required { $0.entry.isPlaceholder = $1 },
             doc: "true when nothing has been read"),
        .key("universe", \.entry.universe, read: .required { $0.entry.universe = $1 },
             doc: "the special universe of the chapter, 0 for the main story"),
        .key("latest-page", \.entry.latestPage, read: .required { $0.entry.latestPage = $1 }, property: Widget1.latestPage,
             doc: "the latest page of the comic in the reader's language, 0 when unknown"),
        .key("new-pages", \.entry.newPages, read: .required { $0.entry.newPages = $1 }, property: Widget1.newPages,
             doc: "main-story pages published after the reader's page, 0 when unknown"),
        // What the view's actions open, from the catalogue (0 or "" without one).
        .key("next-chapter", \.entry.nextChapter, read: .required { $0.entry.nextChapter = $1 },
             doc: "the main-story chapter after this one when the catalogue has it, else 0: the placeholder, a special, the last published chapter, no catalogue"),
        .key("first-unread-page", \.entry.firstUnreadPage, read: .required { $0.entry.firstUnreadPage = $1 },
             doc: "the first main-story page after the reader's, pages of specials skipped, when there are new pages, else 0"),
        .key("next-chapter-name", \.entry.nextChapterName, read: .required { $0.entry.nextChapterName = $1 },
             doc: "the catalogue's name for next-chapter, \"\" when unknown"),
        // The computer a reading came from through the sync folder ("" when read here).
        .key("continued-on", \.entry.continuedOn, read: .required { $0.entry.continuedOn = $1 },
             doc: "the computer this reading was made on when the sync folder brought it from another one, \"\" for a reading made here"),
    ]

    /// The view (EntryView): what every face shows, decided by the service; read back as published.
    static let view: [EntryKey] = [
        .key("panel-text", \.panelText, read: .required { $0.panelText = $1 },
             doc: "\"Ch. 42 · 35% · 3 new\""),
        .key("title", \.title, read: .required { $0.title = $1 },
             doc: "\"Chapter 42\", \"Special Universe 3 · Chapter 2\""),
        .key("progress-text", \.progressText, read: .required { $0.progressText = $1 },
             doc: "\"35% read\", \"\" for the placeholder"),
        .key("new-pages-text", \.newPagesText, read: .required { $0.newPagesText = $1 },
             doc: "\"3 new pages\", \"1 new page\" or \"\""),
        .key("actions", \.actions, read: .required { $0.actions = $1 },
             doc: "the buttons and tray menu items in order, each label (s), action (s, an action of org.freedesktop.Application: open-current, open-chapter, open-page, open-chapter-list) and, when it takes one, parameter (v, one i)"),
        .key("state", \.state.rawValue, read: .required { view, name throws(DBusError) in
            guard let state = EntryView.State(rawValue: name) else { throw DBusError.invalidArgs("the entry's state '\(name)' is unknown") }
            view.state = state
        },
             doc: "what a face is styled by: " + EntryView.State.allCases.map(\.rawValue).joined(separator: ", ")),
        .key("tooltip", \.tooltip, read: .required { $0.tooltip = $1 },
             doc: "\"Chapter 42: <name> — 35% read\""),
        .key("chapter-notification", { OfferedNotification($0.chapterNotification) },
             read: .required { $0.chapterNotification = $1.notification },
             doc: "the notification of a chapter change, summary (s), body (s) and action (a{sv}, as in actions); empty for the placeholder"),
        .key("new-pages-notification", { OfferedNotification($0.newPagesNotification) },
             read: .required { $0.newPagesNotification = $1.notification },
             doc: "the announcement of new pages, the same keys; empty without new pages"),
        // Made from all the others (EntryView.revision), so not part of itself.
        .key("revision", \.revision, read: .required { $0.revision = $1 }, revised: false,
             doc: "changes exactly when something a face shows changes, never with date or family; below 2^53; faces compare revisions, never entries"),
    ]

    /// The names of the view's keys, in order (`panel-text` … `revision`).
    package static var viewKeyNames: [String] { view.map(\.name) }
}

/// One key of the entry. Made with `key(_:_:read:property:revised:doc:)`.
struct EntryKey: Sendable {
    /// How a client reads a key back into an `EntryView`.
    struct Reading<Value: Sendable>: Sendable {
        let presence: EntryKeyPresence
        let store: @Sendable (inout EntryView, Value) throws(DBusError) -> Void

        /// Missing or of another type: `InvalidArgs`.
        static func required(_ store: @escaping @Sendable (inout EntryView, Value) throws(DBusError) -> Void) -> Reading {
            Reading(presence: .required, store: store)
        }
        /// Missing or of another type: left as it is.
        static func ifValid(_ store: @escaping @Sendable (inout EntryView, Value) throws(DBusError) -> Void) -> Reading {
            Reading(presence: .ifValid, store: store)
        }
    }

    /// The key in the `a{sv}`, and the member name in `--format json`.
    let name: String
    /// The `Widget1` property publishing it, if any.
    let propertyName: String?
    /// Whether the view's revision covers it (all keys but `date`, `family` and `revision`).
    let isRevised: Bool
    /// Its value's D-Bus type, e.g. `i`.
    let signature: Signature
    /// What it means, for the interface file's description of the entry.
    let doc: String
    let variant: @Sendable (EntryView) -> Variant
    let json: @Sendable (EntryView) -> JSONValue
    let read: (@Sendable (inout EntryView, [String: Variant]) throws(DBusError) -> Void)?
    let differs: @Sendable (EntryView, EntryView) -> Bool
    let bind: (@Sendable (@escaping () -> EntryView) -> Property<Widget1>)?
    let insertChange: @Sendable (inout PropertyChanges<Widget1>) -> Void

    /// A key whose value is `value(view)` on the bus (its Swift type gives its D-Bus type).
    static func key<Value: EntryValue>(
        _ name: String, _ value: @escaping @Sendable (EntryView) -> Value, read: Reading<Value>? = nil,
        property: PropertyDeclaration<Widget1, Value>? = nil, revised: Bool = true, doc: String
    ) -> EntryKey {
        var readKey: (@Sendable (inout EntryView, [String: Variant]) throws(DBusError) -> Void)?
        if let read {
            readKey = { view, dictionary throws(DBusError) in
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
                try read.store(&view, typed)
            }
        }
        var bind: (@Sendable (@escaping () -> EntryView) -> Property<Widget1>)?
        if let property {
            bind = { view in Property(property) { value(view()) } }
        }
        return EntryKey(
            name: name, propertyName: property?.name, isRevised: revised, signature: Value.dbusSignature, doc: doc,
            variant: { Variant(value($0)) },
            json: { value($0).jsonValue },
            read: readKey,
            differs: { value($0) != value($1) },
            bind: bind,
            insertChange: { changes in if let property { changes.insert(property) } })
    }

    /// `key` for the entry's `Int` fields, which travel as `i` (clamped).
    static func key(
        _ name: String, _ value: @escaping @Sendable (EntryView) -> Int, read: Reading<Int>? = nil,
        property: PropertyDeclaration<Widget1, Int32>? = nil, doc: String
    ) -> EntryKey {
        key(name, { Int32(clamping: value($0)) },
            read: read.map { reading in Reading<Int32>(presence: reading.presence) { view, number throws(DBusError) in try reading.store(&view, Int(number)) } },
            property: property, doc: doc)
    }
}

/// Whether a client needs a key: `required` (missing or mistyped is `InvalidArgs`), `ifValid`
/// (missing or mistyped is left as it is).
enum EntryKeyPresence: Sendable { case required, ifValid }

/// The D-Bus types an entry's values have, and how each is written in JSON.
protocol EntryValue: DBusArgument, Equatable, Sendable {
    var jsonValue: JSONValue { get }
}

extension Int32: EntryValue { var jsonValue: JSONValue { .integer(Int(self)) } }
extension UInt64: EntryValue { var jsonValue: JSONValue { .integer(self) } }
extension Int64: EntryValue { var jsonValue: JSONValue { .integer(Int(self)) } }
extension String: EntryValue { var jsonValue: JSONValue { .string(self) } }
extension Bool: EntryValue { var jsonValue: JSONValue { .bool(self) } }

extension EntryView {
    /// The view as it travels on the bus: an `a{sv}` with the keys of `EntryKeys.all`.
    package var dbusDictionary: [String: Variant] {
        var dictionary: [String: Variant] = [:]
        for key in EntryKeys.all { dictionary[key.name] = key.variant(self) }
        return dictionary
    }

    /// Reads the view the service published, key by key as `EntryKeys.all` says: the entry's
    /// fields and the view's keys as they were sent (a face draws them, and computes none).
    package init(dbusDictionary dictionary: [String: Variant]) throws(DBusError) {
        self.init(blank: ChapterEntry(chapter: 0, name: "", progress: 0, imagePath: "", date: 0, family: .medium, isPlaceholder: false))
        for key in EntryKeys.all { try key.read?(&self, dictionary) }
    }

    /// The view as one JSON object: the keys of `EntryKeys.all`, in that order.
    var jsonObject: JSONValue {
        .object(EntryKeys.all.map { (key: $0.name, value: $0.json(self)) })
    }
}

extension ChapterEntry {
    /// The entry as the service publishes it: its view's `a{sv}` (no cover identity).
    package var dbusDictionary: [String: Variant] { view.dbusDictionary }
}

extension EntryKeys {
    /// The `Widget1` properties the entry's keys publish, read from `view` when asked.
    package static func properties(of view: @escaping () -> EntryView) -> [Property<Widget1>] {
        all.compactMap { $0.bind?(view) }
    }

    /// The `Widget1` properties whose value differs between `old` and `new`.
    package static func changedProperties(from old: EntryView, to new: EntryView, into changes: inout PropertyChanges<Widget1>) {
        for key in all where key.differs(old, new) { key.insertChange(&changes) }
    }
}
