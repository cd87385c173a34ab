package import ComicDomain

/// What the tray item shows for the widget's entry (DESIGN §14), computed without a bus: its
/// status, its tooltip, and its menu (whose items open the entry's `next-chapter` and
/// `first-unread-page`).
package struct TrayModel: Sendable, Equatable {
    package enum Status: String, Sendable {
        /// Hosts such as Waybar hide a passive item.
        case passive = "Passive"
        case active = "Active"
    }

    /// The item's title, and its tooltip's.
    package static let title = "DBMultiverse"
    /// The longest label shown in the menu, in characters (chapter names may have 256).
    package static let maxLabelLength = 64

    /// Active while a chapter is being read (progress below 100) or when new pages exist; passive
    /// for the placeholder and for a finished chapter with nothing new.
    package let status: Status
    /// The tooltip's text: the medium rendering, as plain text (hosts read it as markup: escape it).
    package let toolTipText: String
    /// The cover's absolute path, or "" when the entry has none.
    package let coverPath: String
    /// The menu, top to bottom.
    package let menu: [TrayMenuItem]

    package init(_ entry: ChapterEntry) {
        let reading = !entry.isPlaceholder && entry.progress < 100
        status = reading || entry.newPages > 0 ? .active : .passive
        toolTipText = entry.rendered(.medium)
        coverPath = entry.imagePath
        menu = Self.menu(for: entry)
    }

    /// The header (the medium rendering, not clickable); Continue reading (or, with nothing read
    /// yet, chapter 1); the entry's next chapter, named when the catalogue knows it; the entry's
    /// first unread page when there are new pages; the chapter list.
    private static func menu(for entry: ChapterEntry) -> [TrayMenuItem] {
        var items: [TrayMenuItem] = [.label(.header, entry.rendered(.medium), action: nil), .separator(.afterHeader)]
        if entry.isPlaceholder {
            items.append(.label(.continueReading, "Read Chapter 1", action: .openChapter(1)))
        } else {
            items.append(.label(.continueReading, "Continue reading", action: .openCurrent))
        }
        if entry.nextChapter != 0 {
            let next = entry.nextChapter
            let name = entry.nextChapterName.isEmpty ? "Next: Chapter \(next)" : "Next: Chapter \(next): \(entry.nextChapterName)"
            items.append(.label(.nextChapter, name, action: .openChapter(next)))
        }
        if entry.firstUnreadPage != 0 {
            items.append(.label(.newPages, PagesNotification.summary(newPages: entry.newPages), action: .openPage(entry.firstUnreadPage)))
        }
        items.append(.separator(.beforeChapterList))
        items.append(.label(.chapterList, "Chapter list", action: .openChapterList))
        return items
    }
}

/// What a menu item does when clicked: one of the application's actions (DESIGN §6).
package enum TrayAction: Sendable, Equatable {
    /// `open-current`: the chapter being read.
    case openCurrent
    /// `open-chapter`: that chapter.
    case openChapter(Int)
    /// `open-page`: that page of the comic.
    case openPage(Int)
    /// `open-chapter-list`: the site's chapter list.
    case openChapterList
}

/// One item of the tray's menu. Each role keeps its id whatever else the menu holds, so a host
/// that still shows the menu clicks what it shows.
package struct TrayMenuItem: Sendable, Equatable {
    package enum Role: Int32, Sendable {
        case header = 1, continueReading, nextChapter, newPages, chapterList
        case afterHeader = 101, beforeChapterList
    }

    package enum Kind: Sendable, Equatable {
        /// A line of text; `label` is as shown (no access-key underscores).
        case label(String)
        case separator
    }

    package let role: Role
    package let kind: Kind
    /// What a click does; nil for an item that can't be clicked.
    package let action: TrayAction?

    package var id: Int32 { role.rawValue }

    package init(role: Role, kind: Kind, action: TrayAction?) {
        self.role = role
        self.kind = kind
        self.action = action
    }

    static func label(_ role: Role, _ text: String, action: TrayAction?) -> TrayMenuItem {
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
