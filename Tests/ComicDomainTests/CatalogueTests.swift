import Glibc
@testable import ComicDomain
import Testing

@Suite("Catalogue", .timeLimit(.minutes(1)))
struct CatalogueTests {
    static let fetch = Catalogue.FetchMetadata(url: "https://www.dragonball-multiverse.com/en/chapters.html?comic=page&chaptersmode=1",
                                               etag: "W/\"5e1\"", lastModified: nil, fetchedAt: 1_795_323_865)

    static func sample() throws -> Catalogue {
        try Catalogue(language: .english, chapters: [
            Catalogue.Chapter(number: 1, name: "A Really Strange Tournament!", startPage: 1, endPage: 24, universe: nil, thumbnailURL: "https://x/1.jpg"),
            Catalogue.Chapter(number: 2, name: "Végéta & \"Goku\"", startPage: 25, endPage: 48, universe: nil, thumbnailURL: ""),
            Catalogue.Chapter(number: 1, name: "Special", startPage: 20, endPage: 30, universe: 3, thumbnailURL: ""),
        ], latestPage: 10, fetch: fetch)
    }

    @Test func progressIsTheIOSFormula() throws {
        let chapter = try Catalogue.Chapter(number: 2, name: "x", startPage: 25, endPage: 48, universe: nil, thumbnailURL: "")
        #expect(chapter.progress(atPage: 25) == 4)   // 1 × 100 ÷ 24
        #expect(chapter.progress(atPage: 36) == 50)  // 12 × 100 ÷ 24
        #expect(chapter.progress(atPage: 48) == 100)
        #expect(chapter.progress(atPage: 60) == 100, "clamped")
        #expect(chapter.progress(atPage: 1) == 0, "clamped")
        let single = try Catalogue.Chapter(number: 3, name: "x", startPage: 7, endPage: 7, universe: nil, thumbnailURL: "")
        #expect(single.progress(atPage: 7) == 100)
    }

    @Test func pageToChapterPrefersTheMainStory() throws {
        let catalogue = try Self.sample()
        #expect(catalogue.latestPage == 48, "raised to the last chapter page")
        #expect(catalogue.position(ofPage: 26)?.chapter.number == 2)
        #expect(catalogue.position(ofPage: 22)?.chapter.universe == nil, "page 22 is in both; the main story wins")
        #expect(catalogue.position(ofPage: 49) == nil)
        #expect(catalogue.pageRange == 1...48)
    }

    /// Pages in publication order: the main story 1–96 and 129–160, specials 97–128 (overlapping
    /// on purpose at 120–125), the latest page 160.
    static func interleaved(latestPage: Int = 160) throws -> Catalogue {
        try Catalogue(language: .english, chapters: [
            Catalogue.Chapter(number: 4, name: "Four", startPage: 73, endPage: 96, universe: nil, thumbnailURL: ""),
            Catalogue.Chapter(number: 5, name: "Five", startPage: 129, endPage: 152, universe: nil, thumbnailURL: ""),
            Catalogue.Chapter(number: 1, name: "Special", startPage: 97, endPage: 125, universe: 3, thumbnailURL: ""),
            Catalogue.Chapter(number: 1, name: "Broly", startPage: 120, endPage: 128, universe: 20, thumbnailURL: ""),
        ], latestPage: latestPage, fetch: fetch)
    }

    @Test func newPagesAreTheMainStorysPagesAfterTheReader() throws {
        let catalogue = try Self.interleaved()
        #expect(catalogue.mainStoryPages(after: 150) == 10, "151–160: the rest of chapter 5 and pages published since the list was read")
        #expect(catalogue.mainStoryPages(after: 90) == 6 + 32, "91–96 and 129–160: the specials' 97–128 are not counted, once")
        #expect(catalogue.mainStoryPages(after: 110) == 32, "from inside a special's range")
        #expect(catalogue.mainStoryPages(after: 159) == 1)
        #expect(catalogue.mainStoryPages(after: 160) == 0, "caught up")
        #expect(catalogue.mainStoryPages(after: 99_999) == 0, "past the latest page (a rollback): never negative")
        #expect(try Self.interleaved(latestPage: 1).mainStoryPages(after: 152) == 0, "the latest page is at least the last chapter page")
    }

    @Test func aPageLinksChapterIsTheMainStorys() throws {
        let catalogue = try Self.interleaved()
        #expect(catalogue.mainStoryChapter(holding: 130)?.number == 5)
        #expect(catalogue.mainStoryChapter(holding: 100) == nil, "a special's page")
        #expect(catalogue.mainStoryChapter(holding: 155) == nil, "no chapter holds it yet")
    }

