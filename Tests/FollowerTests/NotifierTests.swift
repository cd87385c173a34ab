@testable import ComicDomain
import DBus
import DBusTestSupport
import DesktopTestSupport
@testable import Follower
import Testing
import TestingTraits

/// The notifier (docs/notifications.md) end to end on a private bus: the real `Notifier` on its own loop
/// thread, a fake notification server, and a stand-in widget service emitting `TimelinesReloaded`.
/// Every wait is bounded; nothing sleeps: signals from different connections are ordered by a
/// round trip to the bus daemon after each emission.
@Suite(.timeLimit(.minutes(10)), .holds(.privateBuses)) struct NotifierTests {
    let bus: PrivateBus
    let server: FakeNotificationServer
    let widget: NotifierTestWidget
    let notifier: NotifierHost

    init() throws {
        bus = try PrivateBus()
        server = FakeNotificationServer(address: bus.address)
        widget = try NotifierTestWidget(address: bus.address)
        notifier = try NotifierHost(address: bus.address)
    }

    func nextNotify(_ what: String = "a Notify call") async throws -> FakeNotificationServer.NotifyCall {
        try await next(server.notifyCalls, within: 10, what)
    }

    @Test func notifySendsExactlyTheContractsArguments() async throws {
        try server.start()
        let entry = NotifierTestWidget.entry(42, name: "Goku & <Vegeta>", progress: 35,
                                             imagePath: "/tmp/dbm data/covers/cover ß#1.jpg")
        try await widget.reload("chapter-change", entry)
        let call = try await nextNotify()
        let request = call.request
        #expect(request.appName == "DBMultiverse")
        #expect(request.replacesID == 0)
        #expect(request.appIcon == "com.nobadi.DBMultiverse")
        #expect(request.summary == "Chapter 42: Goku & <Vegeta>") // the summary is plain text
        #expect(request.body == "35% read")
        #expect(request.actions == ["default", "Continue reading"])
        #expect(request.expireTimeout == -1)
        #expect(Set(request.hints.keys) == ["image-path", "desktop-entry", "category", "urgency", "value",
                                            "x-dunst-stack-tag", "x-canonical-private-synchronous"])
        #expect(request.hints["value"] == Variant(Int32(35)))
        #expect(request.hints["value"]?.value.signature.rawValue == "i")
        #expect(request.hints["x-dunst-stack-tag"] == Variant("dbmultiverse-chapter"))
        #expect(request.hints["x-canonical-private-synchronous"] == Variant("dbmultiverse-chapter"))
        #expect(request.hints["urgency"] == Variant(UInt8(1)))
        #expect(request.hints["urgency"]?.value.signature.rawValue == "y")
        #expect(request.hints["image-path"] == Variant("file:///tmp/dbm%20data/covers/cover%20%C3%9F%231.jpg"))
        #expect(request.hints["desktop-entry"] == Variant("com.nobadi.DBMultiverse"))
        #expect(request.hints["category"] == Variant("x-dbmultiverse.chapter.changed"))
        #expect(call.returnedID == 1)
        _ = try await notifier.wait(for: "notified") { $0 == .notified(id: 1) }
    }

    @Test func anEntryWithoutCoverHasNoImageHint() async throws {
        try server.start()
        try await widget.reload("chapter-change", NotifierTestWidget.entry(7, imagePath: ""))
        let request = try await nextNotify().request
        #expect(request.hints["image-path"] == nil)
        #expect(request.summary == "Chapter 7: Universe 18")
    }

    /// A reading the sync folder brought from another computer (docs/sync.md): the chapter change
    /// says where it was read, once; the progress steps that follow from there say nothing.
    @Test func aReadingFromAnotherComputerSaysWhereItWasRead() async throws {
        try server.start()
        var entry = NotifierTestWidget.entry(50, progress: 10)
        entry.continuedOn = "Laptop"
        try await widget.reload("chapter-change", entry)
        let continued = try await nextNotify()
        #expect(continued.request.summary == "Continued on Laptop: Chapter 50")
        #expect(continued.request.body == "10% read")
        entry.progress = 40
        try await widget.reload("progress-change", entry)
        // A later chapter replaces a notification still waiting to be sent: wait for the first.
        try await widget.reload("chapter-change", NotifierTestWidget.entry(51, progress: 0))
        #expect(try await nextNotify().request.summary == "Chapter 51: Universe 18", "read here: the usual words")
        #expect(server.calls.count == 2)
    }

    @Test func onlyChapterChangesToARealChapterNotify() async throws {
        try server.start()
        try await widget.reload("progress-change", NotifierTestWidget.entry(42, progress: 60))
        try await widget.reload("requested", NotifierTestWidget.entry(42, progress: 60))
        try await widget.reload("periodic", NotifierTestWidget.entry(42, progress: 60))
        try await widget.reload("chapter-change",
                                NotifierTestWidget.entry(1, name: ChapterEntry.placeholderName, progress: 0, placeholder: true))
        try await widget.reload("chapter-change", NotifierTestWidget.entry(43, progress: 5))
        // Signals from one sender arrive in order: had any earlier one notified, it would be first.
        let first = try await nextNotify()
        #expect(first.request.summary == "Chapter 43: Universe 18")
        #expect(first.request.body == "5% read")
        #expect(server.calls.count == 1)
    }

    @Test func oneNotificationStandsUntilTheServerClosesIt() async throws {
        try server.start()
        try await widget.reload("chapter-change", NotifierTestWidget.entry(42))
        let first = try await nextNotify()
        #expect(first.request.replacesID == 0)
        let id = try #require(first.returnedID)

        try await widget.reload("chapter-change", NotifierTestWidget.entry(43))
        let second = try await nextNotify()
        #expect(second.request.replacesID == id)
        #expect(second.returnedID == id)

        try await server.emit(.notificationClosed(id: id + 100, reason: .dismissed)) // not ours: ignored
        try await server.emit(.notificationClosed(id: id, reason: .dismissed))
        _ = try await notifier.wait(for: "the notifier to forget its id") { $0 == .forgot(id: id) }
        try await widget.reload("chapter-change", NotifierTestWidget.entry(44))
        let third = try await nextNotify()
        #expect(third.request.replacesID == 0)
        #expect(third.returnedID == id + 1)
    }

    @Test func withoutActionsCapabilityThereAreNoActions() async throws {
        server.capabilities = ["body"] // neither actions nor body-markup
        try server.start()
        try await widget.reload("chapter-change", NotifierTestWidget.entry(42, name: "A < B & C > D", progress: 100))
        let request = try await nextNotify().request
        #expect(request.actions == [])
        #expect(request.summary == "Chapter 42: A < B & C > D")
        #expect(request.body == "100% read")
        #expect(server.getCapabilitiesCount == 1)
    }

    @Test func clickingOpensTheChapterWithTheActivationToken() async throws {
        try server.start()
        try await widget.reload("chapter-change", NotifierTestWidget.entry(42))
        let id = try #require(try await nextNotify().returnedID)
        // None of these may open anything: another notification's token and click, another action.
        try await server.emit(.activationToken(id: id + 1, token: "wrong"))
        try await server.emit(.actionInvoked(id: id + 1, actionKey: "default"))
        try await server.emit(.actionInvoked(id: id, actionKey: "something-else"))
        try await server.emit(.activationToken(id: id, token: "tok"))
        try await server.emit(.actionInvoked(id: id, actionKey: "default"))
        // Continue reading is the view's open-current: the service opens its entry's deep link.
        let activation = try await next(widget.activations, within: 10, "Application.ActivateAction")
        #expect(activation == NotifierTestWidget.ActivationCall(action: "open-current", parameter: [],
                                                                platformData: ["activation-token": Variant("tok")]))
    }

    @Test func clickingWithoutATokenOpensWithEmptyPlatformData() async throws {
        try server.start()
        try await widget.reload("chapter-change", NotifierTestWidget.entry(42))
        let id = try #require(try await nextNotify().returnedID)
        try await widget.reload("chapter-change", NotifierTestWidget.entry(57))
        #expect(try await nextNotify().returnedID == id)
        try await server.emit(.actionInvoked(id: id, actionKey: "default"))
        let activation = try await next(widget.activations, within: 10, "Application.ActivateAction")
        #expect(activation == NotifierTestWidget.ActivationCall(action: "open-current", parameter: [], platformData: [:]))
    }

    @Test func aServerThatAppearsLaterGetsTheLatestChapter() async throws {
        try await widget.reload("chapter-change", NotifierTestWidget.entry(42))
        _ = try await notifier.wait(for: "no server") { $0 == .serverMissing }
        try await widget.reload("chapter-change", NotifierTestWidget.entry(43))
        _ = try await notifier.wait(for: "still no server") { $0 == .serverMissing }
        try server.start()
        let call = try await nextNotify("the Notify kept for the new server")
        #expect(call.request.summary == "Chapter 43: Universe 18")
        #expect(call.request.replacesID == 0)
        #expect(server.calls.count == 1)
    }

    @Test func aRestartedServerGetsANewNotificationAndIsAskedAgain() async throws {
        try server.start()
        try await widget.reload("chapter-change", NotifierTestWidget.entry(42))
        let first = try await nextNotify()
        #expect(first.request.actions == ["default", "Continue reading"])
        #expect(first.returnedID == 1)

        server.stop()
        server.capabilities = ["body"]
        try server.start()
        let owner = try #require(server.uniqueName)
        _ = try await notifier.wait(for: "the new server") { $0 == .serverChanged(owner: owner) }
        try await widget.reload("chapter-change", NotifierTestWidget.entry(43))
        let second = try await nextNotify()
        #expect(second.server == owner)
        #expect(second.request.replacesID == 0) // the old id meant nothing to the new server
        #expect(second.request.actions == []) // its capabilities were read again
        #expect(server.getCapabilitiesCount == 2)
    }

    @Test func aNotifyErrorNeverStopsTheNotifier() async throws {
        try server.start()
        server.failNextNotify(with: DBusError(name: "org.example.Notifications.Error.Busy", message: "try later"))
        try await widget.reload("chapter-change", NotifierTestWidget.entry(42))
        let failed = try await nextNotify()
        #expect(failed.returnedID == nil)
        _ = try await notifier.wait(for: "the failure") {
            if case .notifyFailed(let error) = $0 { return error.name == "org.example.Notifications.Error.Busy" }
            return false
        }
        try await widget.reload("chapter-change", NotifierTestWidget.entry(43))
        let next = try await nextNotify()
        #expect(next.request.summary == "Chapter 43: Universe 18")
        #expect(next.request.replacesID == 0)
        #expect(next.returnedID == 1)
    }

    @Test func aRestartedWidgetServiceIsStillFollowed() async throws {
        try server.start()
        widget.stop()
        let restarted = try NotifierTestWidget(address: bus.address)
        try await restarted.reload("chapter-change", NotifierTestWidget.entry(99))
        #expect(try await nextNotify().request.summary == "Chapter 99: Universe 18")
    }
}

