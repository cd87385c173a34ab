package import ComicDomain
package import DBus
import JSON
import Localization

/// The whole model every face draws (docs/dbus-api.md, "The view"): the entry's fields and what a
/// face shows for them — its texts, its buttons, the state it is styled by, the notifications'
/// texts — and the revision that says when any of it changed. Decided once, by the service, which
/// publishes it with the entry; the tray, the notifier, the status-bar formats, `watch` and both
/// cards read it back (`init(dbusDictionary:)`) and decide nothing — as com.canonical.dbusmenu and
/// org.gtk.Menus have the application publish labels and actions for the host to draw.
///
/// Every reader-facing text of the view is written once in this file, as a whole gettext message in
/// the session's language (docs/translations.md): no sentence built from pieces, each plural
/// through ngettext. The service translates the view once; the faces get it translated.
package struct EntryView: Sendable, Equatable {
    /// One button of the cards, one item of the tray menu: its label and the application action
    /// (`org.freedesktop.Application.ActivateAction`) it runs.
    package struct Action: Sendable, Equatable {
        package let label: String
        package let action: ApplicationAction

        package init(_ label: String, _ action: ApplicationAction) {
            self.label = label
            self.action = action
        }
    }

    /// What a face is styled by: the tray item's status, Waybar's `class`. Machine values, never
    /// translated.
    package enum State: String, Sendable, CaseIterable {
        /// Nothing read yet.
        case placeholder
        /// A chapter being read, with no page published after the reader's.
        case reading
        /// A chapter read to its end (100%), with no page published after the reader's: nothing
        /// to do until the next page.
        case finished
        /// Main-story pages published after the reader's.
        case newPages = "new-pages"

        /// Whether the reader has something to read: a chapter under way or new pages (the tray
        /// item is Active then, Passive otherwise).
        package var hasSomethingToRead: Bool { self == .reading || self == .newPages }
    }

    /// A desktop notification, as the notifier shows it: its summary, its body (plain text) and
    /// the action a click on it runs, labelled as the same action is everywhere.
    package struct Notification: Sendable, Equatable {
        package let summary: String
        package let body: String
        package let action: Action

        package init(summary: String, body: String, action: Action) {
            (self.summary, self.body, self.action) = (summary, body, action)
        }
    }

    /// The entry the view shows, as the service published it: the name, the cover, the counts and
    /// the progress, which faces show as they are (a progress bar's value, the cover's pixmap).
    package internal(set) var entry: ChapterEntry
    /// The small rendering: `Ch. 42 · 35%`, `Ch. 42 · 35% · 3 new`; placeholder `Read Multiverse Reader`.
    package internal(set) var panelText: String
    /// `Chapter 42`; in a special `Special Universe 3 · Chapter 2`; placeholder `Read Multiverse Reader`.
    package internal(set) var title: String
    /// `35% read`; "" for the placeholder.
    package internal(set) var progressText: String
    /// `3 new pages`, `1 new page`, or "".
    package internal(set) var newPagesText: String
    /// The card's buttons, the tray menu's items, in order: Continue reading, Next chapter (when the
    /// catalogue has one), Read new pages (when there are new pages), Chapter list; for the
    /// placeholder Start reading (chapter 1) alone.
    package internal(set) var actions: [Action]
    /// `placeholder`, `new-pages` (pages published after the reader's), `finished` (progress 100)
    /// or `reading`, in that order of precedence.
    package internal(set) var state: State
    /// The tooltip, and the tray menu's first line: `Chapter 42: <name> — 35% read`; placeholder
    /// `Read Multiverse Reader — start with Chapter 1`.
    package internal(set) var tooltip: String
    /// The notification of a chapter change: `Chapter 42: <name>` (`Continued on Laptop: Chapter 50`
    /// for a reading another computer made), `35% read`, Continue reading; nil for the placeholder.
    package internal(set) var chapterNotification: Notification?
    /// The announcement of new pages: `3 new pages`, `After Chapter 42: <name>`, Read new pages; nil
    /// without new pages.
    package internal(set) var newPagesNotification: Notification?
    /// Changes exactly when something a face shows changes: a hash of every key but `date` and
    /// `family` (the texts included, so a language change counts), and of the cover file's identity
    /// (a cover replaced under the same path counts). Equal views have equal revisions, whichever
    /// process made them and whenever: a face that kept one across a restart of the service compares
    /// it with the new one as it is. 53 bits, so JavaScript (GJS, QML) holds it exactly.
    package internal(set) var revision: UInt64

    /// The view the service publishes for `entry`, whose cover file is `cover` (its identity, nil
    /// for none): texts in the session's language.
    package init(_ entry: ChapterEntry, cover: FileIdentity? = nil) {
        self.init(blank: entry)
        state = Self.state(of: entry)
        panelText = Self.panelText(of: entry)
        tooltip = Self.tooltip(of: entry)
        if entry.isPlaceholder {
            title = Self.placeholderText
            // TRANSLATORS: the button shown before any chapter is read: opens chapter 1.
            actions = [Action(gettext("Start reading"), .openChapter(1))]
        } else {
            readingTexts(of: entry)
        }
        revision = Self.revision(of: self, cover: cover)
    }

    /// A view with `entry` and nothing else: what a client fills from the keys it reads.
    init(blank entry: ChapterEntry) {
        self.entry = entry
        (panelText, title, progressText, newPagesText, tooltip) = ("", "", "", "", "")
        actions = []
        state = .placeholder
        revision = 0
    }

    /// The placeholder's view, as the service publishes it (what a command prints when no service
    /// answers).
    package static func placeholder(family: WidgetFamily, date: Int64) -> EntryView {
        EntryView(.placeholder(family: family, date: date))
    }

    /// The texts, buttons and notifications of a chapter being read.
    private mutating func readingTexts(of entry: ChapterEntry) {
        // A special numbers its chapters from 1 again: its title names the universe.
        title = entry.universe != 0
            // TRANSLATORS: the card's title in a special: the special universe's number, then the chapter's.
            ? gettext("Special Universe %d · Chapter %d", entry.universe, entry.chapter)
            // TRANSLATORS: the card's title: the chapter's number.
            : gettext("Chapter %d", entry.chapter)
        // TRANSLATORS: how much of the chapter has been read, e.g. "35% read".
        progressText = gettext("%d%% read", entry.progress)
        newPagesText = entry.newPages > 0 ? ngettext("%d new page", "%d new pages", entry.newPages, entry.newPages) : ""
        // TRANSLATORS: a button, a menu item and the chapter notification's action: opens the page where the reader left off.
        let continueReading = Action(gettext("Continue reading"), .openCurrent)
        actions = [continueReading]
        if entry.nextChapter != 0 {
            // TRANSLATORS: a button and a menu item: opens the chapter after this one.
            actions.append(Action(gettext("Next chapter"), .openChapter(entry.nextChapter)))
        }
        if entry.newPages > 0, entry.firstUnreadPage != 0 {
            // TRANSLATORS: a button, a menu item and the new pages notification's action: opens the first unread page.
            let readNewPages = Action(gettext("Read new pages"), .openPage(entry.firstUnreadPage))
            actions.append(readNewPages)
            newPagesNotification = Notification(
                summary: newPagesText,
                // TRANSLATORS: the new pages notification's text: they come after the chapter being
                // read (its number and its name).
                body: gettext("After Chapter %d: %s", entry.chapter, entry.name), action: readNewPages)
        }
        // TRANSLATORS: a button and a menu item: opens the site's list of chapters.
        actions.append(Action(gettext("Chapter list"), .openChapterList))
        chapterNotification = Notification(summary: Self.chapterSummary(of: entry), body: progressText, action: continueReading)
    }

    /// The state rule: the placeholder, else new pages, else a finished chapter, else reading.
    private static func state(of entry: ChapterEntry) -> State {
        if entry.isPlaceholder { return .placeholder }
        if entry.newPages > 0 { return .newPages }
        return entry.progress >= Limits.progress.upperBound ? .finished : .reading
    }

    /// `Ch. 42 · 35%`, `Ch. 42 · 35% · 3 new`; the placeholder's text.
    private static func panelText(of entry: ChapterEntry) -> String {
        if entry.isPlaceholder { return placeholderText }
        if entry.newPages > 0 {
            // TRANSLATORS: the panel text with new pages, keep it short: Ch. = chapter, then how much of it is read, then the number of new pages.
            return ngettext("Ch. %d · %d%% · %d new", "Ch. %d · %d%% · %d new", entry.newPages, entry.chapter, entry.progress, entry.newPages)
        }
        // TRANSLATORS: the panel text, keep it short: Ch. = chapter, then how much of it is read.
        return gettext("Ch. %d · %d%%", entry.chapter, entry.progress)
    }

    /// `Chapter 42: <name> — 35% read`; the placeholder's `Read Multiverse Reader — start with Chapter 1`.
    private static func tooltip(of entry: ChapterEntry) -> String {
        // TRANSLATORS: the tooltip and the tray menu's first line before any chapter is read.
        if entry.isPlaceholder { return gettext("Read Multiverse Reader — start with Chapter 1") }
        // TRANSLATORS: the tooltip and the tray menu's first line: the chapter's number, its name, how much of it is read.
        return gettext("Chapter %d: %s — %d%% read", entry.chapter, entry.name, entry.progress)
    }

    /// `Chapter 42: <name>`; for a reading the sync folder brought from another computer
    /// (docs/sync.md), `Continued on Laptop: Chapter 50` instead.
    private static func chapterSummary(of entry: ChapterEntry) -> String {
        guard entry.continuedOn.isEmpty else {
            // TRANSLATORS: a notification's title when the reader read on another of their computers:
            // that computer's name (e.g. Laptop), then the chapter's number.
            return gettext("Continued on %s: Chapter %d", entry.continuedOn, entry.chapter)
        }
        // TRANSLATORS: a notification's title: the chapter's number and its name.
        return gettext("Chapter %d: %s", entry.chapter, entry.name)
    }

    /// The panel text and title before any chapter is read (the iOS widget's words).
    private static var placeholderText: String {
        // TRANSLATORS: the panel text and title before any chapter is read (the iOS widget's words).
        gettext("Read Multiverse Reader")
    }

    /// The same view for `family` (which no face shows: the revision stays).
    package func of(_ family: WidgetFamily) -> EntryView {
        var view = self
        view.entry.family = family
        return view
    }

    /// The label of `action` in this view, if it offers it.
    package func label(of action: ApplicationAction) -> String? {
        actions.first { $0.action == action }?.label
    }
}

