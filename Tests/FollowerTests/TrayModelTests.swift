@testable import ComicDomain
import DBus
import DBusTestSupport
import DesktopTestSupport
@testable import Follower
import Foundation
import Testing
import Widget

/// The tray's model and its menu as dbusmenu serves it, without a bus (docs/tray.md).
@Suite(.timeLimit(.minutes(1))) struct TrayModelTests {
    static func entry(_ chapter: Int = 42, name: String = "Universe 18", progress: Int = 35, image: String = "",
                      newPages: Int = 0, firstUnreadPage: Int = 0, nextChapter: Int? = nil, nextChapterName: String = "") -> ChapterEntry {
        ChapterEntry(chapter: chapter, name: name, progress: progress, imagePath: image, date: 1_700_000_000,
                     family: .medium, isPlaceholder: false, latestPage: firstUnreadPage + newPages - 1, newPages: newPages,
                     firstUnreadPage: firstUnreadPage, nextChapter: nextChapter ?? chapter + 1, nextChapterName: nextChapterName)
    }

    static let placeholder = ChapterEntry.placeholder(family: .medium, date: 1_700_000_000)

    /// Each item as (id, shown text or "—" for a separator, action).
    static func rows(_ model: TrayModel) -> [String] {
        model.menu.map { item in
            switch item.kind {
            case .separator: "\(item.id) —"
            case .label(let text): "\(item.id) \(text)" + (item.action.map { " → \($0)" } ?? "")
            }
        }
    }

    // MARK: Status and tooltip

    @Test func activeWhileReadingOrWithNewPagesPassiveOtherwise() {
        #expect(TrayModel(published: Self.entry(progress: 0)).status == .active)
        #expect(TrayModel(published: Self.entry(progress: 99)).status == .active)
        #expect(TrayModel(published: Self.entry(progress: 100)).status == .passive)
        #expect(TrayModel(published: Self.placeholder).status == .passive)
        // Finished, but the comic went on: new pages make it active again.
        #expect(TrayModel(published: Self.entry(progress: 100, newPages: 3, firstUnreadPage: 2448)).status == .active)
        #expect(TrayModel.Status.active.rawValue == "Active" && TrayModel.Status.passive.rawValue == "Passive")
    }

    @Test func theTooltipIsTheMediumRenderingAndTheCoverItsPath() {
        let model = TrayModel(published: Self.entry(name: "Vegeta & <Goku>", image: "/data/chapterCoverImage.jpg"))
        #expect(model.toolTipText == "Chapter 42: Vegeta & <Goku> — 35% read")
        #expect(model.coverPath == "/data/chapterCoverImage.jpg")
        let waiting = TrayModel(published: Self.placeholder)
        #expect(waiting.toolTipText == "Read Multiverse Reader — start with Chapter 1")
        #expect(waiting.coverPath == "")
        #expect(TrayModel.title == "DBMultiverse")
    }

    // MARK: Menu

    @Test func theMenuOfAChapterBeingRead() {
        #expect(Self.rows(TrayModel(published: Self.entry())) == [
            "1 Chapter 42: Universe 18 — 35% read",
            "101 —",
            "2 Continue reading → openCurrent",
            "3 Next chapter → openChapter(43)",
            "102 —",
            "5 Chapter list → openChapterList",
        ])
        // The labels are the view's, item for item.
        #expect(TrayModel(published: Self.entry()).menu.compactMap { item in
            if case .label(let text) = item.kind, item.action != nil { text } else { nil }
        } == EntryView(Self.entry()).actions.map(\.label))
    }

    @Test func thePlaceholderMenuStartsAtChapterOne() {
        #expect(Self.rows(TrayModel(published: Self.placeholder)) == [
            "1 Read Multiverse Reader — start with Chapter 1",
            "101 —",
            "2 Start reading → openChapter(1)",
        ])
    }

    @Test func newPagesOpenTheEntrysFirstUnreadPage() {
        #expect(Self.rows(TrayModel(published: Self.entry(progress: 100, newPages: 3, firstUnreadPage: 2448))).contains("4 Read new pages → openPage(2448)"))
        #expect(Self.rows(TrayModel(published: Self.entry(newPages: 1, firstUnreadPage: 2450))).contains("4 Read new pages → openPage(2450)"))
        // Without new pages there is no such item.
        #expect(!TrayModel(published: Self.entry()).menu.contains { $0.role == .newPages })
    }

    @Test func inASpecialThereIsNoNextChapter() {
        var special = Self.entry(1, name: "The Special Begins", nextChapter: 0)
        special.universe = 3
        special.page = 101
        // "Next: Chapter 2" would open the main story's chapter 2: a special's numbers are its own.
        #expect(Self.rows(TrayModel(published: special)) == [
            "1 Chapter 1: The Special Begins — 35% read",
            "101 —",
            "2 Continue reading → openCurrent",
            "102 —",
            "5 Chapter list → openChapterList",
        ])
    }

    @Test func theLastChapterHasNoNextOneAndLongNamesAreCut() {
        let last = TrayModel(published: Self.entry(Limits.chapters.upperBound, nextChapter: 0))
        #expect(!last.menu.contains { $0.role == .nextChapter })
        let long = String(repeating: "Ω", count: 256)
        let header = TrayModel(published: Self.entry(name: long)).menu[0]
        guard case .label(let text) = header.kind else {
            Issue.record("the header is not a label")
            return
        }
        #expect(text.count == TrayModel.maxLabelLength && text.hasSuffix("…") && text.hasPrefix("Chapter 42: ΩΩ"))
    }

    // MARK: The menu as dbusmenu serves it

    @Test func theLayoutWithDepthAndPropertyFilters() throws {
        let menu = ServedMenu(items: TrayModel(published: Self.entry(name: "Goku_Black")).menu)
        let all = try menu.layout(parent: 0, depth: -1, names: [])
        #expect(all.id == 0 && all.properties == ["children-display": Variant("submenu")])
        #expect(all.children.map(\.id) == [1, 101, 2, 3, 102, 5])
        #expect(all.children.allSatisfy { $0.children.isEmpty })
        // Labels double underscores (a single one marks an access key); what can't be clicked is
        // disabled; separators say so; nothing else is sent (defaults are left out).
        #expect(all.children[0].properties == ["label": Variant("Chapter 42: Goku__Black — 35% read"), "enabled": Variant(false)])
        #expect(all.children[1].properties == ["type": Variant("separator")])
        #expect(all.children[2].properties == ["label": Variant("Continue reading")])

        #expect(try menu.layout(parent: 0, depth: 0, names: []).children.isEmpty)
        #expect(try menu.layout(parent: 0, depth: 1, names: []).children.count == 6)
        let labels = try menu.layout(parent: 0, depth: -1, names: ["label"])
        #expect(labels.properties.isEmpty)
        #expect(labels.children[0].properties == ["label": Variant("Chapter 42: Goku__Black — 35% read")])
        #expect(labels.children[1].properties.isEmpty)
        let item = try menu.layout(parent: 3, depth: -1, names: [])
        #expect(item == MenuLayout(id: 3, properties: ["label": Variant("Next chapter")]))
        let unknown = try #require(throws: DBusError.self) { try menu.layout(parent: 7, depth: -1, names: []) }
        #expect(unknown.name == DBusError.Name.invalidArgs && unknown.message == "no menu item with id 7")
        #expect(menu.revision == 1)
    }

    @Test func groupPropertiesAndSingleProperties() throws {
        let menu = ServedMenu(items: TrayModel(published: Self.entry()).menu)
        #expect(menu.groupProperties(ids: [], names: []).map(\.id) == [0, 1, 101, 2, 3, 102, 5])
        #expect(menu.groupProperties(ids: [5, 99, 2], names: ["label"])
                == [MenuItemProperties(id: 5, properties: ["label": Variant("Chapter list")]),
                    MenuItemProperties(id: 2, properties: ["label": Variant("Continue reading")])])
        #expect(menu.groupProperties(ids: [1], names: ["enabled", "visible"]) == [MenuItemProperties(id: 1, properties: ["enabled": Variant(false)])])
        #expect(try menu.property("label", of: 3) == Variant("Next chapter"))
        #expect(try menu.property("children-display", of: 0) == Variant("submenu"))
        #expect(throws: DBusError.self) { try menu.property("label", of: 42) }
        let defaulted = try #require(throws: DBusError.self) { try menu.property("enabled", of: 2) }
        #expect(defaulted.message.contains("default"))
        #expect(menu.action(of: 2) == .openCurrent && menu.action(of: 1) == nil && menu.action(of: 0) == nil && menu.action(of: 9) == nil)
        #expect(menu.contains(0) && menu.contains(102) && !menu.contains(4))
    }

    @Test func changesAreLayoutUpdatesOrPropertyUpdates() {
        var menu = ServedMenu(items: TrayModel(published: Self.entry()).menu)
        // The same items: nothing to tell.
        #expect(menu.update(to: TrayModel(published: Self.entry()).menu) == .none)
        // Other labels on the same items: their properties.
        #expect(menu.update(to: TrayModel(published: Self.entry(43, progress: 5)).menu)
                == .properties(updated: [MenuItemProperties(id: 1, properties: ["label": Variant("Chapter 43: Universe 18 — 5% read")])],
                               removed: []))
        #expect(menu.revision == 1)
        // Items that come or go: a new revision of the layout.
        #expect(menu.update(to: TrayModel(published: Self.entry(43, newPages: 2, firstUnreadPage: 899)).menu) == .layout(revision: 2))
        #expect(menu.update(to: TrayModel(published: Self.placeholder).menu) == .layout(revision: 3))
        #expect(menu.revision == 3)
    }

    @Test func aPropertyBackToItsDefaultIsReportedRemoved() {
        let clickable = TrayMenuItem(role: .header, kind: .label("Header"), action: .openCurrent)
        let disabled = TrayMenuItem(role: .header, kind: .label("Header"), action: nil)
        var menu = ServedMenu(items: [disabled])
        #expect(menu.update(to: [clickable])
                == .properties(updated: [], removed: [MenuItemRemovedProperties(id: 1, names: ["enabled"])]))
        #expect(menu.update(to: [disabled])
                == .properties(updated: [MenuItemProperties(id: 1, properties: ["enabled": Variant(false)])], removed: []))
    }

    // MARK: Settings

    @Test func theTraySettingFromTheOptionAndTheConfigFile() {
        func settings(noTray: Bool = false, _ line: String) -> TraySettings {
            TraySettings(noTrayOption: noTray, config: ConfigFile(text: line))
        }
        #expect(settings("").isEnabled && settings("tray =").isEnabled && settings("").problem == nil)
        for on in ["yes", "YES", "true", "on", "1"] {
            let setting = settings("tray = \(on)")
            #expect(setting.isEnabled && setting.problem == nil, "\(on)")
        }
        for off in ["no", "No", "false", "off", "0"] {
            #expect(!settings("tray = \(off)").isEnabled, "\(off)")
        }
        #expect(!settings(noTray: true, "tray = yes").isEnabled)
        let odd = settings("tray = maybe")
        #expect(odd.isEnabled && odd.problem == "ignoring tray = \"maybe\" in the config file: use yes or no")
    }

    @Test func theIconThemePathOfAnInstallation() throws {
        let prefix = try makeTemporaryDirectory("dbm-prefix")
        defer { try? FileManager.default.removeItem(atPath: prefix) }
        #expect(TraySettings.iconThemePath(executable: prefix + "/bin/dbmultiverse") == "")
        let theme = prefix + "/share/dbmultiverse/icons/hicolor"
        try FileManager.default.createDirectory(atPath: theme + "/scalable/apps", withIntermediateDirectories: true)
        #expect(FileManager.default.createFile(atPath: theme + "/index.theme", contents: Data()))
        #expect(TraySettings.iconThemePath(executable: prefix + "/bin/dbmultiverse") == "", "the index alone is not the icon")
        #expect(FileManager.default.createFile(atPath: theme + "/scalable/apps/com.nobadi.DBMultiverse.svg", contents: Data()))
        #expect(TraySettings.iconThemePath(executable: prefix + "/bin/dbmultiverse") == prefix + "/share/dbmultiverse/icons")
        #expect(TraySettings.iconThemePath(executable: prefix + "/libexec/dbmultiverse/dbmultiverse-notifier") == prefix + "/share/dbmultiverse/icons",
                "the notifier's own executable")
        #expect(TraySettings.iconThemePath(executable: prefix + "/libexec/dbmultiverse") == "")
        #expect(TraySettings.iconThemePath(executable: prefix + "/libexec/other/dbmultiverse-notifier") == "")
        #expect(TraySettings.iconThemePath(executable: "dbmultiverse") == "")
    }
}
