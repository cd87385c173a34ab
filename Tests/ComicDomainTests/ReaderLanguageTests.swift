import ComicDomain
import Testing

/// The reader's language, one rule for the service, the tray, the opener and the site commands.
@Suite(.timeLimit(.minutes(1))) struct ReaderLanguageTests {
    static let french = try! SiteLanguage(validating: "fr")
    static let german = try! SiteLanguage(validating: "de")

    @Test func theChoiceThenTheConfigFileThenEnglish() throws {
        let config = ConfigFile(text: "language = de")
        #expect(try config.readerLanguage(chosen: Self.french) == Self.french)
        #expect(try config.readerLanguage(chosen: nil) == Self.german)
        #expect(try ConfigFile(text: "").readerLanguage(chosen: nil) == .english)
    }

    @Test func aBadConfigLanguageIsAnErrorOrEnglishWithItsReason() throws {
        let config = ConfigFile(text: "language = xx")
        #expect(throws: ComicError.self) { try config.readerLanguage(chosen: nil) }
        #expect(try config.readerLanguage(chosen: Self.french) == Self.french, "a choice never reads the file's value")
        let (language, problem) = config.readerLanguageOrEnglish(chosen: nil)
        #expect(language == .english)
        #expect(problem?.kind == .invalidLanguage && problem?.message.contains("\"xx\"") == true)
    }

    @Test func aStoredLanguageCountsOnlyWhenTheSiteHasIt() throws {
        let french = try ChapterData(validatingNumber: 42, name: "Name", progress: 3, language: "fr")
        let other = try ChapterData(validatingNumber: 42, name: "Name", progress: 3, language: "zh-Hant")
        #expect(french.siteLanguage == Self.french)
        #expect(other.siteLanguage == nil)
        #expect(try ChapterData(validatingNumber: 42, name: "Name", progress: 3).siteLanguage == nil)
    }
}