extension ChapterEntry {
    /// The view the service publishes for this entry (no cover identity: tests and the placeholder).
    var view: EntryView { EntryView(self) }
}

// MARK: The revision

extension EntryView {
    /// The revision of `view` (see `revision`): FNV-1a (64 bits) over each key the revision covers,
    /// as `name=<its JSON>` lines in the table's order, then the cover's identity; folded to 53 bits.
    static func revision(of view: EntryView, cover: FileIdentity?) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        func add(_ text: String) {
            for byte in text.utf8 {
                hash ^= UInt64(byte)
                hash = hash &* 0x100_0000_01b3
            }
        }
        for key in EntryKeys.all where key.isRevised { add(key.name + "=" + key.json(view).jsonText + "\n") }
        add("cover=" + (cover?.description ?? "") + "\n")
        return (hash ^ (hash >> 53)) & Self.revisionMask
    }

    /// The revision's 53 bits: JavaScript numbers hold integers up to 2⁵³ exactly.
    static let revisionMask: UInt64 = (1 << 53) - 1

    /// What `watch --format json --next` prints as `token` and takes back with `--after`: the
    /// revision as 16 lowercase hex digits (nothing else).
    package var token: String {
        let digits = String(revision, radix: 16)
        return String(repeating: "0", count: max(0, 16 - digits.count)) + digits
    }

    /// Whether `text` has a token's form: 16 lowercase hex digits.
    package static func isToken(_ text: String) -> Bool {
        text.utf8.count == 16 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}

