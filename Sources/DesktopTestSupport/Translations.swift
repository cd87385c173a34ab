import Foundation

/// The languages of po/LINGUAS (docs/translations.md), as the builds compile them.
package enum Translations {
    package static let languages: [String] = {
        let text = (try? String(contentsOf: repositoryRoot.appendingPathComponent("po/LINGUAS"), encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }()
}
