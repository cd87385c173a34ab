import DesktopTestSupport
import Foundation

/// The reader every real-host check shows, read from `scripts/lib/demo-story.sh` (which the checks
/// source), so that the tests expect what the scripts did and the README's pictures tell one story.
package enum DemoStory {
    /// The script's `DEMO_NAME=value` lines, quotes taken off.
    private static let values: [String: String] = {
        let script = (try? String(contentsOf: repositoryRoot.appendingPathComponent("scripts/lib/demo-story.sh"), encoding: .utf8)) ?? ""
        var values: [String: String] = [:]
        for line in script.split(separator: "\n") {
            guard let match = line.wholeMatch(of: /DEMO_([A-Z_]+)=(.*)/) else { continue }
            values[String(match.1)] = String(match.2).trimmingCharacters(in: CharacterSet(charactersIn: "\""))
        }
        return values
    }()

    private static func number(_ key: String) -> Int { values[key].flatMap { Int($0) } ?? -1 }

    package static var chapter: Int { number("CHAPTER") }
    package static var name: String { values["NAME"] ?? "" }
    /// The next chapter's name (the catalogue has chapter + 1 from the page after the reader's next).
    package static var nextName: String { values["NEXT_NAME"] ?? "" }
    package static var progress: Int { number("PROGRESS") }
    /// The page the reader is on.
    package static var page: Int { number("PAGE") }
    package static var newPages: Int { number("LATEST_PAGE") - page }
    /// The small rendering (the view's panel-text): `Ch. 42 · 35% · 3 new`.
    package static var small: String { "Ch. \(chapter) · \(progress)% · \(newPages) new" }
}
