package import ComicDomain
import Foundation
import Testing
package import Widget

/// The states every face is tested in — one table, one test per face, each comparing what the face
/// shows with the view (docs/dbus-api.md, "The view"), as swift-argument-parser tests every help
/// from one command table.
package struct ViewState: Sendable, CustomTestStringConvertible {
    package let name: String
    package let entry: ChapterEntry
    /// The view the service must publish for `entry`, written out here; each action as
    /// "label → action[ parameter]".
    package let panelText, title, progressText, newPagesText: String, actions: [String]

    package var testDescription: String { name }

    package static let all: [ViewState] = [
        ViewState(name: "placeholder", entry: .placeholder(family: .medium, date: 1_700_000_000),
                  panelText: "Read Multiverse Reader", title: "Read Multiverse Reader", progressText: "", newPagesText: "",
                  actions: ["Start reading → open-chapter 1"]),
        ViewState(name: "reading", entry: ChapterEntry(
                      chapter: 42, name: "Goku & <Vegeta>", progress: 35, imagePath: "", date: 1_700_000_000, family: .medium,
                      isPlaceholder: false, page: 980, latestPage: 983, newPages: 3, firstUnreadPage: 981, nextChapter: 43,
                      nextChapterName: "The Next Round"),
                  panelText: "Ch. 42 · 35% · 3 new", title: "Chapter 42", progressText: "35% read", newPagesText: "3 new pages",
                  actions: ["Continue reading → open-current", "Next chapter → open-chapter 43", "Read new pages → open-page 981",
                            "Chapter list → open-chapter-list"]),
        ViewState(name: "special", entry: ChapterEntry(
                      chapter: 2, name: "The Special Begins", progress: 50, imagePath: "", date: 1_700_000_000, family: .medium,
                      isPlaceholder: false, page: 1234, universe: 3, latestPage: 1300),
                  panelText: "Ch. 2 · 50%", title: "Special Universe 3 · Chapter 2", progressText: "50% read", newPagesText: "",
                  actions: ["Continue reading → open-current", "Chapter list → open-chapter-list"]),
        ViewState(name: "last chapter, caught up", entry: ChapterEntry(
                      chapter: 95, name: "The Last One", progress: 100, imagePath: "", date: 1_700_000_000, family: .medium,
                      isPlaceholder: false, page: 2450, latestPage: 2450),
                  panelText: "Ch. 95 · 100%", title: "Chapter 95", progressText: "100% read", newPagesText: "",
                  actions: ["Continue reading → open-current", "Chapter list → open-chapter-list"]),
    ]

    /// An action as `actions` lists it.
    package static func describe(_ action: EntryView.Action) -> String {
        "\(action.label) → \(action.action.name)" + (action.action.parameter.first.map { " \($0)" } ?? "")
    }

    /// The table as the QML tests read it (`states.js`): each entry as `watch --format json --next`
    /// prints it.
    package static func statesScript() -> String {
        let states = all.map { #"{"name": "\#($0.name)", "entry": \#($0.entry.nextJSON(family: .medium))}"# }
        return ".pragma library\nvar states = [\n" + states.joined(separator: ",\n") + "\n]\n"
    }
}