// MARK: On the bus and in JSON

// The action as the entry's `actions` carry it: an `a{sv}` with `label` (s), `action` (s) and,
// when the action takes one, `parameter` (v, one i).
extension EntryView.Action: DBusArgument {
    package static var dbusSignature: Signature { [String: Variant].dbusSignature }

    package var dbusValue: DBusValue { dictionary.dbusValue }

    private var dictionary: [String: Variant] {
        var fields = ["label": Variant(label), "action": Variant(action.name)]
        if let parameter = action.parameter.first { fields["parameter"] = parameter }
        return fields
    }

    package init(dbusValue: DBusValue) throws(DBusError) {
        let fields = try [String: Variant](dbusValue: dbusValue)
        guard let label = fields["label"], let name = fields["action"] else {
            throw DBusError.invalidArgs("an action of the entry needs 'label' and 'action'")
        }
        let parameter = fields["parameter"].map { [$0] } ?? []
        do {
            self.init(try label.get(String.self), try ApplicationAction(name: try name.get(String.self), parameter: parameter))
        } catch let error as DBusError {
            throw error
        } catch {
            throw DBusError.invalidArgs("an action of the entry is not one of the application's: \(error)")
        }
    }

    /// `{"label":…,"action":…,"parameter":N}` (`parameter` only when the action takes one).
    var jsonValue: JSONValue {
        var members: [(key: String, value: JSONValue)] = [("label", .string(label)), ("action", .string(action.name))]
        if case .int32(let number)? = action.parameter.first?.value { members.append(("parameter", .integer(number))) }
        return .object(members)
    }
}

extension Array: EntryValue where Element == EntryView.Action {
    var jsonValue: JSONValue { .array(map(\.jsonValue)) }
}

/// A notification of the view as its key carries it: an `a{sv}` with `summary` (s), `body` (s) and
/// `action` (an action's `a{sv}`), empty when the view has none; in JSON the object, or null.
struct OfferedNotification: EntryValue {
    let notification: EntryView.Notification?

    init(_ notification: EntryView.Notification?) { self.notification = notification }

    static var dbusSignature: Signature { [String: Variant].dbusSignature }

    var dbusValue: DBusValue {
        guard let notification else { return [String: Variant]().dbusValue }
        return [
            "summary": Variant(notification.summary), "body": Variant(notification.body),
            "action": Variant(notification.action),
        ].dbusValue
    }

    init(dbusValue: DBusValue) throws(DBusError) {
        let fields = try [String: Variant](dbusValue: dbusValue)
        guard !fields.isEmpty else {
            notification = nil
            return
        }
        guard let summary = fields["summary"], let body = fields["body"], let action = fields["action"] else {
            throw DBusError.invalidArgs("a notification of the entry needs 'summary', 'body' and 'action'")
        }
        notification = EntryView.Notification(
            summary: try summary.get(String.self), body: try body.get(String.self), action: try action.get(EntryView.Action.self))
    }

    var jsonValue: JSONValue {
        guard let notification else { return .null }
        return .object([("summary", .string(notification.summary)), ("body", .string(notification.body)),
                        ("action", notification.action.jsonValue)])
    }
}
