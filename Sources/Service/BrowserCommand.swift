/// The browser command of docs/deep-links.md: a command line split into argv without a shell, with the
/// URL put in place of `%u` (or appended); `none` means signal only.
enum BrowserCommand: Equatable, Sendable {
    case none
    case argv([String])

    static let `default` = BrowserCommand.argv(["xdg-open"])

    /// Parses a command line: whitespace separates words; '…' quotes literally; "…" quotes with
    /// backslash escapes; a backslash outside quotes escapes the next character. Nil when the
    /// line is empty or has an unterminated quote.
    static func parse(_ line: String) -> BrowserCommand? {
        let trimmed = line.trimmingWhitespace()
        if trimmed == "none" { return BrowserCommand.none }
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for character in trimmed {
            if escaped {
                word.append(character)
                escaped = false
                continue
            }
            switch (quote, character) {
            case ("'", "'"), ("\"", "\""): quote = nil
            case ("'", _): word.append(character)
            case ("\"", "\\"), (nil, "\\"): escaped = true; inWord = true
            case ("\"", _): word.append(character)
            case (nil, "'"), (nil, "\""): quote = character; inWord = true
            case (nil, _) where character.isWhitespace:
                if inWord { words.append(word) }
                word = ""
                inWord = false
            default:
                word.append(character)
                inWord = true
            }
        }
        guard quote == nil, !escaped else { return nil }
        if inWord { words.append(word) }
        return words.isEmpty ? nil : .argv(words)
    }

    /// The argv that opens `url`.
    func arguments(opening url: String) -> [String]? {
        guard case .argv(let words) = self else { return nil }
        if words.contains(where: { $0.contains("%u") }) {
            return words.map { $0.replacing("%u", with: url) }
        }
        return words + [url]
    }
}

extension String {
    func trimmingWhitespace() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first.isWhitespace { scalars.removeFirst() }
        while let last = scalars.last, last.isWhitespace { scalars.removeLast() }
        return String(scalars)
    }
}
