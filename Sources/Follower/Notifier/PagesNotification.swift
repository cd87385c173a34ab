package import ComicDomain
internal import DBus

/// The announcement of new pages (DESIGN §13): its own category, stack tag and `replaces_id`
/// chain, next to the chapter notification's.
package enum PagesNotification {
    package static let category = "x-dbmultiverse.pages.published"
    package static let stackTag = "dbmultiverse-new-pages"
    package static let defaultAction = ChapterNotification.defaultAction
    package static let defaultActionLabel = "Read now"

    /// The `Notify` arguments announcing `newPages` new pages after `entry`'s chapter.
    ///
    /// - summary `3 new pages` (`1 new page`), plain text;
    /// - body `After Chapter 42: <name>`, escaped only for a server that takes body markup, as
    ///   in the chapter notification;
    /// - actions `["default", "Read now"]` only when the server advertises `actions`;
    /// - hints `desktop-entry`, `category`, `urgency` and the stack tags; the cover's
    ///   `image-path` when the entry has one.
    package static func request(for entry: ChapterEntry, newPages: Int, replacing id: UInt32, capabilities: Set<String>) -> NotificationRequest {
        var hints = ChapterNotification.commonHints(category: category, stackTag: stackTag)
        if let uri = ChapterNotification.fileURI(forPath: entry.imagePath) { hints["image-path"] = Variant(uri) }
        return NotificationRequest(
            appName: ChapterNotification.appName,
            replacesID: id,
            appIcon: ChapterNotification.appIcon,
            summary: summary(newPages: newPages),
            body: NotificationRequest.body("After Chapter \(entry.chapter): \(entry.name)", for: capabilities),
            actions: capabilities.contains("actions") ? [defaultAction, defaultActionLabel] : [],
            hints: hints,
            expireTimeout: -1
        )
    }

    /// `1 new page`, `3 new pages`.
    package static func summary(newPages: Int) -> String {
        newPages == 1 ? "1 new page" : "\(newPages) new pages"
    }
}
