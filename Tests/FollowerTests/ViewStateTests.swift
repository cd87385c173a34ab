import DesktopTestSupport
import ComicDomain
import DBus
@testable import Follower
import Foundation
import Testing
import Widget
import WidgetTestSupport

/// ViewState's table through the faces that need no desktop: the tray's status, tooltip and menu,
/// and the two notifications. Each shows exactly the view the service published — and, given a
/// view that is not the one its entry's fields would make (`ViewState.crossed`), still that view:
/// a face that derived a text, a state or a "changed?" rule from the fields would show another.
/// (The view itself and the command line's formats: WidgetTests' EntryViewTests; the cards:
/// PlasmoidQMLTests, GnomeShellCardTests, PlasmaCardTests; that no face holds a copy of the view's
/// texts or rules: RepositoryConventionTests' FaceLayeringTests.)
@Suite(.timeLimit(.minutes(1))) struct ViewStateTests {
    @Test(arguments: ViewState.all)
    func theTrayDrawsTheView(_ state: ViewState) throws {
        expectTray(try state.published, shows: state)
    }

    @Test(arguments: ViewState.crossed)
    func theTrayDrawsThePublishedViewNotOneOfItsOwn(fields: ViewState, view: ViewState) throws {
        expectTray(try fields.published(showing: view), shows: view)
    }

    @Test(arguments: ViewState.all)
    func theNotificationsDrawTheView(_ state: ViewState) throws {
        expectNotifications(try state.published, show: state)
    }

    @Test(arguments: ViewState.crossed)
    func theNotificationsDrawThePublishedViewNotOneOfTheirOwn(fields: ViewState, view: ViewState) throws {
        expectNotifications(try fields.published(showing: view), show: view)
    }

    private func expectTray(_ published: EntryView, shows state: ViewState, sourceLocation: SourceLocation = #_sourceLocation) {
        let model = TrayModel(published)
        let items = model.menu.compactMap { item -> String? in
            guard case .label(let text) = item.kind, let action = item.action else { return nil }
            return ViewState.describe(EntryView.Action(text, action))
        }
        #expect(items == state.actions, sourceLocation: sourceLocation)
        #expect(model.toolTipText == state.tooltip && model.menu.first?.kind == .label(state.tooltip), sourceLocation: sourceLocation)
        let active = ["reading", "new-pages"].contains(state.state)
        #expect(model.status == (active ? .active : .passive), "\(state.state)", sourceLocation: sourceLocation)
        #expect(model.revision == EntryView(state.entry).revision, sourceLocation: sourceLocation)
    }

    private func expectNotifications(_ published: EntryView, show state: ViewState, sourceLocation: SourceLocation = #_sourceLocation) {
        func shown(_ request: NotificationRequest, action: EntryView.Action) -> String {
            #expect(request.actions == ["default", action.label], sourceLocation: sourceLocation)
            return ViewState.describe(EntryView.Notification(summary: request.summary, body: request.body, action: action))!
        }
        #expect((published.chapterNotification == nil) == (state.chapterNotification == nil), sourceLocation: sourceLocation)
        if let notification = published.chapterNotification {
            let request = ChapterNotification.request(for: notification, of: published, replacing: 0, capabilities: ["actions"])
            #expect(shown(request, action: notification.action) == state.chapterNotification, sourceLocation: sourceLocation)
        }
        #expect((published.newPagesNotification == nil) == (state.newPagesNotification == nil), sourceLocation: sourceLocation)
        if let notification = published.newPagesNotification {
            let request = PagesNotification.request(for: notification, of: published, replacing: 0, capabilities: ["actions"])
            #expect(shown(request, action: notification.action) == state.newPagesNotification, sourceLocation: sourceLocation)
        }
    }
}
