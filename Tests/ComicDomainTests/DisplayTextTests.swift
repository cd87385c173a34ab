@testable import ComicDomain
import Testing

/// `displayLine`, the one sanitiser of text output (issue 30, defects 2 and 3: names and files
/// printed raw forged lines and drove terminals).
@Suite("Display text: one safe line", .timeLimit(.minutes(1))) struct DisplayTextTests {
    @Test func lineBreaksBecomeSpacesControlsVisibleBidiOverridesDropped() {
        #expect(displayLine("a\nb\r\nc\td\u{0B}e\u{0C}f\u{85}g\u{2028}h\u{2029}i") == "a b  c d e f g h i")
        #expect(displayLine("\u{1B}[2J\u{0}\u{7F}\u{9B}31m") == "\u{FFFD}[2J\u{FFFD}\u{FFFD}\u{FFFD}31m")
        #expect(displayLine("\u{202A}\u{202B}\u{202C}\u{202D}\u{202E}abc\u{2066}\u{2067}\u{2068}\u{2069}") == "abc")
        #expect(displayLine("Vegeta & <Goku> — 35% 🇯🇵 é") == "Vegeta & <Goku> — 35% 🇯🇵 é")
    }
}
