import ComicDomain
import Widget

/// What the tray item shows for the service's view (docs/tray.md), computed without a bus: its
/// status, its tooltip and its menu — the view's, as published, nothing decided here.
package struct TrayModel: Sendable, Equatable {
    package enum Status: String, Sendable {
        /// Hosts such as Waybar hide a passive item.
        case passive = "Passive"
        case active = "Active"
    }

    /// The item's title, and its tooltip's.
    static let title = "DBMultiverse"
    /// The longest label shown in the menu, in characters (chapter names may have 256).
    static let maxLabelLength = 64

    /// The view's state as a tray item's: Active while the reader has something to read (a chapter
    /// under way, new pages), Passive otherwise (the placeholder, a finished chapter).
    package let status: Status
    /// The tooltip's text: the view's `tooltip`, as plain text (hosts read it as markup: escape it).
    let toolTipText: String
    /// The cover's absolute path, or "" when the entry has none.
    let coverPath: String
    /// The menu, top to bottom.
    let menu: [TrayMenuItem]
    /// The view's revision: a view with the same one shows the same.
    let revision: UInt64

    init(_ view: EntryView) {
        status = view.state.hasSomethingToRead ? .active : .passive
        toolTipText = view.tooltip
        coverPath = view.entry.imagePath
        menu = Self.menu(for: view)
        revision = view.revision
    }

    /// The header (the view's tooltip, not clickable), then the view's actions in order, the
    /// chapter list after a separator.
    private static func menu(for view: EntryView) -> [TrayMenuItem] {
        var items: [TrayMenuItem] = [.label(.header, view.tooltip, action: nil), .separator(.afterHeader)]
        for (index, item) in view.actions.enumerated() {
            let role: TrayMenuItem.Role = switch item.action {
            case _ where index == 0: .continueReading
            case .openCurrent: .continueReading
            case .openChapter: .nextChapter
            case .openPage: .newPages
            case .openChapterList: .chapterList
            }
            if role == .chapterList { items.append(.separator(.beforeChapterList)) }
            items.append(.label(role, item.label, action: item.action))
        }
        return items
    }
}

/// One item of the tray's menu. Each role keeps its id whatever else the menu holds, so a host
/// that still shows the menu clicks what it shows.
struct TrayMenuItem: Sendable, Equatable {
    enum Role: Int32, Sendable {
        case header = 1, continueReading, nextChapter, newPages, chapterList
        case afterHeader = 101, beforeChapterList
    }

    enum Kind: Sendable, Equatable {
        /// A line of text; `label` is as shown (no access-key underscores).
        case label(String)
        case separator
    }

    let role: Role
    let kind: Kind
    /// What a click does; nil for an item that can't be clicked.
    let action: ApplicationAction?

    var id: Int32 { role.rawValue }

    init(role: Role, kind: Kind, action: ApplicationAction?) {
        self.role = role
        self.kind = kind
        self.action = action
    }

    static func label(_ role: Role, _ text: String, action: ApplicationAction?) -> TrayMenuItem {
        TrayMenuItem(role: role, kind: .label(shortened(text)), action: action)
    }

    static func separator(_ role: Role) -> TrayMenuItem {
        TrayMenuItem(role: role, kind: .separator, action: nil)
    }

    /// `text` cut to `TrayModel.maxLabelLength` characters, ending in "…" when cut.
    private static func shortened(_ text: String) -> String {
        guard text.count > TrayModel.maxLabelLength else { return text }
        return String(text.prefix(TrayModel.maxLabelLength - 1)) + "\u{2026}"
    }
}
