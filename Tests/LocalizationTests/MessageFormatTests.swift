@testable import Localization
import Testing

/// The message formatter: `%d` / `%s` in order, `%N$…` by position (translations reorder values),
/// `%%`, and values inserted as they are.
@Suite(.timeLimit(.minutes(1))) struct MessageFormatTests {
    @Test func fillsDirectivesInOrder() {
        #expect(format("Chapter %d: %s", [42, "A Really Strange Tournament!"]) == "Chapter 42: A Really Strange Tournament!")
        #expect(format("%d%% read", [35]) == "35% read")
    }

    @Test func fillsPositionalDirectives() {
        #expect(format("%2$s (chapitre %1$d)", [42, "Le tournoi"]) == "Le tournoi (chapitre 42)")
    }

    /// Translations and names are rarely ASCII: the text around directives comes through whole.
    @Test func keepsTextThatIsNotASCII() {
        #expect(format("%1$s — 第%2$d話 (%3$d%%)", ["ドラゴンボール", 42, 35]) == "ドラゴンボール — 第42話 (35%)")
        #expect(format("Глава %d: %s", [7, "Турнир"]) == "Глава 7: Турнир")
        #expect(format("%0$d %99999999999999999999$s é", [1]) == "%0$d %99999999999999999999$s é")
    }

    @Test func insertsValuesVerbatim() {
        #expect(format("Chapter %d: %s", [1, "100% %s %d"]) == "Chapter 1: 100% %s %d")
    }

    @Test func leavesOutDirectivesWithoutValuesAndKeepsOthers() {
        #expect(format("%d and %s", [7]) == "7 and ")
        #expect(format("50%x %d", [3]) == "50%x 3")
        #expect(format("no directive", [1]) == "no directive")
    }

    /// Without a catalogue (the "C" locale of the test process) the English message comes back.
    @Test func untranslatedMessagesAreTheEnglishOnes() {
        #expect(gettext("Chapter %d: %s", 2, "x") == "Chapter 2: x")
        #expect(ngettext("%d new page", "%d new pages", 1) == "1 new page")
        #expect(ngettext("%d new page", "%d new pages", 3) == "3 new pages")
        #expect(pgettext("button", "Chapter list") == "Chapter list")
    }
}
