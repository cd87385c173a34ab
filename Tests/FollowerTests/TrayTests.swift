import ComicDomain
import DBus
import DBusTestSupport
import DesktopTestSupport
import Widget
@testable import Follower
import Foundation
import SiteTestSupport
import Testing
import TestingTraits

/// The tray item (docs/tray.md) on a private bus: the real `TrayItem` on its own loop thread, the
/// real widget service in-process (browser `none`: it only signals `OpenRequested`), and a stand-in
/// `org.kde.StatusNotifierWatcher`, the panel's. Read with the binding and with busctl and gdbus.
/// Every wait is bounded; nothing sleeps.
@Suite(.timeLimit(.minutes(10)), .holds(.privateBuses)) final class TrayTests {
    let service: ServiceHost
    let watcher: FakeStatusNotifierWatcher

    init() async throws {
        service = try await ServiceHost.start()
        watcher = FakeStatusNotifierWatcher(address: service.bus.address)
    }

    deinit {
        watcher.stop()
        service.stop()
    }

    var client: BusClient { service.client }

    /// A stock tool on the test's bus.
    func tool(_ arguments: String...) throws -> CommandResult {
        var environment = testEnvironment()
        environment["DBUS_SESSION_BUS_ADDRESS"] = service.bus.address
        return try runCommand(arguments, environment: environment)
    }

    /// Stores chapter 42 (35 %, with a cover) through the service and waits until the tray shows it.
    func readChapter42(_ tray: TrayHost, page: Int? = 980) async throws {
        let update = WidgetClient().updateChapter(42, name: "Vegeta & <Goku>_x", progress: 35, cover: ImageFixtures.redJPEG, page: page)
        try await client.call(update, timeout: .seconds(10))
        try await tray.wait(for: "the tray to show chapter 42") { $0.shownModel?.toolTipText.hasPrefix("Chapter 42") == true }
    }

    func openRequested(_ count: Int) async throws -> [OpenRequest] {
        try await service.signals.wait(within: 10, "\(count) OpenRequested") { messages in
            messages.filter { $0.member == "OpenRequested" }.count >= count
        }
        return try service.signals.all.filter { $0.member == "OpenRequested" }.map {
            let (chapter, uri) = try $0.decode(Int32.self, String.self)
            return OpenRequest(chapter: chapter, uri: uri)
        }
    }

    // MARK: Registration

    @Test func registersByItsBusNameAndAgainWhenTheWatcherRestarts() async throws {
        // No panel yet: the item waits for one.
        let tray = try TrayHost(address: service.bus.address)
        try await tray.wait(for: "no watcher") { $0 == .watcherMissing }

        try watcher.start()
        let first = try #require(watcher.uniqueName)
        #expect(try await tray.wait(for: "the registration") { $0.isRegistration } == .registered(watcher: first))
        #expect(try await next(watcher.registrations, within: 10, "a registration")
                == .init(service: TrayHost.busName.rawValue, watcher: first))
        #expect(watcher.registeredItems == ["\(TrayHost.busName)/StatusNotifierItem"])

        // The panel restarts: a new owner of the watcher's name, which gets the item again.
        watcher.stop()
        try watcher.start()
        let second = try #require(watcher.uniqueName)
        #expect(second != first)
        #expect(try await tray.wait(for: "the registration again") { $0.isRegistration } == .registered(watcher: second))
        #expect(try await next(watcher.registrations, within: 10, "a registration") == .init(service: TrayHost.busName.rawValue, watcher: second))
        let listed = try await client.call(StatusNotifierWatcher.registeredStatusNotifierItems.get(from: StatusNotifierWatcher.object))
        #expect(listed == ["\(TrayHost.busName)/StatusNotifierItem"])
        tray.stop()
    }

    // MARK: Reading

    @Test func everyPropertyOfTheItemAndTheMenu() async throws {
        try watcher.start()
        let tray = try TrayHost(address: service.bus.address, iconThemePath: "/opt/dbm/share/dbmultiverse/icons")
        // Nothing read yet: the placeholder, passive.
        let first = try await tray.wait(for: "the first entry") { $0.shownModel != nil }
        #expect(first.shownModel?.status == .passive)
        try await readChapter42(tray)

        let item = TrayHost.item
        let all = try await client.call(Properties.getAll.call(on: item, StatusNotifierItem.name.rawValue))
        #expect(Set(all.keys) == ["Category", "Id", "Title", "Status", "WindowId", "IconName", "IconPixmap", "OverlayIconName",
                                  "OverlayIconPixmap", "AttentionIconName", "AttentionIconPixmap", "AttentionMovieName",
                                  "ToolTip", "ItemIsMenu", "Menu", "IconThemePath"])
        #expect(all["Category"] == Variant("ApplicationStatus"))
        #expect(all["Id"] == Variant("com.nobadi.DBMultiverse"))
        #expect(all["Title"] == Variant("DBMultiverse"))
        #expect(all["Status"] == Variant("Active"))
        #expect(all["WindowId"] == Variant(Int32(0)))
        #expect(all["IconName"] == Variant("com.nobadi.DBMultiverse"))
        #expect(try all["IconPixmap"]?.get([IconPixmap].self) == [])
        for empty in ["OverlayIconName", "AttentionIconName", "AttentionMovieName"] { #expect(all[empty] == Variant(""), "\(empty)") }
        #expect(try all["OverlayIconPixmap"]?.get([IconPixmap].self) == [])
        #expect(all["ItemIsMenu"] == Variant(false))
        #expect(all["Menu"] == Variant(ObjectPath("/MenuBar")))
        #expect(all["IconThemePath"] == Variant("/opt/dbm/share/dbmultiverse/icons"))

        // The tooltip: the cover (60×80, red) instead of the icon name, the title, the text escaped.
        let toolTip = try await client.call(StatusNotifierItem.toolTip.get(from: item))
        #expect(toolTip.iconName == "" && toolTip.title == "DBMultiverse")
        #expect(toolTip.text == "Chapter 42: Vegeta &amp; &lt;Goku&gt;_x — 35% read")
        let cover = try #require(toolTip.iconPixmaps.first)
        #expect(toolTip.iconPixmaps.count == 1 && cover.width == 60 && cover.height == 80 && cover.argb.count == 60 * 80 * 4)
        #expect(Array(cover.argb.prefix(4)) == [255, 254, 0, 0])

        let menu = TrayHost.menu
        let menuProperties = try await client.call(Properties.getAll.call(on: menu, DBusMenu.name.rawValue))
        #expect(menuProperties == ["Version": Variant(UInt32(3)), "TextDirection": Variant("ltr"), "Status": Variant("normal"),
                                   "IconThemePath": Variant(["/opt/dbm/share/dbmultiverse/icons"])])

        // The same with the stock tools, as a user checks it.
        let busctl = try tool("busctl", "--user", "get-property", TrayHost.busName.rawValue, "/StatusNotifierItem",
                              "org.kde.StatusNotifierItem", "Category", "Id", "Title", "Status", "WindowId", "IconName", "ItemIsMenu", "Menu")
        #expect(busctl.status == 0, "\(busctl)")
        #expect(busctl.stdout == """
            s "ApplicationStatus"
            s "com.nobadi.DBMultiverse"
            s "DBMultiverse"
            s "Active"
            i 0
            s "com.nobadi.DBMultiverse"
            b false
            o "/MenuBar"

            """, "\(busctl)")
        let version = try tool("busctl", "--user", "get-property", TrayHost.busName.rawValue, "/MenuBar", "com.canonical.dbusmenu", "Version")
        #expect(version.stdout == "u 3\n", "\(version)")
        let introspection = try tool("gdbus", "introspect", "--session", "--dest", TrayHost.busName.rawValue, "--object-path", "/MenuBar")
        #expect(introspection.status == 0 && introspection.stdout.contains("interface com.canonical.dbusmenu"), "\(introspection)")
        tray.stop()
    }

    /// A catalogue with chapters 42 and 43 (pages 961–1000), as a sync stores it.
    func storeChapters42And43() throws {
        let fetch = Catalogue.FetchMetadata(url: "http://127.0.0.1/en/chapters.html", etag: nil, lastModified: nil, fetchedAt: 0)
        try service.folder.writeCatalogue(try Catalogue(language: .english, chapters: [
            Catalogue.Chapter(number: 42, name: "Vegeta & <Goku>_x", startPage: 961, endPage: 983, universe: nil, thumbnailURL: ""),
            Catalogue.Chapter(number: 43, name: "The Tournament", startPage: 984, endPage: 1000, universe: nil, thumbnailURL: ""),
        ], latestPage: 1000, fetch: fetch))
    }

    @Test func theMenuWalkedAsHostsWalkIt() async throws {
        try watcher.start()
        // The catalogue has chapter 43, so the menu offers it; with no page stored, no page counts as new.
        try storeChapters42And43()
        let tray = try TrayHost(address: service.bus.address)
        try await readChapter42(tray, page: nil)
        let menu = TrayHost.menu

        let (revision, layout) = try await client.call(DBusMenu.getLayout.call(on: menu, Int32(0), Int32(-1), [String]()))
        #expect(revision == 2, "the placeholder's menu was revision 1")
        #expect(layout.id == 0 && layout.properties == ["children-display": Variant("submenu")])
        #expect(layout.children.map(\.id) == [1, 101, 2, 3, 102, 5])
        #expect(layout.children.map { $0.properties["label"] } == [
            Variant("Chapter 42: Vegeta & <Goku>__x — 35% read"), nil, Variant("Continue reading"),
            Variant("Next chapter"), nil, Variant("Chapter list"),
        ])
        // Depth and property filters, as libdbusmenu and Qt's importer ask.
        let (_, shallow) = try await client.call(DBusMenu.getLayout.call(on: menu, Int32(0), Int32(0), ["label"]))
        #expect(shallow == MenuLayout(id: 0, properties: [:]))
        let (_, one) = try await client.call(DBusMenu.getLayout.call(on: menu, Int32(5), Int32(-1), ["label", "type"]))
        #expect(one == MenuLayout(id: 5, properties: ["label": Variant("Chapter list")]))
        let group = try await client.call(DBusMenu.getGroupProperties.call(on: menu, [Int32(2), 101, 77], ["label", "type"]))
        #expect(group == [MenuItemProperties(id: 2, properties: ["label": Variant("Continue reading")]),
                          MenuItemProperties(id: 101, properties: ["type": Variant("separator")])])
        #expect(try await client.call(DBusMenu.getProperty.call(on: menu, Int32(1), "enabled")) == Variant(false))
        #expect(try await client.call(DBusMenu.aboutToShow.call(on: menu, Int32(0))) == false)
        let (updates, errors) = try await client.call(DBusMenu.aboutToShowGroup.call(on: menu, [Int32(0), 2, 99]))
        #expect(updates.isEmpty && errors == [99])
        let unknown = try await #require(throws: DBusError.self) {
            try await self.client.call(DBusMenu.getLayout.call(on: menu, Int32(99), Int32(-1), [String]()))
        }
        #expect(unknown.name == DBusError.Name.invalidArgs)
        await #expect(throws: DBusError.self) { try await self.client.call(DBusMenu.aboutToShow.call(on: menu, Int32(99))) }

        // And with the stock tools: busctl walks the layout, gdbus reads a group.
        let busctl = try tool("busctl", "--user", "call", TrayHost.busName.rawValue, "/MenuBar", "com.canonical.dbusmenu",
                              "GetLayout", "iias", "--", "0", "-1", "1", "label")
        #expect(busctl.status == 0, "\(busctl)")
        #expect(busctl.stdout.hasPrefix("u(ia{sv}av) 2 0 0 6 (ia{sv}av) 1 1 \"label\" s \"Chapter 42: Vegeta & <Goku>__x"), "\(busctl.stdout)")
        #expect(busctl.stdout.contains("(ia{sv}av) 5 1 \"label\" s \"Chapter list\" 0"), "\(busctl.stdout)")
        let gdbus = try tool("gdbus", "call", "--session", "--dest", TrayHost.busName.rawValue, "--object-path", "/MenuBar",
                             "--method", "com.canonical.dbusmenu.GetGroupProperties", "[2, 3]", "['label']")
        #expect(gdbus.stdout == "([(2, {'label': <'Continue reading'>}), (3, {'label': <'Next chapter'>})],)\n", "\(gdbus)")
        tray.stop()
    }

    // MARK: Clicking

    @Test func activateAndTheMenuOpenChaptersThroughTheService() async throws {
        try watcher.start()
        try storeChapters42And43()
        let tray = try TrayHost(address: service.bus.address)
        try await readChapter42(tray, page: nil) // no page: nothing counts as new, no new pages' item
        let item = TrayHost.item, menu = TrayHost.menu

        try await client.call(StatusNotifierItem.activate.call(on: item, Int32(10), Int32(20)))
        #expect(try await openRequested(1).last == OpenRequest(chapter: 42, uri: "dbmultiverse://chapter/42"))
        // Continue reading, then the next chapter: clicked as libdbusmenu does (data int32 0).
        try await client.call(DBusMenu.event.call(on: menu, Int32(2), "clicked", Variant(Int32(0)), UInt32(1234)))
        #expect(try await openRequested(2).last == OpenRequest(chapter: 42, uri: "dbmultiverse://chapter/42"))
        #expect(try await client.call(DBusMenu.eventGroup.call(on: menu, [MenuEvent(id: 3, eventID: "clicked", data: Variant(Int32(0)), timestamp: 1)])).isEmpty)
        #expect(try await openRequested(3).last == OpenRequest(chapter: 43, uri: "dbmultiverse://chapter/43"))
        // With busctl, as a user would click it.
        let busctl = try tool("busctl", "--user", "call", TrayHost.busName.rawValue, "/MenuBar", "com.canonical.dbusmenu",
                              "Event", "isvu", "3", "clicked", "i", "0", "0")
        #expect(busctl.status == 0, "\(busctl)")
        #expect(try await openRequested(4).last == OpenRequest(chapter: 43, uri: "dbmultiverse://chapter/43"))

        // The chapter list opens no chapter (no OpenRequested), and the service takes the action.
        try await client.call(DBusMenu.event.call(on: menu, Int32(5), "clicked", Variant(Int32(0)), UInt32(0)))
        try await tray.wait(for: "the chapter list") { $0 == .requested(.openChapterList) }
        // Hovering, opening, the header and separators do nothing; an unknown item is an error.
        for (id, event) in [(Int32(2), "hovered"), (0, "opened"), (0, "closed"), (1, "clicked"), (101, "clicked")] {
            try await client.call(DBusMenu.event.call(on: menu, id, event, Variant(Int32(0)), UInt32(0)))
        }
        await #expect(throws: DBusError.self) {
            try await self.client.call(DBusMenu.event.call(on: menu, Int32(4), "clicked", Variant(Int32(0)), UInt32(0)))
        }
        let idErrors = try await client.call(DBusMenu.eventGroup.call(on: menu, [MenuEvent(id: 77, eventID: "clicked", data: Variant(""), timestamp: 0)]))
        #expect(idErrors == [77])
        // SecondaryActivate, Scroll and ContextMenu are harmless.
        try await client.call(StatusNotifierItem.secondaryActivate.call(on: item, Int32(0), Int32(0)))
        try await client.call(StatusNotifierItem.scroll.call(on: item, Int32(-3), "vertical"))
        try await client.call(StatusNotifierItem.contextMenu.call(on: item, Int32(0), Int32(0)))
        try await service.sync()
        #expect(try await openRequested(4).count == 4, "nothing else opened a chapter")
        tray.stop()
    }

    /// docs/notifications.md through the real service: pages published after a finished chapter make the item
    /// active and add "N new pages", which opens the first unread page (`open-page`).
    @Test func newPagesMakeItActiveAndTheirItemOpensTheFirstUnreadPage() async throws {
        try watcher.start()
        let tray = try TrayHost(address: service.bus.address)
        // Chapter 5 read to its last page, with the catalogue: finished and caught up, passive.
        try storeCatalogue(of: .small, in: service.folder.path)
        try await client.call(WidgetClient().updatePage(152, language: .english, chapter: 5, name: "The Tournament Goes On", progress: 100),
                              timeout: .seconds(10))
        let caughtUp = try await tray.wait(for: "the finished chapter") { $0.shownModel?.toolTipText.hasPrefix("Chapter 5:") == true }
        #expect(caughtUp.shownModel?.status == .passive)
        #expect(caughtUp.shownModel?.menu.contains { $0.role == .newPages } == false)

        try storeCatalogue(of: FixtureComic.small.publishing(3), in: service.folder.path)
        let published = try await tray.wait(for: "the new pages") { $0.shownModel?.status == .active }
        let item = try #require(published.shownModel?.menu.first { $0.role == .newPages })
        #expect(item.kind == .label("Read new pages") && item.action == .openPage(153))
        let status = try await client.call(StatusNotifierItem.status.get(from: TrayHost.item))
        #expect(status == "Active")

        try await client.call(DBusMenu.event.call(on: TrayHost.menu, item.id, "clicked", Variant(Int32(0)), UInt32(0)))
        #expect(try await openRequested(1).last == OpenRequest(chapter: 5, uri: "dbmultiverse://page/153"))
        tray.stop()
    }

    // MARK: Changes

    @Test func hostsAreToldWhatChangedWithNewStatusNewToolTipAndTheMenuSignals() async throws {
        try watcher.start()
        let tray = try TrayHost(address: service.bus.address)
        try await tray.wait(for: "the first entry") { $0.shownModel != nil }
        let signals = try await client.signals(MatchRule(sender: TrayHost.busName))
        func next(_ what: String) async throws -> String {
            let message = try await DBusTestSupport.next(signals, within: 10, what)
            return message.member.map { "\(message.interface ?? "").\($0) \(message.signature)" } ?? "?"
        }

        // Placeholder → chapter 42 at 35 %: active, another tooltip, other menu items.
        try await readChapter42(tray)
        #expect(try await next("NewStatus") == "org.kde.StatusNotifierItem.NewStatus s")
        #expect(try await next("NewToolTip") == "org.kde.StatusNotifierItem.NewToolTip ")
        #expect(try await next("LayoutUpdated") == "com.canonical.dbusmenu.LayoutUpdated ui")

        // Finished: passive, the same menu items with another header.
        try await client.call(WidgetClient().updateChapter(42, name: "Vegeta & <Goku>_x", progress: 100), timeout: .seconds(10))
        let status = try await DBusTestSupport.next(signals, within: 10, "NewStatus")
        #expect(status.member == "NewStatus")
        #expect(try status.decode(String.self) == "Passive")
        #expect(try await next("NewToolTip") == "org.kde.StatusNotifierItem.NewToolTip ")
        let properties = try await DBusTestSupport.next(signals, within: 10, "ItemsPropertiesUpdated")
        #expect(properties.member == "ItemsPropertiesUpdated")
        let (updated, removed) = try properties.decode([MenuItemProperties].self, [MenuItemRemovedProperties].self)
        #expect(updated == [MenuItemProperties(id: 1, properties: ["label": Variant("Chapter 42: Vegeta & <Goku>__x — 100% read")])])
        #expect(removed.isEmpty)

        // The same entry again (a requested reload): nothing to tell. The next signal is the next change's.
        try await client.call(WidgetClient().reloadTimelines(), timeout: .seconds(10))
        try await tray.wait(for: "the reload") { $0.shownModel?.status == .passive }
        try await client.call(WidgetClient().updateChapter(43, name: "Next", progress: 1), timeout: .seconds(10))
        let after = try await DBusTestSupport.next(signals, within: 10, "NewStatus")
        #expect(after.member == "NewStatus")
        #expect(try after.decode(String.self) == "Active")
        tray.stop()
    }
}

/// What each click asks of the service, with a stand-in for it that records the calls (the real
/// service is `TrayTests`' subject).
@Suite(.timeLimit(.minutes(10)), .holds(.privateBuses)) struct TrayActionTests {
    @Test func eachClickIsTheRightActionWithTheHostsActivationToken() async throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        // The stand-in answers GetCurrentEntry with the chapter it announces: the tray's first read
        // may be answered after the signal, and must not take it back to the placeholder.
        let application = try NotifierTestWidget(address: bus.address, current: NotifierTestWidget.entry(42))
        defer { application.stop() }
        let tray = try TrayHost(address: bus.address)
        try await application.reload("chapter-change", NotifierTestWidget.entry(42))
        try await tray.wait(for: "chapter 42") { $0.shownModel?.status == .active }
        let client = try await BusClient.connect(.address(bus.address))
        let item = TrayHost.item, menu = TrayHost.menu

        func click(_ id: Int32) async throws -> NotifierTestWidget.ActivationCall {
            try await client.call(DBusMenu.event.call(on: menu, id, "clicked", Variant(Int32(0)), UInt32(0)))
            return try await next(application.activations, within: 10, "the action of item \(id)")
        }
        #expect(try await click(2) == .init(action: "open-current", parameter: [], platformData: [:]))
        #expect(try await click(3) == .init(action: "open-chapter", parameter: [Variant(Int32(43))], platformData: [:]))
        #expect(try await click(5) == .init(action: "open-chapter-list", parameter: [], platformData: [:]))
        // The new pages' item, once the view offers it (new pages, and the first of them).
        try await application.reload("pages-published", NotifierTestWidget.entry(42, latestPage: 2450, newPages: 3))
        try await tray.wait(for: "the new pages") { $0.shownModel?.menu.contains { $0.role == .newPages } == true }
        #expect(try await click(4) == .init(action: "open-page", parameter: [Variant(Int32(2448))], platformData: [:]))
        // A host that hands over an activation token (Plasma) has it passed on, once.
        try await client.call(StatusNotifierItem.provideXdgActivationToken.call(on: item, "token-1"))
        try await client.call(StatusNotifierItem.activate.call(on: item, Int32(0), Int32(0)))
        #expect(try await next(application.activations, within: 10, "Activate")
                == .init(action: nil, parameter: [], platformData: ["activation-token": Variant("token-1")]))
        #expect(try await click(2) == .init(action: "open-current", parameter: [], platformData: [:]))
        tray.stop()
    }

    @Test func aServiceThatStartsLaterOrRestartsIsAskedForItsEntry() async throws {
        let bus = try PrivateBus()
        defer { bus.stop() }
        // No service yet: the tray keeps the placeholder.
        let tray = try TrayHost(address: bus.address)
        let first = try NotifierTestWidget(address: bus.address, current: NotifierTestWidget.entry(7, progress: 10))
        #expect(try await tray.wait(for: "chapter 7") { $0.shownModel?.toolTipText.hasPrefix("Chapter 7:") == true }.shownModel?.status == .active)
        first.stop()
        let second = try NotifierTestWidget(address: bus.address, current: NotifierTestWidget.entry(8, progress: 100))
        defer { second.stop() }
        #expect(try await tray.wait(for: "chapter 8") { $0.shownModel?.toolTipText.hasPrefix("Chapter 8:") == true }.shownModel?.status == .passive)
        tray.stop()
    }
}
