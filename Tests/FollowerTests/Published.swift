import ComicDomain
@testable import Follower
import Widget

// The faces given the view the service publishes for an entry, for the tests that start from an
// entry's fields.

extension TrayModel {
    /// The model of the view the service publishes for `entry`.
    init(published entry: ChapterEntry) { self.init(EntryView(entry)) }
}

extension ChapterNotification {
    /// The chapter notification of the view the service publishes for `entry` (not the placeholder).
    static func request(published entry: ChapterEntry, replacing id: UInt32, capabilities: Set<String>) -> NotificationRequest {
        let view = EntryView(entry)
        return request(for: view.chapterNotification!, of: view, replacing: id, capabilities: capabilities)
    }
}

extension PagesNotification {
    /// The announcement of the view the service publishes for `entry` (with new pages).
    static func request(published entry: ChapterEntry, replacing id: UInt32, capabilities: Set<String>) -> NotificationRequest {
        let view = EntryView(entry)
        return request(for: view.newPagesNotification!, of: view, replacing: id, capabilities: capabilities)
    }
}
