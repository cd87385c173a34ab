import ComicDomain
import DBus
import Localization
import Widget

/// The announcement of new pages (docs/notifications.md): its own category, stack tag and `replaces_id`
/// chain, next to the chapter notification's.
enum PagesNotification {
    static let category = "x-dbmultiverse.pages.published"
    static let stackTag = "dbmultiverse-new-pages"
    static let defaultAction = ChapterNotification.defaultAction
    /// The action's label, in the session's language.
    static var defaultActionLabel: String {
        // TRANSLATORS: the button of the new pages notification: opens the first unread page.
        gettext("Read now")
    }

    /// The `Notify` arguments announcing `entry`'s new pages.
    ///
    /// - summary the view's `new-pages-text`, `3 new pages` (`1 new page`), plain text;
    /// - body `After Chapter 42: <name>`, escaped only for a server that takes body markup, as
    ///   in the chapter notification;
    /// - actions `["default", "Read now"]` only when the server advertises `actions`;
    /// - hints `desktop-entry`, `category`, `urgency` and the stack tags; the cover's
    ///   `image-path` when the entry has one.
    static func request(for entry: ChapterEntry, replacing id: UInt32, capabilities: Set<String>) -> NotificationRequest {
        var hints = ChapterNotification.commonHints(category: category, stackTag: stackTag)
        if let uri = ChapterNotification.fileURI(forPath: entry.imagePath) { hints["image-path"] = Variant(uri) }
        return NotificationRequest(
            appName: ChapterNotification.appName,
            replacesID: id,
            appIcon: ChapterNotification.appIcon,
            summary: entry.view.newPagesText,
            // TRANSLATORS: the new pages notification's text: they come after the chapter being
            // read (its number and its name).
            body: NotificationRequest.body(gettext("After Chapter %d: %s", entry.chapter, entry.name), for: capabilities),
            actions: capabilities.contains("actions") ? [defaultAction, defaultActionLabel] : [],
            hints: hints,
            expireTimeout: -1
        )
    }

}