    @Test func jsonRoundTripsAndReadsStrictly() throws {
        let catalogue = try Self.sample()
        let bytes = catalogue.encodeJSON()
        #expect(try Catalogue.decode(bytes, language: .english) == catalogue)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix(#"{"language":"en","latestPage":48,"chapters":[{"number":1,"name":"A Really Strange Tournament!","startPage":1,"endPage":24,"universe":null,"thumbnailURL":"https://x/1.jpg"}"#))
        #expect(text.contains(#""fetch":{"url":"https://www.dragonball-multiverse.com/en/chapters.html?comic=page&chaptersmode=1","etag":"W/\"5e1\"","lastModified":null,"fetchedAt":1795323865}"#))
        let french = try #require(SiteLanguage(code: "fr"))
        #expect(thrownError { () throws(ComicError) in try Catalogue.decode(bytes, language: french) }?.message.contains("not fr") == true)
    }

    @Test(arguments: [
        ("", "malformed JSON"),
        ("[]", "expected a JSON object"),
        (#"{"language":"en","latestPage":1,"chapters":[],"fetch":{"url":"u","fetchedAt":0}}"#, "without chapters"),
        (#"{"language":"en","latestPage":0,"chapters":[],"fetch":{"url":"u","fetchedAt":0}}"#, "latest page 0"),
        (#"{"language":"en","latestPage":1,"chapters":[{"number":1,"name":" ","startPage":1,"endPage":2}],"fetch":{"url":"u","fetchedAt":0}}"#, "chapter entry 1: name is blank"),
        (#"{"language":"en","latestPage":1,"chapters":[{"number":1,"name":"x","startPage":5,"endPage":2}],"fetch":{"url":"u","fetchedAt":0}}"#, "pages 5–2"),
        (#"{"language":"en","latestPage":1,"chapters":[{"number":1,"name":"x","startPage":1,"endPage":2,"universe":0}],"fetch":{"url":"u","fetchedAt":0}}"#, "universe 0"),
        (#"{"language":"en","latestPage":1,"chapters":[{"number":1e3,"name":"x","startPage":1,"endPage":2}],"fetch":{"url":"u","fetchedAt":0}}"#, "must be an integer"),
        (#"{"language":"en","latestPage":1,"chapters":[{"number":1,"name":"x","startPage":1,"endPage":2}],"fetch":7}"#, "must be an object"),
        (#"{"language":"en","latestPage":1,"chapters":[{"number":1,"name":"x","startPage":1,"endPage":2}],"fetch":{"url":"u","fetchedAt":-1}}"#, "not a time"),
    ])
    func badFilesAreErrorsWithAReason(_ json: String, _ reason: String) {
        let error = thrownError { () throws(ComicError) in try Catalogue.decode(Array(json.utf8), language: .english) }
        #expect(error?.message.contains(reason) == true, "\(String(describing: error?.message))")
    }

    @Test func fewerChaptersNeverReplaceTheStoredOnes() throws {
        let stored = try Self.sample()
        let shorter = try Catalogue(language: .english, chapters: Array(stored.chapters.prefix(2)), latestPage: 60, fetch: Self.fetch)
        #expect(stored.reasonToKeep(over: shorter)?.contains("fewer than the 3 stored") == true)
        #expect(stored.reasonToKeep(over: stored) == nil)
    }

    @Test func storedAtomicallyAndReadBack() throws {
        try withTemporaryDirectory { path in
            let folder = DataFolder(path: path + "/data")
            #expect(folder.readCatalogue(.english) == .missing)
            try folder.writeCatalogue(try Self.sample())
            #expect(folder.readCatalogue(.english) == .valid(try Self.sample()))
            #expect(fileStatus(path + "/data/chapters-en.json").map { $0.st_mode & 0o777 } == 0o600)
            try writeFile(path + "/data/chapters-en.json", "{\"language\":")
            guard case .invalid(let reason) = folder.readCatalogue(.english) else { Issue.record("accepted a torn file"); return }
            #expect(reason.contains("chapters-en.json"))
        }
    }
}

@Suite("Config file", .timeLimit(.minutes(1)))
struct ConfigFileTests {
    @Test func keyValueLinesCommentsAndTheLastWins() throws {
        let config = ConfigFile(text: "# settings\n  browser = firefox --new-window %u  \r\nlanguage=fr\nnonsense\n = x\nlanguage = de\n")
        #expect(config["browser"] == "firefox --new-window %u")
        #expect(config["language"] == "de")
        #expect(config.values.count == 2)
        #expect(try config.language().code == "de")
        #expect(try ConfigFile(text: "").language() == .english)
        #expect(thrownError { () throws(ComicError) in try ConfigFile(text: "language = xx").language() }?.kind == .invalidLanguage)
    }

    @Test func pathFromTheEnvironment() {
        #expect(ConfigFile.path(environment: ["XDG_CONFIG_HOME": "/c", "HOME": "/h"]) == "/c/dbmultiverse/config")
        #expect(ConfigFile.path(environment: ["XDG_CONFIG_HOME": "relative", "HOME": "/h"]) == "/h/.config/dbmultiverse/config")
        #expect(ConfigFile.path(environment: [:]) == nil)
    }

    @Test func unusableFilesAreNoSettings() throws {
        try withTemporaryDirectory { path in
            #expect(ConfigFile.load(path: path + "/missing").values.isEmpty)
            #expect(ConfigFile.load(path: path).values.isEmpty, "a directory")
            try writeFile(path + "/big", String(repeating: "a = b\n", count: 4000))
            #expect(ConfigFile.load(path: path + "/big").values.isEmpty, "over 16 KiB")
            try writeFile(path + "/ok", "language = fr\n")
            #expect(ConfigFile.load(path: path + "/ok")["language"] == "fr")
        }
    }
}

@Suite("Page links", .timeLimit(.minutes(1)))
struct ComicLinkTests {
    @Test func pageAndChapterLinks() throws {
        #expect(try ComicLink(parsing: "dbmultiverse://page/980") == .page(980))
        #expect(try ComicLink(parsing: "DBMultiverse://Page/980/").uri == "dbmultiverse://page/980")
        #expect(try ComicLink(parsing: "dbmultiverse://chapter/42") == .chapter(try DeepLink(chapter: 42)))
        #expect(try ComicLink(page: 7).uri == "dbmultiverse://page/7")
        #expect(thrownError { () throws(ComicError) in try ComicLink(page: 0) }?.kind == .invalidPage)
    }

    @Test(arguments: ["dbmultiverse://page/0980", "dbmultiverse://page/0", "dbmultiverse://page/100000", "dbmultiverse://page/980?lang=fr",
                      "dbmultiverse://pages/980", "dbmultiverse://page:1/980", "dbmultiverse://page/", "dbmultiverse://page/9/8"])
    func invalidPageLinks(_ text: String) {
        let error = thrownError { () throws(ComicError) in try ComicLink(parsing: text) }
        #expect(error?.kind == .invalidDeepLink)
        #expect(error?.message.hasSuffix("expected dbmultiverse://chapter/<1…99999> or dbmultiverse://page/<1…99999>") == true, "\(String(describing: error))")
    }

    @Test func messagesNameWhatTheNumberIs() {
        func message(_ text: String) -> String {
            thrownError { () throws(ComicError) in try ComicLink(parsing: text) }?.message ?? ""
        }
        let expected = "; expected dbmultiverse://chapter/<1…99999> or dbmultiverse://page/<1…99999>"
        #expect(message("dbmultiverse://page/0980") == #"invalid deep link "dbmultiverse://page/0980": the page number has a leading zero"# + expected)
        #expect(message("dbmultiverse://chapter/042") == #"invalid deep link "dbmultiverse://chapter/042": the chapter number has a leading zero"# + expected)
        #expect(message("dbmultiverse://page/") == #"invalid deep link "dbmultiverse://page/": the page number is missing"# + expected)
        #expect(message("dbmultiverse://page/12a") == #"invalid deep link "dbmultiverse://page/12a": the page "12a" is not a plain decimal number"# + expected)
        #expect(message("dbmultiverse://page/9/8") == #"invalid deep link "dbmultiverse://page/9/8": nothing may follow the page number but one "/""# + expected)
    }

    @Test func chapterLinksStayChapterOnly() {
        #expect(thrownError { () throws(ComicError) in try DeepLink(parsing: "dbmultiverse://page/3") }?.kind == .invalidDeepLink)
        #expect(thrownError { () throws(ComicError) in try ComicLink(parsing: "dbmultiverse://page/0") }?.message.contains("page 0 is out of range") == true)
    }

    @Test func siteAddressesOnAnotherOrigin() throws {
        let origin = try SiteOrigin(parsing: "http://127.0.0.1:8080")
        #expect(ComicSite.url(page: 3, language: "fr", origin: origin) == "http://127.0.0.1:8080/fr/page-3.html")
        #expect(ComicSite.url(page: nil, language: nil, origin: origin) == "http://127.0.0.1:8080/en/chapters.html?comic=page&chaptersmode=1")
    }

    @Test func userAgentNamesVersionAndProject() {
        #expect(ProjectInfo.userAgent == "dbmultiverse-desktop/\(ProjectInfo.version) (+https://github.com/nobadi/dbmultiverse-desktop)")
    }
}
