@testable import ComicDomain
import DBus
import DBusTestSupport
import DesktopTestSupport
@testable import Follower
import Widget
import Foundation
import Testing
import TestingTraits

/// The announcement of new pages (docs/notifications.md) end to end on a private bus, in `NotifierTests`'
/// setup: the real `Notifier` with its data folder, the recording notification server and a
/// stand-in widget service. Signals of one sender arrive in order, so "nothing was announced" is
/// shown by the rule's event for that entry, followed by a later notification that is the first
/// one the server recorded.
extension NotifierTests {
    /// The reader on chapter 42, page `latestPage - newPages`.
    static func reading(latestPage: Int, newPages: Int, chapter: Int = 42, name: String = "Universe 18") -> ChapterEntry {
        NotifierTestWidget.entry(chapter, name: name, progress: 35, latestPage: latestPage, newPages: newPages)
    }

    func decided(_ decision: PageAnnouncements.Decision, _ latestPage: Int) async throws {
        _ = try await notifier.wait(for: "the rule's \(decision) for page \(latestPage)") { $0 == .newPages(decision, latestPage: latestPage) }
    }

    @Test func pagesPublishedAreAnnouncedOncePerLatestPage() async throws {
        try server.start()
        try await widget.reload("pages-published", Self.reading(latestPage: 984, newPages: 4, name: "Goku & <Vegeta>"))
        let first = try await nextNotify("the announcement")
        let request = first.request
        #expect(request.appName == "DBMultiverse" && request.appIcon == "com.nobadi.DBMultiverse")
        #expect(request.replacesID == 0)
        #expect(request.summary == "4 new pages")
        #expect(request.body == "After Chapter 42: Goku &amp; &lt;Vegeta&gt;")
        #expect(request.actions == ["default", "Read new pages"]) // the view's one wording of the action
        #expect(request.expireTimeout == -1)
        #expect(request.hints == [
            "desktop-entry": Variant("com.nobadi.DBMultiverse"), "category": Variant("x-dbmultiverse.pages.published"),
            "urgency": Variant(UInt8(1)), "x-dunst-stack-tag": Variant("dbmultiverse-new-pages"),
            "x-canonical-private-synchronous": Variant("dbmultiverse-new-pages"),
        ])
        let id = try #require(first.returnedID)
        _ = try await notifier.wait(for: "announced") { $0 == .announced(id: id) }

        // The same latest page again (the reader read on, the service restarted): nothing.
        try await widget.reload("pages-published", Self.reading(latestPage: 984, newPages: 2))
        try await decided(.nothing, 984)
        try await widget.reload("chapter-change", Self.reading(latestPage: 984, newPages: 1, chapter: 43))
        let chapter = try await nextNotify("the chapter notification")
        #expect(chapter.request.summary == "Chapter 43: Universe 18")
        #expect(chapter.request.replacesID == 0, "the chapter chain is not the announcement's")
        #expect(chapter.returnedID != id)

        // A later page replaces the announcement in place.
        try await widget.reload("pages-published", Self.reading(latestPage: 985, newPages: 1, chapter: 43))
        let second = try await nextNotify("the second announcement")
        #expect(second.request.summary == "1 new page")
        #expect(second.request.body == "After Chapter 43: Universe 18")
        #expect(second.request.replacesID == id)
        #expect(server.calls.count == 3)
        #expect(try jsonObject(at: notifier.folder + "/announcedPages.json")["latestPage"] as? Int == 985)
        #expect(try FileManager.default.attributesOfItem(atPath: notifier.folder + "/announcedPages.json")[.posixPermissions] as? Int == 0o600)
    }

    /// docs/notifications.md: when the reader catches up, the announcement is taken down (CloseNotification),
    /// and the next one is a new notification, not a replacement of the closed one.
    @Test func theAnnouncementIsClosedWhenTheReaderCatchesUp() async throws {
        try server.start()
        try await widget.reload("pages-published", Self.reading(latestPage: 984, newPages: 4))
        let id = try #require(try await nextNotify("the announcement").returnedID)
        // Reading on without catching up (a progress reload) leaves it standing…
        try await widget.reload("progress-change", Self.reading(latestPage: 984, newPages: 2))
        // …and the last page read takes it down.
        try await widget.reload("progress-change", Self.reading(latestPage: 984, newPages: 0))
        _ = try await notifier.wait(for: "the announcement withdrawn") { $0 == .withdrew(id: id) }
        try await widget.reload("chapter-change", Self.reading(latestPage: 984, newPages: 0, chapter: 43))
        _ = try await nextNotify("the chapter notification") // CloseNotification went before it, on the same connection
        #expect(server.closed == [id])
        try await widget.reload("pages-published", Self.reading(latestPage: 990, newPages: 6, chapter: 43))
        let next = try await nextNotify("the next announcement")
        #expect(next.request.summary == "6 new pages" && next.request.replacesID == 0)
    }

    /// In a special, or with no catalogue, nothing says the new pages were read: the announcement stays.
    @Test func theAnnouncementStaysWhileNothingSaysThePagesWereRead() async throws {
        try server.start()
        try await widget.reload("pages-published", Self.reading(latestPage: 984, newPages: 4))
        let id = try #require(try await nextNotify("the announcement").returnedID)
        try await widget.reload("chapter-change", NotifierTestWidget.entry(1, universe: 3, latestPage: 984, newPages: 0))
        try await widget.reload("requested", NotifierTestWidget.entry(42, latestPage: 0, newPages: 0))
        try await widget.reload("chapter-change", Self.reading(latestPage: 984, newPages: 4, chapter: 44))
        _ = try await nextNotify("the special's chapter notification")
        _ = try await nextNotify("chapter 44's notification")
        #expect(server.closed.isEmpty, "announcement \(id) still stands")
    }

    @Test func nothingWhenCaughtUpNorForPagesTheReaderHasPassed() async throws {
        try server.start()
        try await widget.reload("pages-published", Self.reading(latestPage: 990, newPages: 0))
        try await decided(.remembered, 990)
        // Back to an earlier chapter: pages up to 990 are unread again, but the reader has passed them.
        try await widget.reload("chapter-change", Self.reading(latestPage: 990, newPages: 50, chapter: 40))
        try await decided(.nothing, 990)
        let first = try await nextNotify()
        #expect(first.request.summary == "Chapter 40: Universe 18")
        #expect(server.calls.count == 1)
    }

    @Test func aRollbackOrAnOldPageAnnouncesNothing() async throws {
        try server.start()
        try await widget.reload("pages-published", Self.reading(latestPage: 990, newPages: 3))
        #expect(try await nextNotify().request.summary == "3 new pages")
        try await widget.reload("requested", Self.reading(latestPage: 980, newPages: 0)) // the site rolled back
        try await widget.reload("pages-published", Self.reading(latestPage: 985, newPages: 2)) // and grows again
        try await decided(.nothing, 985)
        try await widget.reload("pages-published", Self.reading(latestPage: 991, newPages: 1))
        let next = try await nextNotify()
        #expect(next.request.summary == "1 new page")
        #expect(server.calls.count == 2)
    }

    @Test func otherReasonsSpecialsAndBadCountsAnnounceNothing() async throws {
        try server.start()
        for reason in ["requested", "progress-change", "periodic"] {
            try await widget.reload(reason, Self.reading(latestPage: 984, newPages: 4))
        }
        try await widget.reload("pages-published", NotifierTestWidget.entry(1, universe: 3, latestPage: 984, newPages: 0))
        try await widget.reload("pages-published", Self.reading(latestPage: 984, newPages: -1))
        try await widget.reload("pages-published", Self.reading(latestPage: 984, newPages: 984))
        for _ in 0..<3 { try await decided(.nothing, 984) }
        // Those reasons did not count the page as dealt with: it is announced when published.
        try await widget.reload("pages-published", Self.reading(latestPage: 984, newPages: 4))
        let pages = try await nextNotify()
        #expect(pages.request.summary == "4 new pages")
        #expect(server.calls.count == 1)
    }

    /// A chapter change is the reader reading: the chapter notification only, and its latest page
    /// is not announced later either (the reader is on the site and sees the count).
    @Test func aChapterChangeWithUnreadPagesIsNoAnnouncement() async throws {
        try server.start()
        try await widget.reload("chapter-change", Self.reading(latestPage: 984, newPages: 4, chapter: 5))
        try await decided(.remembered, 984)
        try await widget.reload("pages-published", Self.reading(latestPage: 984, newPages: 4, chapter: 5))
        try await decided(.nothing, 984)
        try await widget.reload("pages-published", Self.reading(latestPage: 986, newPages: 6, chapter: 5))
        let chapter = try await nextNotify()
        #expect(chapter.request.summary == "Chapter 5: Universe 18")
        let pages = try await nextNotify()
        #expect(pages.request.summary == "6 new pages" && pages.request.body == "After Chapter 5: Universe 18")
        #expect(server.calls.count == 2)
    }

    /// An announcement waiting for a notification server is dropped once the reader caught up.
    @Test func anAnnouncementKeptForAServerIsDroppedWhenTheReaderCatchesUp() async throws {
        try await widget.reload("pages-published", Self.reading(latestPage: 984, newPages: 4))
        _ = try await notifier.wait(for: "no server") { $0 == .serverMissing }
        try await widget.reload("pages-published", Self.reading(latestPage: 986, newPages: 0))
        try await decided(.remembered, 986)
        try server.start()
        let owner = try #require(server.uniqueName)
        _ = try await notifier.wait(for: "the server") { $0 == .serverChanged(owner: owner) }
        try await widget.reload("chapter-change", Self.reading(latestPage: 986, newPages: 0, chapter: 43))
        #expect(try await nextNotify().request.summary == "Chapter 43: Universe 18")
        #expect(server.calls.count == 1)
    }

    @Test func readNowOpensTheFirstUnreadPageWithTheActivationToken() async throws {
        try server.start()
        try await widget.reload("pages-published", Self.reading(latestPage: 984, newPages: 4))
        let id = try #require(try await nextNotify().returnedID)
        try await server.emit(.actionInvoked(id: id, actionKey: "something-else"))
        try await server.emit(.activationToken(id: id, token: "tok"))
        try await server.emit(.actionInvoked(id: id, actionKey: "default"))
        let activation = try await next(widget.activations, within: 10, "ActivateAction")
        #expect(activation == NotifierTestWidget.ActivationCall(action: "open-page", parameter: [Variant(Int32(981))],
                                                                platformData: ["activation-token": Variant("tok")]))
        _ = try await notifier.wait(for: "activated") { $0 == .activated(.openPage(981), token: "tok") }
    }

    @Test func closingOneNotificationForgetsOnlyItsID() async throws {
        try server.start()
        try await widget.reload("chapter-change", Self.reading(latestPage: 984, newPages: 0))
        let chapterID = try #require(try await nextNotify("the chapter notification").returnedID)
        try await widget.reload("pages-published", Self.reading(latestPage: 985, newPages: 1))
        let pagesID = try #require(try await nextNotify("the announcement").returnedID)
        #expect(chapterID != pagesID)
        try await server.emit(.notificationClosed(id: pagesID, reason: .dismissed))
        _ = try await notifier.wait(for: "forgot the announcement") { $0 == .forgot(id: pagesID) }
        try await widget.reload("chapter-change", Self.reading(latestPage: 985, newPages: 0, chapter: 43))
        let chapter = try await nextNotify()
        #expect(chapter.request.replacesID == chapterID)
        try await widget.reload("pages-published", Self.reading(latestPage: 987, newPages: 2, chapter: 43))
        let pages = try await nextNotify()
        #expect(pages.request.replacesID == 0 && pages.request.summary == "2 new pages")

        try await server.emit(.notificationClosed(id: chapterID, reason: .expired))
        _ = try await notifier.wait(for: "forgot the chapter notification") { $0 == .forgot(id: chapterID) }
        try await widget.reload("pages-published", Self.reading(latestPage: 988, newPages: 3, chapter: 43))
        #expect(try await nextNotify().request.replacesID == pages.returnedID, "the announcement's chain goes on")
    }

    @Test func withoutActionsCapabilityThereIsNoReadNow() async throws {
        server.capabilities = ["body"]
        try server.start()
        try await widget.reload("pages-published", Self.reading(latestPage: 984, newPages: 4))
        #expect(try await nextNotify().request.actions == [])
    }
}

