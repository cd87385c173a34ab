import ComicDomain
import Widget

/// The announcement of new pages (docs/notifications.md): the view's `new-pages-notification`, with
/// its own category, stack tag and `replaces_id` chain, next to the chapter notification's.
enum PagesNotification {
    static let category = "x-dbmultiverse.pages.published"
    static let stackTag = "dbmultiverse-new-pages"

    /// The `Notify` arguments announcing the view's new pages (`notification`, `view`'s):
    ///
    /// - summary the notification's (`3 new pages`, `1 new page`), plain text;
    /// - body the notification's (`After Chapter 42: <name>`), escaped only for a server that takes
    ///   body markup, as in the chapter notification;
    /// - actions `["default", <its action's label>]` (Read new pages) only when the server
    ///   advertises `actions`;
    /// - hints `desktop-entry`, `category`, `urgency` and the stack tags; the cover's
    ///   `image-path` when the entry has one.
    static func request(for notification: EntryView.Notification, of view: EntryView, replacing id: UInt32,
                        capabilities: Set<String>) -> NotificationRequest {
        ChapterNotification.request(notification, of: view, replacing: id, capabilities: capabilities,
                                    hints: ChapterNotification.commonHints(category: category, stackTag: stackTag))
    }
}
