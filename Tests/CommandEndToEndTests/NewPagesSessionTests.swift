import ComicDomain
import DBus
import DBusTestSupport
import DesktopTestSupport
import EndToEndSupport
import Widget
import Follower
import Foundation
import SiteTestSupport
import Testing
import TestingTraits

/// Issue 14's session end to end: pages published on the fixture site → `dbmultiverse sync` →
/// the service's `pages-published` → the notifier's announcement as the recording server got it
/// → its action → the page opened by the real service (opener `none`: only `OpenRequested`).
/// The built binary is the command and the service (D-Bus activation); the notifier is the real
/// `Notifier` in-process, remembering in the service's data folder.
@Suite(.timeLimit(.minutes(10)), .holds(.desktopSession), .holds(.privateBuses), .offThePool, .enabled(if: FileManager.default.isExecutableFile(atPath: Binary.dbmultiverse)))
struct NewPagesSessionTests {
    /// The page commands' set-up (the built binary, the activatable service, the fixture site), a
    /// recording notification server, the service's OpenRequested signals and the real notifier
    /// following the service; the caller stops the notifier and the server.
    func session() async throws -> (PageSession, FakeNotificationServer, AsyncStream<Message>, NotifierHost) {
        let setup = try await PageSession()
        let server = FakeNotificationServer(address: setup.service.bus.address)
        try server.start()
        let opens = try await setup.client.signals(MatchRule(path: WidgetBus.objectPath, interface: Widget1.name, member: "OpenRequested"))
        do {
            return (setup, server, opens, try NotifierHost(address: setup.service.bus.address, folder: setup.service.folder))
        } catch {
            server.stop()
            throw error
        }
    }

    @Test func publishedPagesAreAnnouncedAndReadNowOpensTheFirstUnreadPage() async throws {
        let (setup, server, opens, notifier) = try await session()
        defer { notifier.stop(); server.stop() }

        // The reader on page 140 of chapter 5 (of 152): the chapter notification only.
        #expect(try setup.cli("update", "--page", "140").status == 0)
        #expect(try await setup.nextReload("the chapter-change").reason == "chapter-change")
        let chapter = try await next(server.notifyCalls, within: 10, "the chapter notification")
        #expect(chapter.request.summary == "Chapter 5: The Tournament Goes On")
        #expect(chapter.request.hints["value"] == Variant(Int32(50)))
        _ = try await notifier.wait(for: "page 152 taken as read on") { $0 == .newPages(.remembered, latestPage: 152) }

        // Three pages published, then the timer's sync.
        setup.site.publish(FixtureComic.small.publishing(3))
        let sync = try setup.cli("sync")
        #expect(sync.status == 0 && sync.stdout == "en: 8 chapters, pages 1–152, latest page 155 (3 new pages)\n", "\(sync)")
        let reload = try await setup.nextReload("pages-published")
        #expect(reload.reason == "pages-published")
        #expect(try reload.entry.value("latest-page", Int32.self) == 155 && reload.entry.value("new-pages", Int32.self) == 15)
        #expect(try setup.cli("entry", "--family", "small").stdout == "Ch. 5 · 50% · 15 new\n")

        let announcement = try await next(server.notifyCalls, within: 10, "the announcement")
        #expect(announcement.request.summary == "15 new pages")
        #expect(announcement.request.body == "After Chapter 5: The Tournament Goes On")
        #expect(announcement.request.actions == ["default", "Read new pages"])
        #expect(announcement.request.replacesID == 0)
        #expect(announcement.request.hints["category"] == Variant("x-dbmultiverse.pages.published"))
        #expect(announcement.request.hints["x-dunst-stack-tag"] == Variant("dbmultiverse-new-pages"))
        let id = try #require(announcement.returnedID)
        #expect(id != chapter.returnedID)

        // "Read new pages": the first unread page, 141, of chapter 5.
        try await server.emit(.activationToken(id: id, token: "session-token"))
        try await server.emit(.actionInvoked(id: id, actionKey: "default"))
        let opened = try await next(opens, within: 10, "OpenRequested")
        let (openedChapter, openedLink) = try opened.decode(Int32.self, String.self)
        #expect(openedChapter == 5 && openedLink == "dbmultiverse://page/141")
        _ = try await notifier.wait(for: "the action") { $0 == .activated(.openPage(141), token: "session-token") }

        // Issue 14's race: the reader reads past the catalogue's end (page 158, published but not
        // synced). The page's one route is the call: its reload already counts page 158 as the
        // latest (the page read), so nothing is announced, and the newer list stored after it adds
        // nothing.
        setup.site.publish(FixtureComic.small.publishing(6))
        let past = try setup.cli("update", "--page", "158")
        #expect(past.status == 0, "\(past)")
        let decided = try await notifier.wait(for: "the rule's decision on page 158") {
            if case .newPages(_, latestPage: 158) = $0 { return true } else { return false }
        }
        #expect(decided == .newPages(.remembered, latestPage: 158), "the reader is caught up: nothing to announce")
        #expect(try setup.property("LatestPage", "NewPages") == "i 158\ni 0\n")
        // One more reload from the service after the catalogue's: the notifier handled it in order.
        #expect(try setup.cli("update", "--chapter", "6", "--name", "After the race", "--progress", "1").status == 0)
        let last = try await next(server.notifyCalls, within: 10, "the next chapter notification")
        #expect(last.request.summary == "Chapter 6: After the race")
        #expect(server.calls.map(\.request.summary) == ["Chapter 5: The Tournament Goes On", "15 new pages", "Chapter 6: After the race"])
    }

    /// In a special (universe 3, chapter 2 of the small comic: pages 107–116), the chapter
    /// notification's "Continue reading" is the view's open-current: the real service opens the
    /// special's page link, not the main story's chapter 2.
    @Test func inASpecialContinueReadingOpensThePageLink() async throws {
        let (setup, server, opens, notifier) = try await session()
        defer { notifier.stop(); server.stop() }

        #expect(try setup.cli("update", "--page", "110").status == 0)
        #expect(try await setup.nextReload("the chapter-change").reason == "chapter-change")
        #expect(try setup.cli("entry", "--format", "json").stdout.contains(#""title":"Special Universe 3 · Chapter 2""#))
        let notification = try await next(server.notifyCalls, within: 10, "the chapter notification")
        #expect(notification.request.actions == ["default", "Continue reading"])
        let id = try #require(notification.returnedID)
        try await server.emit(.actionInvoked(id: id, actionKey: "default"))
        _ = try await notifier.wait(for: "Continue reading") { $0 == .activated(.openCurrent, token: nil) }
        let opened = try await next(opens, within: 10, "OpenRequested")
        let (openedChapter, openedLink) = try opened.decode(Int32.self, String.self)
        #expect(openedLink == "dbmultiverse://page/110", "the special's page, not dbmultiverse://chapter/2")
        #expect(openedChapter == 0, "no main-story chapter holds a special's page")
    }
}
