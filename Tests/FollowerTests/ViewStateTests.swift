import DesktopTestSupport
import ComicDomain
import DBus
@testable import Follower
import Foundation
import Testing
@testable import Widget

/// ViewState's table through the faces that need no desktop: the entry's keys (the `a{sv}` and
/// `--format json`), the tray menu and tooltip, the notification, Waybar's text. Each shows
/// exactly the view. (The cards: PlasmoidQMLTests, GnomeShellCardTests, PlasmaCardTests.)
@Suite(.timeLimit(.minutes(1))) struct ViewStateTests {
    @Test(arguments: ViewState.all)
    func theEntryPublishesTheView(_ state: ViewState) throws {
        let view = state.entry.view
        #expect(view.panelText == state.panelText && view.title == state.title)
        #expect(view.progressText == state.progressText && view.newPagesText == state.newPagesText)
        #expect(view.actions.map(ViewState.describe) == state.actions)
        // On the bus: the view's keys, and the actions as aa{sv} that read back the same.
        let dictionary = state.entry.dbusDictionary
        #expect(dictionary["panel-text"] == Variant(state.panelText) && dictionary["title"] == Variant(state.title))
        #expect(dictionary["progress-text"] == Variant(state.progressText) && dictionary["new-pages-text"] == Variant(state.newPagesText))
        let actions = try #require(dictionary["actions"])
        #expect(actions.value.signature.rawValue == "aa{sv}")
        #expect(try actions.get([EntryView.Action].self) == view.actions)
        // Read back by a client: the same entry, so the same view.
        #expect(try ChapterEntry(dbusDictionary: dictionary).view == view)
        // In JSON (`entry --format json`, `watch`): the same keys.
        let json = state.entry.formatted(.json, family: .medium)
        #expect(json.contains(#""panel-text":"\#(state.panelText)","title":"\#(state.title)","progress-text":"\#(state.progressText)","new-pages-text":"\#(state.newPagesText)","actions":["#))
    }

    @Test(arguments: ViewState.all)
    func theTrayMenuIsTheViewsActions(_ state: ViewState) {
        let model = TrayModel(state.entry)
        let items = model.menu.compactMap { item -> String? in
            guard case .label(let text) = item.kind, let action = item.action else { return nil }
            return ViewState.describe(EntryView.Action(text, action))
        }
        #expect(items == state.actions)
        #expect(model.toolTipText == state.entry.rendered(.medium))
    }

    @Test(arguments: ViewState.all)
    func theNotificationAndWaybarDrawTheView(_ state: ViewState) {
        let request = ChapterNotification.request(for: state.entry, replacing: 0, capabilities: ["actions"])
        #expect(request.body == escapedForMarkup(state.progressText))
        // Its action is the view's first: Continue reading (open-current: a special's page link).
        if !state.entry.isPlaceholder { #expect(request.actions == ["default", "Continue reading"]) }
        if state.entry.newPages > 0 {
            #expect(PagesNotification.request(for: state.entry, replacing: 0, capabilities: []).summary == state.newPagesText)
        }
        let waybar = state.entry.formatted(.waybar, family: .small)
        #expect(waybar.hasPrefix(#"{"text":"\#(escapedForMarkup(state.panelText))","#), "\(waybar)")
    }

    /// The cards' sources hold no wording or rule of the view: it comes from the service. The one
    /// exception is each card's placeholder for when no service answers (cardModel.js,
    /// placeholder.js), which GnomeShellExtensionTests and PlasmoidQMLTests hold to the service's.
    @Test func theCardsHoldNoWordingOrRuleOfTheView() throws {
        let allowed: Set = ["cardModel.js", "placeholder.js"]
        let folders = ["desktop/gnome-shell/src", "desktop/gnome-shell/src/legacy", "desktop/plasma/contents/ui"]
        let wording = ["Continue reading", "Start reading", "Next chapter", "Read new pages", "Chapter list", "new page",
                       "% read", "Ch. ", "Special Universe", "Read Multiverse Reader", "next-chapter", "first-unread-page",
                       "[\"new-pages\"]", "['new-pages']", "universe", "is-placeholder"]
        var checked = 0
        for folder in folders {
            let path = repositoryRoot.appendingPathComponent(folder).path
            for file in try FileManager.default.contentsOfDirectory(atPath: path) where file.hasSuffix(".js") || file.hasSuffix(".qml") {
                guard !allowed.contains(file) else { continue }
                let text = try String(contentsOfFile: path + "/" + file, encoding: .utf8)
                checked += 1
                for word in wording {
                    #expect(!text.contains(word), "\(folder)/\(file) holds \"\(word)\": the view decides it")
                }
            }
        }
        #expect(checked >= 7, "the cards' sources were read: \(checked)")
    }
}
