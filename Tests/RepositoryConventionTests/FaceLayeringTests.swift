import DesktopTestSupport
import Foundation
import Testing

/// The faces draw the view the service publishes (docs/dbus-api.md, "The view"); they do not make
/// it. Read from their sources: no face writes a text of the view, derives the state a face is
/// styled by from the entry's fields, or decides "changed?" by comparing entries (the view's
/// `revision` says it). A face that did would show its own view beside the service's — and, in
/// another language or after a change of the rule, a different one.
@Suite(.timeLimit(.minutes(1))) struct FaceLayeringTests {
    /// The Swift faces: the tray, the notifications, the command line's formats and long-poll.
    static let swiftFaces = [
        "Sources/Follower/Tray/TrayModel.swift", "Sources/Follower/Tray/TrayItem.swift", "Sources/Follower/Tray/ServedMenu.swift",
        "Sources/Follower/Notifier/ChapterNotification.swift", "Sources/Follower/Notifier/PagesNotification.swift",
        "Sources/Widget/EntryFormat.swift",
    ]
    /// The long-poll `watch --next`: a face too, with messages of its own (its errors), so held to
    /// the state and "changed?" rules only.
    static let commandFaces = ["Sources/dbmultiverse/NextEntry.swift"]
    /// The cards' folders. Each card keeps one view of its own, its placeholder for when no service
    /// answers (cardModel.js, placeholder.js), which the card tests hold to the service's.
    static let cardFolders = ["desktop/gnome-shell/src", "desktop/gnome-shell/src/legacy", "desktop/plasma/contents/ui"]
    static let cardPlaceholders: Set = ["cardModel.js", "placeholder.js"]

    /// What a face that made the view would hold (regular expressions), and what it would decide.
    static let swiftRules: [(pattern: String, decides: String)] = [
        (#"\bn?gettext\("#, "a text"),
        (#"\bisPlaceholder\b|\bnewPages\s*[><=!]|\bprogress\s*(>=|<|==)\s*100\b|statusClass"#, "a state"),
        (#"\.date\b|\brendered\("#, "a \"changed?\" rule or a text"),
    ]
    static let cardRules: [(pattern: String, decides: String)] = [
        (#"Continue reading|Start reading|Next chapter|Read new pages|Chapter list|new page|% read|Ch\. |Special Universe|Read Multiverse Reader"#,
         "a text"),
        (#"is-placeholder|next-chapter|first-unread-page|\[['"]new-pages['"]\]|universe|['"]progress['"]\]\s*[<>=]"#, "a state"),
        (#"['"]date['"]|\.date\b|JSON\.stringify"#, "a \"changed?\" rule"),
    ]

    @Test func noFaceWritesATextDerivesAStateOrDecidesChangedItself() throws {
        var files: [(path: String, rules: [(pattern: String, decides: String)])] = Self.swiftFaces.map { ($0, Self.swiftRules) }
            + Self.commandFaces.map { ($0, Array(Self.swiftRules.dropFirst())) }
        for folder in Self.cardFolders {
            let path = repositoryRoot.appendingPathComponent(folder).path
            for file in try FileManager.default.contentsOfDirectory(atPath: path).sorted()
            where (file.hasSuffix(".js") || file.hasSuffix(".qml")) && !Self.cardPlaceholders.contains(file) {
                files.append((folder + "/" + file, Self.cardRules))
            }
        }
        var problems: [String] = []
        for (path, rules) in files {
            problems += try Self.copies(in: path, of: rules)
        }
        #expect(files.count >= 14, "the faces' sources: \(files.map(\.path))")
        #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
    }

    /// The rules' patterns find what they look for (a check that cannot fail is no check): each
    /// finds the copy a face once held.
    @Test func theRulesFindTheCopiesTheFacesOnceHeld() throws {
        let once = [
            (Self.swiftRules, "status = reading || entry.newPages > 0 ? .active : .passive"),
            (Self.swiftRules, "toolTipText = entry.rendered(.medium)"),
            (Self.swiftRules, #"body: gettext("After Chapter %d: %s", entry.chapter, entry.name)"#),
            (Self.swiftRules, "now.date = before.date"),
            (Self.cardRules, "const shown = JSON.stringify(entry, (key, value) => key === 'date' ? undefined : value);"),
            (Self.cardRules, "if (entry['is-placeholder']) return 'placeholder';"),
            (Self.cardRules, "label.text = _('Read new pages');"),
        ]
        for (rules, line) in once {
            #expect(!Self.matches(line, rules).isEmpty, "\(line)")
        }
    }

    /// The lines of `path` (comments aside) that hold what one of `rules` looks for.
    static func copies(in path: String, of rules: [(pattern: String, decides: String)]) throws -> [String] {
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent(path), encoding: .utf8)
        var found: [String] = []
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let code = line.trimmingCharacters(in: .whitespaces)
            guard !code.hasPrefix("//"), !code.hasPrefix("*") else { continue }
            for decides in matches(code, rules) {
                found.append("\(path):\(number + 1) derives \(decides) the view publishes: \(code)")
            }
        }
        return found
    }

    /// What `line` decides, by the rules it matches.
    static func matches(_ line: String, _ rules: [(pattern: String, decides: String)]) -> [String] {
        rules.compactMap { rule in
            line.range(of: rule.pattern, options: .regularExpression) == nil ? nil : rule.decides
        }
    }
}
