import Foundation

/// The languages of po/LINGUAS (docs/translations.md), as the builds compile them.
package enum Translations {
    package static let languages: [String] = {
        // No languages would make every per-language test pass vacuously: an unreadable list is a broken checkout.
        guard let text = try? String(contentsOf: repositoryRoot.appendingPathComponent("po/LINGUAS"), encoding: .utf8) else {
            preconditionFailure("po/LINGUAS cannot be read: the translation tests need the repository's list of languages")
        }
        return text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
    }()
}
