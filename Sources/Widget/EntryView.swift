package import ComicDomain
package import DBus
internal import JSON

/// What every face shows for an entry (docs/dbus-api.md, "The view"), decided once, here: the
/// service publishes it with the entry (`panel-text`, `title`, `progress-text`, `new-pages-text`,
/// `actions`), and the tray, the notifier, the status-bar formats, `watch` and both cards draw it
/// and decide nothing — as com.canonical.dbusmenu and org.gtk.Menus have the application publish
/// labels and actions for the host to draw.
///
/// Every reader-facing English text of the view is written once in this file, as a whole string
/// (no sentence built from pieces; each plural is chosen by count in one function).
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

    /// The small rendering: `Ch. 42 · 35%`, `Ch. 42 · 35% · 3 new`; placeholder `Read Multiverse Reader`.
    package let panelText: String
    /// `Chapter 42`; in a special `Special Universe 3 · Chapter 2`; placeholder `Read Multiverse Reader`.
    package let title: String
    /// `35% read`; "" for the placeholder.
    package let progressText: String
    /// `3 new pages`, `1 new page`, or "".
    package let newPagesText: String
    /// The card's buttons, the tray menu's items, in order: Continue reading, Next chapter (when the
    /// catalogue has one), Read new pages (when there are new pages), Chapter list; for the
    /// placeholder Start reading (chapter 1) alone.
    package let actions: [Action]

    package init(_ entry: ChapterEntry) {
        panelText = entry.rendered(.small)
        if entry.isPlaceholder {
            title = "Read Multiverse Reader"
            progressText = ""
            newPagesText = ""
            actions = [Action("Start reading", .openChapter(1))]
            return
        }
        // A special numbers its chapters from 1 again: its title names the universe.
        title = entry.universe != 0 ? "Special Universe \(entry.universe) \u{00B7} Chapter \(entry.chapter)" : "Chapter \(entry.chapter)"
        progressText = "\(entry.progress)% read"
        newPagesText = entry.newPages > 0 ? Self.newPages(entry.newPages) : ""
        var actions = [Action("Continue reading", .openCurrent)]
        if entry.nextChapter != 0 { actions.append(Action("Next chapter", .openChapter(entry.nextChapter))) }
        if entry.newPages > 0, entry.firstUnreadPage != 0 { actions.append(Action("Read new pages", .openPage(entry.firstUnreadPage))) }
        actions.append(Action("Chapter list", .openChapterList))
        self.actions = actions
    }

    /// `1 new page`, `3 new pages`: the announcement's summary and the card's line.
    package static func newPages(_ count: Int) -> String {
        count == 1 ? "1 new page" : "\(count) new pages"
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
        case (.small, true): "Read Multiverse Reader"
        case (.medium, true): "Read Multiverse Reader \u{2014} start with Chapter 1"
        case (.small, false) where newPages > 0: "Ch. \(chapter) \u{00B7} \(progress)% \u{00B7} \(newPages) new"
        case (.small, false): "Ch. \(chapter) \u{00B7} \(progress)%"
        case (.medium, false): "Chapter \(chapter): \(name) \u{2014} \(progress)% read"
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
