@testable import ComicDomain
@testable import Localization
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

    /// One rule: a chapter may name only the site's languages, so a stored one always counts.
    @Test func aStoredLanguageIsOneOfTheSites() throws {
        let french = try ChapterData(validatingNumber: 42, name: "Name", progress: 3, language: "fr")
        #expect(french.siteLanguage == Self.french)
        #expect(throws: ComicError.self) { try ChapterData(validatingNumber: 42, name: "Name", progress: 3, language: "zz") }
        #expect(try ChapterData(validatingNumber: 42, name: "Name", progress: 3).siteLanguage == nil)
    }

    /// Nothing stored or configured: the desktop's language, then English.
    @Test func theDesktopsLanguageComesAfterTheConfigFile() throws {
        var config = ConfigFile(text: "")
        config.desktopLanguage = Self.german
        #expect(try config.readerLanguage(chosen: nil) == Self.german)
        #expect(try config.readerLanguage(chosen: Self.french) == Self.french)
        var configured = ConfigFile(text: "language = fr")
        configured.desktopLanguage = Self.german
        #expect(try configured.readerLanguage(chosen: nil) == Self.french)
        #expect(ConfigFile.load(environment: ["LANGUAGE": "pt_BR", "LANG": "C.UTF-8", "HOME": "/nonexistent"]).desktopLanguage.code == "pt_BR")
    }

    @Test(arguments: [
        ("fr_FR.UTF-8", "fr"), ("fr_CA", "fr"), ("fr_BE.UTF-8@euro", "fr"), ("pt_BR.UTF-8", "pt_BR"), ("pt_PT.UTF-8", "pt"),
        ("es_CO.UTF-8", "es_CO"), ("es_ES.UTF-8", "es"), ("es_MX", "es"), ("ja_JP.UTF-8", "jp"), ("zh_CN.UTF-8", "cn"),
        ("ko_KR.UTF-8", "kr_KR"), ("ca_ES.UTF-8", "ct_CT"), ("el_GR.UTF-8", "gr_GR"), ("gl_ES.UTF-8", "ga_ES"), ("eu_ES.UTF-8", "eu_EH"),
        ("it_IT.UTF-8", "it"), ("de_AT@euro", "de"), ("pl_PL.UTF-8", "pl"), ("hu_HU.UTF-8", "hu_HU"), ("tr_TR.UTF-8", "tr_TR"),
        ("nl_BE", "nl"), ("sv_SE.UTF-8", "sv_SE"), ("en_GB.UTF-8", "en"), ("de", "de"),
    ])
    func localesMapToTheSitesCodes(locale: String, code: String) {
        #expect(SiteLanguage(locale: locale)?.code == code)
        // Through LANGUAGE: C.UTF-8 is on every system, the other locales need not be.
        #expect(SiteLanguage.desktop(environment: ["LANGUAGE": locale, "LANG": "C.UTF-8"]).code == code)
    }

    @Test(arguments: ["C", "POSIX", "C.UTF-8", "", "zh_TW.UTF-8", "th_TH.UTF-8", "xx_VE", "FR_fr"])
    func localesTheSiteLacksAreEnglish(locale: String) {
        #expect(SiteLanguage.desktop(environment: ["LANG": locale]) == .english)
    }

    /// gettext's rule (`Localization.sessionLanguages`), the interface's: LANGUAGE's first entry,
    /// unless the messages locale (the first set of LC_ALL, LC_MESSAGES, LANG) is C — as written,
    /// as POSIX, or because the system lacks it —, where LANGUAGE is ignored (issue 39, defect 6:
    /// `LC_ALL=C LANGUAGE=fr` showed an English interface and read the French comic).
    @Test func theInterfacesRule() {
        func desktop(_ environment: [String: String]) -> SiteLanguage { SiteLanguage.desktop(environment: environment) }
        #expect(desktop(["LANGUAGE": "it:de", "LANG": "C.UTF-8"]).code == "it")
        #expect(desktop(["LANGUAGE": "fr", "LC_ALL": "C", "LANG": "C.UTF-8"]) == .english, "LC_ALL=C: LANGUAGE is ignored")
        #expect(desktop(["LANGUAGE": "fr", "LC_ALL": "C"]) == .english)
        #expect(desktop(["LANGUAGE": "fr", "LC_MESSAGES": "POSIX", "LANG": "C.UTF-8"]) == .english)
        #expect(desktop(["LANGUAGE": "fr", "LANG": "xx_NOWHERE.UTF-8"]) == .english, "a locale the system lacks is C")
        #expect(desktop(["LANGUAGE": "fr"]) == .english, "no locale set is C")
        #expect(desktop(["LANGUAGE": "", "LANG": "C.UTF-8"]) == .english)
        #expect(desktop([:]) == .english)
        if Localization.isAvailable("fr_FR.UTF-8") {
            #expect(desktop(["LANGUAGE": "", "LANG": "fr_FR.UTF-8"]).code == "fr", "an empty LANGUAGE is unset")
            #expect(desktop(["LC_ALL": "C", "LANG": "fr_FR.UTF-8"]) == .english, "C is English")
            #expect(desktop(["LC_ALL": "fr_FR.UTF-8", "LANG": "C.UTF-8"]).code == "fr", "LC_ALL wins")
        }
    }
}
