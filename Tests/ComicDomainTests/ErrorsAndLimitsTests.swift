@testable import ComicDomain
import Testing

@Suite("Errors, limits, widget family and kind", .timeLimit(.minutes(1)))
struct ErrorsAndLimitsTests {
    @Test func errorKindsCarryTheContractSuffixes() {
        let suffixes = ComicError.Kind.allCases.map(\.rawValue)
        #expect(suffixes == [
            "InvalidChapter", "InvalidName", "InvalidProgress", "InvalidDeepLink", "InvalidFamily",
            "UnknownKind", "UnknownAction", "CoverRejected", "NoCurrentChapter", "StorageFailed",
            "InvalidLanguage", "InvalidPage", "InvalidOption",
        ])
        let error = ComicError(.invalidChapter, "chapter 0 is out of range 1…99999")
        #expect(error.description == "chapter 0 is out of range 1…99999")
        #expect(error == ComicError(.invalidChapter, "chapter 0 is out of range 1…99999"))
        #expect(error != ComicError(.invalidProgress, "chapter 0 is out of range 1…99999"))
    }

    @Test func limitsMatchTheContract() {
        #expect(Limits.chapters == 1...99999)
        #expect(Limits.progress == 0...100)
        #expect(Limits.nameLength == 1...256)
        #expect(Limits.pages == 1...99999)
        #expect(Limits.maxChapterFileBytes == 65536)
        #expect(Limits.maxCoverBytes == 8_388_608)
    }

    /// One language rule: a chapter may name only the site's languages (`UpdateChapter` stored
    /// "zz" once, which the reader's language then ignored).
    @Test(arguments: ["en", "fr", "pt_BR", "es_CO", "kr_KR"])
    func acceptsLanguageCodes(code: String) throws {
        #expect(try ChapterData(validatingNumber: 1, name: "x", progress: 0, language: code).siteLanguage?.code == code)
    }

    @Test(arguments: ["", "zz", "pt-BR", "EN", "zh-Hant", "en/../x", "en?", "abcdefghijklmnopq", "é", "en\n", "en%20"])
    func rejectsLanguageCodes(code: String) {
        let error = thrownError { () throws(ComicError) in try ChapterData(validatingNumber: 1, name: "x", progress: 0, language: code) }
        #expect(error?.kind == .invalidOption && error?.message.contains("unknown site language") == true, "\(String(describing: error))")
    }

    @Test func widgetFamiliesParseExactly() throws {
        #expect(try WidgetFamily(validating: "small") == .small)
        #expect(try WidgetFamily(validating: "medium") == .medium)
        for bad in ["large", "Small", "", " small"] {
            let error = thrownError { () throws(ComicError) in try WidgetFamily(validating: bad) }
            #expect(error?.kind == .invalidFamily)
            #expect(error?.message.contains("small, medium") == true)
            #expect(error?.message.contains("\"\(bad)\"") == true)
        }
    }

    @Test func widgetKindIsValidatedExactly() {
        #expect(WidgetKind.name == "DBMultiverseWidgets")
        #expect(thrownError { () throws(ComicError) in try WidgetKind.validate("DBMultiverseWidgets") } == nil)
        let error = thrownError { () throws(ComicError) in try WidgetKind.validate("dbmultiversewidgets") }
        #expect(error?.kind == .unknownKind)
        #expect(error?.message == #"unknown widget kind "dbmultiversewidgets"; the only kind is DBMultiverseWidgets"#)
    }

    @Test func messagesQuoteHostileValuesSafely() {
        let error = thrownError { () throws(ComicError) in try WidgetFamily(validating: "x\n\u{1B}[31m\"") }
        #expect(error?.message.contains(#""x\n\u{1B}[31m\"""#) == true)
        #expect(error?.message.contains("\n") == false)
    }
}
