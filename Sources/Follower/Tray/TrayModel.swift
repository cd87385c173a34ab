import ComicDomain
import Widget

/// What the tray item shows for the widget's entry (docs/tray.md), computed without
/// a bus: its status, its tooltip, and its menu (the entry's view: its actions, labels and all).
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

    /// Active while a chapter is being read (progress below 100) or when new pages exist; passive
    /// for the placeholder and for a finished chapter with nothing new.
    package let status: Status
    /// The tooltip's text: the medium rendering, as plain text (hosts read it as markup: escape it).
    let toolTipText: String
    /// The cover's absolute path, or "" when the entry has none.
    let coverPath: String
    /// The menu, top to bottom.
    let menu: [TrayMenuItem]

    init(_ entry: ChapterEntry) {
        let reading = !entry.isPlaceholder && entry.progress < 100
        status = reading || entry.newPages > 0 ? .active : .passive
        toolTipText = entry.rendered(.medium)
        coverPath = entry.imagePath
        menu = Self.menu(for: entry)
    }

    /// The header (the medium rendering, not clickable), then the view's actions in order, the
    /// chapter list after a separator.
    private static func menu(for entry: ChapterEntry) -> [TrayMenuItem] {
        var items: [TrayMenuItem] = [.label(.header, entry.rendered(.medium), action: nil), .separator(.afterHeader)]
        for (index, item) in entry.view.actions.enumerated() {
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
