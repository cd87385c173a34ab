package import ComicDomain
import DBus
import Testing
package import Widget

/// The states every face is tested in — one table, one test per face, each comparing what the face
/// shows with the view (docs/dbus-api.md, "The view"), as swift-argument-parser tests every help
/// from one command table. The cards' QML tests read it too (`statesScript()`): its first two
/// states are the placeholder and a chapter with new pages.
package struct ViewState: Sendable, CustomTestStringConvertible {
    package let name: String
    package let entry: ChapterEntry
    /// The view the service must publish for `entry`, written out here; each action as
    /// "label → action[ parameter]", each notification as "summary | body | action".
    package let panelText, title, progressText, newPagesText: String, actions: [String]
    package let state: String, tooltip: String
    package let chapterNotification: String?, newPagesNotification: String?

    package var testDescription: String { name }

    package static let all: [ViewState] = [
        ViewState(name: "placeholder", entry: .placeholder(family: .medium, date: 1_700_000_000),
                  panelText: "Read Multiverse Reader", title: "Read Multiverse Reader", progressText: "", newPagesText: "",
                  actions: ["Start reading → open-chapter 1"], state: "placeholder",
                  tooltip: "Read Multiverse Reader — start with Chapter 1", chapterNotification: nil, newPagesNotification: nil),
        ViewState(name: "new pages", entry: ChapterEntry(
                      chapter: 42, name: "Goku & <Vegeta>", progress: 35, imagePath: "", date: 1_700_000_000, family: .medium,
                      isPlaceholder: false, page: 980, latestPage: 983, newPages: 3, firstUnreadPage: 981, nextChapter: 43,
                      nextChapterName: "The Next Round"),
                  panelText: "Ch. 42 · 35% · 3 new", title: "Chapter 42", progressText: "35% read", newPagesText: "3 new pages",
                  actions: ["Continue reading → open-current", "Next chapter → open-chapter 43", "Read new pages → open-page 981",
                            "Chapter list → open-chapter-list"], state: "new-pages",
                  tooltip: "Chapter 42: Goku & <Vegeta> — 35% read",
                  chapterNotification: "Chapter 42: Goku & <Vegeta> | 35% read | Continue reading → open-current",
                  newPagesNotification: "3 new pages | After Chapter 42: Goku & <Vegeta> | Read new pages → open-page 981"),
        ViewState(name: "special", entry: ChapterEntry(
                      chapter: 2, name: "The Special Begins", progress: 50, imagePath: "", date: 1_700_000_000, family: .medium,
                      isPlaceholder: false, page: 1234, universe: 3, latestPage: 1300),
                  panelText: "Ch. 2 · 50%", title: "Special Universe 3 · Chapter 2", progressText: "50% read", newPagesText: "",
                  actions: ["Continue reading → open-current", "Chapter list → open-chapter-list"], state: "reading",
                  tooltip: "Chapter 2: The Special Begins — 50% read",
                  chapterNotification: "Chapter 2: The Special Begins | 50% read | Continue reading → open-current", newPagesNotification: nil),
        ViewState(name: "last chapter, caught up", entry: ChapterEntry(
                      chapter: 95, name: "The Last One", progress: 100, imagePath: "", date: 1_700_000_000, family: .medium,
                      isPlaceholder: false, page: 2450, latestPage: 2450),
                  panelText: "Ch. 95 · 100%", title: "Chapter 95", progressText: "100% read", newPagesText: "",
                  actions: ["Continue reading → open-current", "Chapter list → open-chapter-list"], state: "finished",
                  tooltip: "Chapter 95: The Last One — 100% read",
                  chapterNotification: "Chapter 95: The Last One | 100% read | Continue reading → open-current", newPagesNotification: nil),
        ViewState(name: "reading", entry: ChapterEntry(
                      chapter: 42, name: "Goku & <Vegeta>", progress: 35, imagePath: "", date: 1_700_000_000, family: .medium,
                      isPlaceholder: false, page: 980, latestPage: 980, nextChapter: 43, nextChapterName: "The Next Round"),
                  panelText: "Ch. 42 · 35%", title: "Chapter 42", progressText: "35% read", newPagesText: "",
                  actions: ["Continue reading → open-current", "Next chapter → open-chapter 43", "Chapter list → open-chapter-list"],
                  state: "reading", tooltip: "Chapter 42: Goku & <Vegeta> — 35% read",
                  chapterNotification: "Chapter 42: Goku & <Vegeta> | 35% read | Continue reading → open-current", newPagesNotification: nil),
        ViewState(name: "one new page, read on another computer", entry: {
                      var entry = ChapterEntry(
                          chapter: 50, name: "The Rematch", progress: 100, imagePath: "", date: 1_700_000_000, family: .medium,
                          isPlaceholder: false, page: 1200, latestPage: 1201, newPages: 1, firstUnreadPage: 1201)
                      entry.continuedOn = "Laptop"
                      return entry
                  }(),
                  panelText: "Ch. 50 · 100% · 1 new", title: "Chapter 50", progressText: "100% read", newPagesText: "1 new page",
                  actions: ["Continue reading → open-current", "Read new pages → open-page 1201", "Chapter list → open-chapter-list"],
                  state: "new-pages", tooltip: "Chapter 50: The Rematch — 100% read",
                  chapterNotification: "Continued on Laptop: Chapter 50 | 100% read | Continue reading → open-current",
                  newPagesNotification: "1 new page | After Chapter 50: The Rematch | Read new pages → open-page 1201"),
    ]

    /// An action as `actions` lists it.
    package static func describe(_ action: EntryView.Action) -> String {
        "\(action.label) → \(action.action.name)" + (action.action.parameter.first.map { " \($0)" } ?? "")
    }

    /// A notification as `chapterNotification` and `newPagesNotification` list it.
    package static func describe(_ notification: EntryView.Notification?) -> String? {
        notification.map { "\($0.summary) | \($0.body) | \(describe($0.action))" }
    }

    /// The view the service publishes for `entry`, read back as a face reads it (from the bus's
    /// `a{sv}`).
    package var published: EntryView {
        get throws { try EntryView(dbusDictionary: entry.dbusDictionary) }
    }

    /// A view as no service publishes one: this state's entry with `other`'s view keys (texts,
    /// actions, state, notifications, revision). A face that draws the view shows `other`'s; one
    /// that derives a text, a state or a "changed?" rule of its own from the entry's fields shows
    /// something else — so each face's test runs on these too (`crossed`).
    package func published(showing other: ViewState) throws -> EntryView {
        var dictionary = entry.dbusDictionary
        let view = other.entry.dbusDictionary
        for key in EntryKeys.viewKeyNames { dictionary[key] = view[key] }
        return try EntryView(dbusDictionary: dictionary)
    }

    /// Each state's entry with each other state's view: (the fields' state, the view's state).
    package static var crossed: [(fields: ViewState, view: ViewState)] {
        all.flatMap { fields in all.filter { $0.name != fields.name }.map { (fields, $0) } }
    }

    /// The table as the QML tests read it (`states.js`): each entry as `watch --format json --next`
    /// prints it.
    package static func statesScript() throws -> String {
        let states = try all.map { #"{"name": "\#($0.name)", "entry": \#(try $0.published.nextJSON(family: .medium))}"# }
        return ".pragma library\nvar states = [\n" + states.joined(separator: ",\n") + "\n]\n"
    }
}