/// What the notifier finds at start and across its restarts, with the data folder it remembers in.
@Suite(.timeLimit(.minutes(10)), .holds(.privateBuses)) struct NewPagesRestartTests {
    @Test func theEntryAtStartIsAnnouncedOnceAcrossRestarts() async throws {
        let bus = try PrivateBus()
        let server = FakeNotificationServer(address: bus.address)
        try server.start()
        let widget = try NotifierTestWidget(address: bus.address, current: NotifierTests.reading(latestPage: 984, newPages: 4))
        let folder = try makeTemporaryDirectory("dbm-notifier")
        defer { try? FileManager.default.removeItem(atPath: folder) }

        let first = try NotifierHost(address: bus.address, folder: folder)
        let call = try await next(server.notifyCalls, within: 10, "the announcement at start")
        #expect(call.request.summary == "4 new pages")
        first.stop()

        let second = try NotifierHost(address: bus.address, folder: folder)
        _ = try await second.wait(for: "the entry at start, already announced") { $0 == .newPages(.nothing, latestPage: 984) }
        second.stop()
        #expect(server.calls.count == 1)

        // A corrupt file is taken as nothing announced: the page is announced again, once.
        try Data("{\"latestPage\": \"many\"}".utf8).write(to: URL(fileURLWithPath: folder + "/announcedPages.json"))
        let third = try NotifierHost(address: bus.address, folder: folder)
        _ = try await third.wait(for: "announced again") { if case .announced = $0 { return true } else { return false } }
        third.stop()
        #expect(server.calls.count == 2)
        #expect(try jsonObject(at: folder + "/announcedPages.json")["latestPage"] as? Int == 984)
        widget.stop()
        server.stop()
        bus.stop()
    }

    @Test func aServiceThatStartsLaterIsAskedForItsEntry() async throws {
        let bus = try PrivateBus()
        let server = FakeNotificationServer(address: bus.address)
        try server.start()
        let notifier = try NotifierHost(address: bus.address)
        let widget = try NotifierTestWidget(address: bus.address, current: NotifierTests.reading(latestPage: 984, newPages: 4))
        let call = try await next(server.notifyCalls, within: 10, "the announcement when the service appears")
        #expect(call.request.summary == "4 new pages")
        notifier.stop()
        widget.stop()
        server.stop()
        bus.stop()
    }
}

