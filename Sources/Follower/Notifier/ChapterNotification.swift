import ComicDomain
import DBus
import Widget

/// The notification of a chapter change (docs/notifications.md): the view's `chapter-notification`,
/// drawn as the notification server takes it.
enum ChapterNotification {
    static let appName = "DBMultiverse"
    static let appIcon = WidgetBus.iconName
    static let desktopEntry = "com.nobadi.DBMultiverse"
    static let category = "x-dbmultiverse.chapter.changed"
    /// Normal urgency (0 low, 1 normal, 2 critical).
    static let urgency: UInt8 = 1
    static let defaultAction = "default"
    /// The stack tag: servers that honour one (dunst, swaync, Notify OSD) replace the standing
    /// notification with the same tag even when `replaces_id` is 0, as after a notifier restart.
    static let stackTag = "dbmultiverse-chapter"

    /// The `Notify` arguments for the view's chapter notification `notification` (`view`'s).
    ///
    /// - summary the notification's (`Chapter 42: <name>`, `Continued on Laptop: Chapter 50`),
    ///   plain text (the specification gives summaries no markup);
    /// - body the notification's (`35% read`), escaped for a server that advertises
    ///   `body-markup`, plain text for one that does not (`NotificationRequest.body(_:for:)`);
    /// - actions `["default", <its action's label>]` (Continue reading) only when the server
    ///   advertises `actions`;
    /// - hints `desktop-entry`, `category`, `urgency` (a byte), the stack tags, `value` (the
    ///   progress, `i` 0…100: a bar on dunst, swaync and Plasma) and, when the entry has a cover,
    ///   `image-path` as a `file://` URI.
    static func request(for notification: EntryView.Notification, of view: EntryView, replacing id: UInt32,
                        capabilities: Set<String>) -> NotificationRequest {
        var hints = commonHints(category: category, stackTag: stackTag)
        hints["value"] = Variant(Int32(min(max(view.entry.progress, Limits.progress.lowerBound), Limits.progress.upperBound)))
        return request(notification, of: view, replacing: id, capabilities: capabilities, hints: hints)
    }

    /// The `Notify` arguments showing `notification` of `view` with `hints` (plus the cover's
    /// `image-path` when the entry has one): its summary, its body for `capabilities`, its action.
    static func request(_ notification: EntryView.Notification, of view: EntryView, replacing id: UInt32,
                        capabilities: Set<String>, hints: [String: Variant]) -> NotificationRequest {
        var hints = hints
        if let uri = fileURI(forPath: view.entry.imagePath) { hints["image-path"] = Variant(uri) }
        return NotificationRequest(
            appName: appName,
            replacesID: id,
            appIcon: appIcon,
            summary: notification.summary,
            body: NotificationRequest.body(notification.body, for: capabilities),
            actions: capabilities.contains("actions") ? [defaultAction, notification.action.label] : [],
            hints: hints,
            expireTimeout: -1
        )
    }

    /// The hints every notification of the notifier carries: `desktop-entry`, `category`,
    /// `urgency` (a byte), and `stackTag` as both `x-dunst-stack-tag` and
    /// `x-canonical-private-synchronous` (`s`).
    static func commonHints(category: String, stackTag: String) -> [String: Variant] {
        [
            "desktop-entry": Variant(desktopEntry),
            "category": Variant(category),
            "urgency": Variant(urgency),
            "x-dunst-stack-tag": Variant(stackTag),
            "x-canonical-private-synchronous": Variant(stackTag),
        ]
    }

    /// `file://` + the absolute path, each byte outside RFC 3986's unreserved set and `/`
    /// percent-encoded (UTF-8). Nil for "" or a relative path: a URI needs an absolute one.
    static func fileURI(forPath path: String) -> String? {
        guard path.hasPrefix("/") else { return nil }
        let hex: [Character] = Array("0123456789ABCDEF")
        var uri = "file://"
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                uri.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                uri.append("%")
                uri.append(hex[Int(byte >> 4)])
                uri.append(hex[Int(byte & 0x0F)])
            }
        }
        return uri
    }
}