/// The request builder and the typed client's value types, without a bus.
@Suite(.timeLimit(.minutes(10)), .holds(.privateBuses)) struct ChapterNotificationTests {
    @Test func fileURIsPercentEncodeWhatAURINeeds() {
        #expect(ChapterNotification.fileURI(forPath: "/home/u/.local/share/dbmultiverse/chapterCoverImage.jpg")
                == "file:///home/u/.local/share/dbmultiverse/chapterCoverImage.jpg")
        #expect(ChapterNotification.fileURI(forPath: "/a b/c%d?e#f") == "file:///a%20b/c%25d%3Fe%23f")
        #expect(ChapterNotification.fileURI(forPath: "/é") == "file:///%C3%A9")
        #expect(ChapterNotification.fileURI(forPath: "") == nil)
        #expect(ChapterNotification.fileURI(forPath: "relative/cover.jpg") == nil)
    }

    /// Issue 30, defect 5: the body was escaped for every server, so one without `body-markup`
    /// (which shows the body as plain text) showed `&lt;b&gt;`. Escaped only for servers that
    /// take markup.
    @Test func theBodyIsEscapedOnlyForServersThatTakeMarkup() {
        let entry = NotifierTestWidget.entry(42, name: "<b>Bold</b> & co", progress: 35, latestPage: 984, newPages: 3)
        for capabilities: Set<String> in [[], ["body"], ["body", "body-markup"], ["actions", "body-markup"]] {
            let markup = capabilities.contains("body-markup")
            let pages = PagesNotification.request(published: entry, replacing: 0, capabilities: capabilities)
            #expect(pages.body == (markup ? "After Chapter 42: &lt;b&gt;Bold&lt;/b&gt; &amp; co" : "After Chapter 42: <b>Bold</b> & co"),
                    "\(capabilities)")
            let request = ChapterNotification.request(published: entry, replacing: 3, capabilities: capabilities)
            #expect(request.body == "35% read")
            #expect(request.summary == "Chapter 42: <b>Bold</b> & co")
            #expect(request.replacesID == 3)
            #expect(request.actions == (capabilities.contains("actions") ? ["default", "Continue reading"] : []))
        }
    }

    @Test func theNotifyCallCarriesTheRequestInWireOrder() throws {
        let request = NotificationRequest(appName: "a", replacesID: 9, appIcon: "i", summary: "s", body: "b",
                                          actions: ["default", "Go"], hints: ["urgency": Variant(UInt8(2))], expireTimeout: 5000)
        let message = request.notifyCall().message
        #expect(message.signature == "susssasa{sv}i")
        #expect(message.destination == "org.freedesktop.Notifications" && message.path == "/org/freedesktop/Notifications")
        #expect(message.interface == "org.freedesktop.Notifications" && message.member == "Notify")
        let decoded = try message.decode(String.self, UInt32.self, String.self, String.self, String.self, [String].self,
                                         [String: Variant].self, Int32.self)
        #expect(decoded.0 == "a" && decoded.1 == 9 && decoded.2 == "i" && decoded.3 == "s" && decoded.4 == "b")
        #expect(decoded.5 == ["default", "Go"] && decoded.6 == ["urgency": Variant(UInt8(2))] && decoded.7 == 5000)
    }
}