/// The new-pages rule and its file, without a bus.
@Suite(.timeLimit(.minutes(1))) struct PageAnnouncementsTests {
    @Test func theRule() {
        var rule = PageAnnouncements()
        func reading(_ latestPage: Int, _ newPages: Int) -> ChapterEntry {
            NotifierTests.reading(latestPage: latestPage, newPages: newPages)
        }
        #expect(rule.consider(.placeholder(family: .medium, date: 0)) == .nothing)
        #expect(rule.consider(reading(0, 0)) == .nothing, "no catalogue known")
        #expect(rule.consider(reading(984, 4)) == .announce)
        #expect(rule.consider(reading(984, 4)) == .nothing)
        #expect(rule.consider(reading(980, 2)) == .nothing, "a rollback")
        #expect(rule.consider(reading(990, 0)) == .remembered, "caught up")
        #expect(rule.consider(reading(990, 9)) == .nothing, "passed")
        #expect(rule.consider(NotifierTestWidget.entry(1, universe: 3, latestPage: 995, newPages: 0)) == .nothing, "a special")
        #expect(rule.consider(reading(995, -3)) == .nothing)
        #expect(rule.consider(reading(995, 995)) == .nothing)
        #expect(rule.consider(reading(100_000, 1)) == .nothing)
        #expect(rule.latestPage == 990)
        #expect(rule.consider(reading(992, 2), reading: true) == .remembered, "a chapter change")
        #expect(rule.consider(reading(992, 2)) == .nothing)
        #expect(rule.consider(reading(995, 1)) == .announce)
    }

    @Test func theFileRoundTripsAndBadContentIsRejected() throws {
        let rule = PageAnnouncements(latestPage: 984)
        #expect(String(decoding: rule.encodeJSON(), as: UTF8.self) == #"{"latestPage":984}"#)
        #expect(try PageAnnouncements.decode(rule.encodeJSON()) == rule)
        for bad in ["", "[]", "{}", #"{"latestPage":0}"#, #"{"latestPage":"984"}"#, #"{"latestPage":1e3}"#, #"{"latestPage":984"#] {
            #expect(throws: ComicError.self, "\(bad)") { try PageAnnouncements.decode(Array(bad.utf8)) }
        }
    }

    @Test func theRequestsSingularAndPlural() {
        #expect(PagesNotification.request(published: NotifierTests.reading(latestPage: 984, newPages: 1), replacing: 0, capabilities: []).summary == "1 new page")
        #expect(PagesNotification.request(published: NotifierTests.reading(latestPage: 984, newPages: 12), replacing: 7, capabilities: ["actions"]).summary == "12 new pages")
        let chapter = ChapterNotification.request(published: NotifierTestWidget.entry(42, progress: 140), replacing: 0, capabilities: [])
        #expect(chapter.hints["value"] == Variant(Int32(100)), "clamped to the spec's 0…100")
    }
}
