import ComicDomain
import DBus
import Foundation
import Testing
@testable import Widget
import WidgetTestSupport

/// The view (docs/dbus-api.md, "The view"): what the service publishes for each state of
/// ViewState's table, on the bus and in JSON, its revision, and the command line's formats — a
/// face — drawing it. (The tray and the notifier: FollowerTests' ViewStateTests; the cards:
/// PlasmoidQMLTests, GnomeShellCardTests, PlasmaCardTests.)
@Suite(.timeLimit(.minutes(1))) struct EntryViewTests {
    @Test(arguments: ViewState.all)
    func theServicePublishesTheTablesView(_ state: ViewState) throws {
        let view = EntryView(state.entry)
        #expect(view.panelText == state.panelText && view.title == state.title)
        #expect(view.progressText == state.progressText && view.newPagesText == state.newPagesText)
        #expect(view.actions.map(ViewState.describe) == state.actions)
        #expect(view.state.rawValue == state.state && view.tooltip == state.tooltip)
        #expect(ViewState.describe(view.chapterNotification) == state.chapterNotification)
        #expect(ViewState.describe(view.newPagesNotification) == state.newPagesNotification)
        // On the bus: the view's keys, the actions as aa{sv}, the notifications as a{sv}, the revision as t.
        let dictionary = view.dbusDictionary
        #expect(dictionary["panel-text"] == Variant(state.panelText) && dictionary["title"] == Variant(state.title))
        #expect(dictionary["progress-text"] == Variant(state.progressText) && dictionary["new-pages-text"] == Variant(state.newPagesText))
        #expect(dictionary["state"] == Variant(state.state) && dictionary["tooltip"] == Variant(state.tooltip))
        #expect(try #require(dictionary["actions"]).value.signature.rawValue == "aa{sv}")
        #expect(try #require(dictionary["chapter-notification"]).value.signature.rawValue == "a{sv}")
        #expect(try #require(dictionary["new-pages-notification"]).value.signature.rawValue == "a{sv}")
        #expect(dictionary["revision"] == Variant(view.revision))
        // Read back by a client: the same view, key for key (the page and language are not on the bus),
        // compared in JSON, which has one order (an a{sv} inside a variant keeps its dictionary's).
        let readBack = try EntryView(dbusDictionary: dictionary)
        #expect(readBack.formatted(.json, family: .medium) == view.formatted(.json, family: .medium))
        #expect(readBack.revision == view.revision && readBack.state == view.state)
        // In JSON (`entry --format json`, `watch`): the same keys, in the table's order.
        let json = view.formatted(.json, family: .medium)
        #expect(json.contains(#""panel-text":"\#(state.panelText)","title":"\#(state.title)","progress-text":"\#(state.progressText)","new-pages-text":"\#(state.newPagesText)","actions":["#))
        #expect(json.contains(#""state":"\#(state.state)","tooltip":"\#(state.tooltip)","chapter-notification":"#))
        #expect(json.hasSuffix(#","revision":\#(view.revision)}"#))
    }

    /// A client never computes a view key it did not receive: an entry without one is malformed.
    @Test(arguments: EntryKeys.viewKeyNames)
    func anEntryWithoutAViewKeyIsRefused(_ key: String) throws {
        var dictionary = try #require(ViewState.all.first).entry.dbusDictionary
        dictionary[key] = nil
        #expect(throws: DBusError.self) { try EntryView(dbusDictionary: dictionary) }
        #expect(EntryKeys.viewKeyNames.contains("state") && EntryKeys.viewKeyNames.last == "revision")
    }

    /// Every field of the entry has travelled in every entry since the first release: one left out
    /// is malformed too (but the deep link, read back only for a special's page).
    @Test(arguments: EntryKeys.fields.map(\.name).filter { $0 != "deep-link" })
    func anEntryWithoutAFieldIsRefused(_ key: String) throws {
        var dictionary = try #require(ViewState.all.first).entry.dbusDictionary
        dictionary[key] = nil
        #expect(throws: DBusError.self) { try EntryView(dbusDictionary: dictionary) }
    }

    // MARK: The revision

    /// One revision per thing shown: every state of the table has its own; the date and the family
    /// (which no face shows) leave it as it is; any key a face shows, and the cover's file, change it.
    @Test func theRevisionChangesExactlyWhenSomethingShownChanges() throws {
        let revisions = ViewState.all.map { EntryView($0.entry).revision }
        #expect(Set(revisions).count == revisions.count, "\(revisions)")
        #expect(revisions.allSatisfy { $0 <= EntryView.revisionMask }, "53 bits: exact in a JavaScript number")
        var entry = ViewState.all[1].entry
        let revision = EntryView(entry).revision
        entry.date += 3600
        entry.family = .small
        #expect(EntryView(entry).revision == revision, "date and family are not shown")
        for change in [{ (entry: inout ChapterEntry) in entry.name += "!" }, { $0.progress += 1 }, { $0.continuedOn = "Laptop" },
                       { $0.imagePath = "/data/chapterCoverImage.jpg" }, { $0.latestPage += 1 }, { $0.nextChapterName = "" }] {
            var changed = entry
            change(&changed)
            #expect(EntryView(changed).revision != revision, "\(changed)")
        }
        // The same cover path, another file in its place: another revision.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dbm-revision-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(FileManager.default.createFile(atPath: folder + "/cover.jpg", contents: Data([1])))
        let first = try #require(FileIdentity(path: folder + "/cover.jpg"))
        #expect(FileManager.default.createFile(atPath: folder + "/next.jpg", contents: Data([2, 2])))
        #expect(rename(folder + "/next.jpg", folder + "/cover.jpg") == 0)
        let second = try #require(FileIdentity(path: folder + "/cover.jpg"))
        #expect(EntryView(entry, cover: first).revision != EntryView(entry, cover: second).revision)
        #expect(EntryView(entry, cover: first).revision == EntryView(entry, cover: first).revision)
    }

    /// The revision is a function of what is shown alone — not of the process, its start or a
    /// seed (Swift's `Hasher` is seeded per process) —, so a face that kept one while the service
    /// restarted compares it with the new service's as it is: the placeholder's, in English, is
    /// this number in every process.
    @Test func theRevisionIsTheSameInEveryProcess() {
        let placeholder = EntryView.placeholder(family: .medium, date: 0)
        #expect(placeholder.revision == 0x13_4467_f2ad_2e51, "\(String(placeholder.revision, radix: 16))")
        #expect(placeholder.token == "00134467f2ad2e51")
        #expect(EntryView.isToken(placeholder.token) && !EntryView.isToken("0012D01F9A2A5C5A") && !EntryView.isToken("12d01f9a2a5c5a"))
    }

    // MARK: The command line's formats: a face

    /// `entry` and `watch` in each format, and `watch --next`'s answer, for each state: the view's
    /// keys as they are.
    @Test(arguments: ViewState.all)
    func theFormatsDrawTheView(_ state: ViewState) throws {
        try expectFormats(of: try state.published, show: state)
    }

    /// The same with the view of another state than the entry's fields say: a format that derived
    /// a text, the class or the token from the fields would show the fields' state.
    @Test(arguments: ViewState.crossed)
    func theFormatsDrawThePublishedViewNotOneOfTheirOwn(fields: ViewState, view: ViewState) throws {
        try expectFormats(of: try fields.published(showing: view), show: view)
    }

    private func expectFormats(of published: EntryView, show state: ViewState, sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(published.formatted(.text, family: .small) == state.panelText, sourceLocation: sourceLocation)
        #expect(published.formatted(.text, family: .medium) == state.tooltip, sourceLocation: sourceLocation)
        let waybar = try #require(try JSONSerialization.jsonObject(with: Data(published.formatted(.waybar, family: .small).utf8)) as? [String: Any])
        #expect(waybar["text"] as? String == escapedForMarkup(state.panelText), sourceLocation: sourceLocation)
        #expect(waybar["tooltip"] as? String == escapedForMarkup(state.tooltip), sourceLocation: sourceLocation)
        #expect(waybar["class"] as? String == state.state, sourceLocation: sourceLocation)
        let next = try #require(try JSONSerialization.jsonObject(with: Data(published.nextJSON(family: .medium).utf8)) as? [String: Any])
        let revision = EntryView(state.entry).revision
        #expect((next["revision"] as? NSNumber)?.uint64Value == revision, sourceLocation: sourceLocation)
        #expect(next["token"] as? String == String(format: "%016llx", revision), "the token is the revision, nothing else",
                sourceLocation: sourceLocation)
        #expect(next["panel-text"] as? String == state.panelText && next["state"] as? String == state.state, sourceLocation: sourceLocation)
    }

    // MARK: Documented

    /// Every key of the entry and its view is in docs/dbus-api.md. (The interface file describes
    /// them from their docs: InterfaceFileTests.)
    @Test func everyKeyIsDocumented() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let api = try String(contentsOf: root.appendingPathComponent("docs/dbus-api.md"), encoding: .utf8)
        #expect(EntryKeys.all.count == 25)
        for key in EntryKeys.all {
            #expect(api.contains("`\(key.name)`"), "docs/dbus-api.md: \(key.name)")
        }
        for state in EntryView.State.allCases {
            #expect(api.contains("`\(state.rawValue)`"), "\(state.rawValue)")
        }
    }
}
