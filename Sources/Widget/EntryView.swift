package import ComicDomain
package import DBus
import JSON
import Localization

/// What every face shows for an entry (docs/dbus-api.md, "The view"), decided once, here: the
/// service publishes it with the entry (`panel-text`, `title`, `progress-text`, `new-pages-text`,
/// `actions`), and the tray, the notifier, the status-bar formats, `watch` and both cards draw it
/// and decide nothing — as com.canonical.dbusmenu and org.gtk.Menus have the application publish
/// labels and actions for the host to draw.
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

        init(_ label: String, _ action: ApplicationAction) {
            self.label = label
            self.action = action
        }
    }

    /// The small rendering: `Ch. 42 · 35%`, `Ch. 42 · 35% · 3 new`; placeholder `Read Multiverse Reader`.
    let panelText: String
    /// `Chapter 42`; in a special `Special Universe 3 · Chapter 2`; placeholder `Read Multiverse Reader`.
    let title: String
    /// `35% read`; "" for the placeholder.
    package let progressText: String
    /// `3 new pages`, `1 new page`, or "".
    package let newPagesText: String
    /// The card's buttons, the tray menu's items, in order: Continue reading, Next chapter (when the
    /// catalogue has one), Read new pages (when there are new pages), Chapter list; for the
    /// placeholder Start reading (chapter 1) alone.
    package let actions: [Action]

    init(_ entry: ChapterEntry) {
        panelText = entry.rendered(.small)
        if entry.isPlaceholder {
            title = Self.placeholderText
            progressText = ""
            newPagesText = ""
            // TRANSLATORS: the button shown before any chapter is read: opens chapter 1.
            actions = [Action(gettext("Start reading"), .openChapter(1))]
            return
        }
        // A special numbers its chapters from 1 again: its title names the universe.
        title = entry.universe != 0
            // TRANSLATORS: the card's title in a special: the special universe's number, then the chapter's.
            ? gettext("Special Universe %d · Chapter %d", entry.universe, entry.chapter)
            // TRANSLATORS: the card's title: the chapter's number.
            : gettext("Chapter %d", entry.chapter)
        // TRANSLATORS: how much of the chapter has been read, e.g. "35% read".
        progressText = gettext("%d%% read", entry.progress)
        newPagesText = entry.newPages > 0 ? Self.newPages(entry.newPages) : ""
        // TRANSLATORS: a button and a menu item: opens the page where the reader left off.
        var actions = [Action(gettext("Continue reading"), .openCurrent)]
        if entry.nextChapter != 0 {
            // TRANSLATORS: a button and a menu item: opens the chapter after this one.
            actions.append(Action(gettext("Next chapter"), .openChapter(entry.nextChapter)))
        }
        if entry.newPages > 0, entry.firstUnreadPage != 0 {
            // TRANSLATORS: a button and a menu item: opens the first unread page.
            actions.append(Action(gettext("Read new pages"), .openPage(entry.firstUnreadPage)))
        }
        // TRANSLATORS: a button and a menu item: opens the site's list of chapters.
        actions.append(Action(gettext("Chapter list"), .openChapterList))
        self.actions = actions
    }

    /// `1 new page`, `3 new pages`: the announcement's summary and the card's line.
    static func newPages(_ count: Int) -> String {
        ngettext("%d new page", "%d new pages", count, count)
    }

    /// The panel text and title before any chapter is read (the iOS widget's words).
    static var placeholderText: String {
        // TRANSLATORS: the panel text and title before any chapter is read (the iOS widget's words).
        gettext("Read Multiverse Reader")
    }

    /// The label of `action` in this view, if it offers it.
    package func label(of action: ApplicationAction) -> String? {
        actions.first { $0.action == action }?.label
    }
}

extension ChapterEntry {
    /// The view of this entry.
    package var view: EntryView { EntryView(self) }

    /// The widget's text for `family`: small `Ch. 42 · 35%` (`Ch. 42 · 35% · 3 new` with new
    /// pages), medium `Chapter 42: <name> — 35% read`; the placeholder reads
    /// `Read Multiverse Reader` (small) or `Read Multiverse Reader — start with Chapter 1` (medium).
    /// The small one is the view's `panel-text`; the medium one the tray's tooltip and menu header.
    package func rendered(_ family: WidgetFamily) -> String {
        switch (family, isPlaceholder) {
        case (.small, true): EntryView.placeholderText
        // TRANSLATORS: the card's text before any chapter is read.
        case (.medium, true): gettext("Read Multiverse Reader — start with Chapter 1")
        // TRANSLATORS: the panel text with new pages, keep it short: Ch. = chapter, then how much of it is read, then the number of new pages.
        case (.small, false) where newPages > 0: ngettext("Ch. %d · %d%% · %d new", "Ch. %d · %d%% · %d new", newPages, chapter, progress, newPages)
        // TRANSLATORS: the panel text, keep it short: Ch. = chapter, then how much of it is read.
        case (.small, false): gettext("Ch. %d · %d%%", chapter, progress)
        // TRANSLATORS: the tooltip: the chapter's number, its name, how much of it is read.
        case (.medium, false): gettext("Chapter %d: %s — %d%% read", chapter, name, progress)
        }
    }
}

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
