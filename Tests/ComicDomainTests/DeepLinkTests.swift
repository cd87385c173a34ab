@testable import ComicDomain
import Testing

@Suite("Deep links", .timeLimit(.minutes(1)))
struct DeepLinkTests {
    @Test(arguments: [
        ("dbmultiverse://chapter/42", 42),
        ("dbmultiverse://chapter/1", 1),
        ("dbmultiverse://chapter/99999", 99999),
        ("dbmultiverse://chapter/42/", 42),
        ("DBMULTIVERSE://CHAPTER/42", 42),
        ("DbMultiVerse://Chapter/7/", 7),
        ("dbmultiverse://chapter/10", 10),
    ])
    func acceptsValidLinks(text: String, chapter: Int) throws {
        let link = try DeepLink(parsing: text)
        #expect(link.chapter == chapter)
        #expect(link.uri == "dbmultiverse://chapter/\(chapter)")
        #expect(link.description == link.uri)
        #expect(try DeepLink(parsing: link.uri) == link, "the normalised form parses to the same link")
    }

    @Test(arguments: [
        ("", DeepLink.Problem.empty),
        ("dbmultiverse", .unknownScheme),
        ("http://chapter/42", .unknownScheme),
        ("dbmultiverse2://chapter/42", .unknownScheme),
        (" dbmultiverse://chapter/42", .unknownScheme),
        ("\tdbmultiverse://chapter/42", .unknownScheme),
        ("dbmultiverse:chapter/42", .unknownHost),
        ("dbmultiverse:/chapter/42", .unknownHost),
        ("dbmultiverse:///chapter/42", .unknownHost),
        ("dbmultiverse://chapters/42", .unknownHost),
        ("dbmultiverse://page/42", .unknownHost),
        ("dbmultiverse://%63hapter/42", .unknownHost),
        ("dbmultiverse://chapter/", .notANumber),
        ("dbmultiverse://chapter", .notANumber),
        ("dbmultiverse://chapter//42", .notANumber),
        ("dbmultiverse://chapter/007", .notANumber),
        ("dbmultiverse://chapter/00", .notANumber),
        ("dbmultiverse://chapter/+1", .notANumber),
        ("dbmultiverse://chapter/-1", .notANumber),
        ("dbmultiverse://chapter/%34%32", .notANumber),
        ("dbmultiverse://chapter/42 ", .notANumber),
        ("dbmultiverse://chapter/4 2", .notANumber),
        ("dbmultiverse://chapter/42\n", .notANumber),
        ("dbmultiverse://chapter/\t42", .notANumber),
        ("dbmultiverse://chapter/٤٢", .notANumber),
        ("dbmultiverse://chapter/４２", .notANumber),
        ("dbmultiverse://chapter/42abc", .notANumber),
        ("dbmultiverse://chapter/0", .outOfRange),
        ("dbmultiverse://chapter/100000", .outOfRange),
        ("dbmultiverse://chapter/99999999999999999999999", .outOfRange),
        ("dbmultiverse://user@chapter/42", .extraParts),
        ("dbmultiverse://chapter:80/42", .extraParts),
        ("dbmultiverse://chapter/42?q", .extraParts),
        ("dbmultiverse://chapter/42?", .extraParts),
        ("dbmultiverse://chapter/42#frag", .extraParts),
        ("dbmultiverse://chapter?chapter=42", .extraParts),
        ("dbmultiverse://chapter/42/extra", .extraParts),
        ("dbmultiverse://chapter/42//", .extraParts),
    ])
    func rejectsInvalidLinks(text: String, problem: DeepLink.Problem) {
        switch DeepLink.parse(text) {
        case .success(let link):
            Issue.record("accepted \(text.debugDescription) as \(link)")
        case .failure(let failure):
            #expect(failure.problem == problem, "\(text.debugDescription): \(failure.error.message)")
            #expect(failure.error.kind == .invalidDeepLink)
            #expect(failure.error.message.hasPrefix("invalid deep link \""))
            #expect(failure.error.message.hasSuffix("expected dbmultiverse://chapter/<1…99999>"))
            #expect(!failure.error.message.contains("\n") && !failure.error.message.contains("\t"))
            let thrown = thrownError { () throws(ComicError) in try DeepLink(parsing: text) }
            #expect(thrown == failure.error)
        }
    }

    @Test func messagesSayWhatIsWrong() {
        func message(_ text: String) -> String {
            thrownError { () throws(ComicError) in try DeepLink(parsing: text) }?.message ?? ""
        }
        #expect(message("dbmultiverse://chapter/0")
            == #"invalid deep link "dbmultiverse://chapter/0": chapter 0 is out of range 1…99999; expected dbmultiverse://chapter/<1…99999>"#)
        #expect(message("dbmultiverse://chapter/007").contains("leading zero"))
        #expect(message("dbmultiverse://chapter/42?q").contains("a query is not allowed"))
        #expect(message("dbmultiverse://chapter/42#f").contains("a fragment is not allowed"))
        #expect(message("dbmultiverse://chapter:80/42").contains("a port is not allowed"))
        #expect(message("dbmultiverse://me@chapter/42").contains("user information is not allowed"))
        #expect(message("dbmultiverse://chapter/%34%32").contains("percent-encoding"))
        #expect(message(" dbmultiverse://chapter/42").contains("whitespace"))
        #expect(message("dbmultiverse://chapter/42\n").contains(#""dbmultiverse://chapter/42\n""#))
        #expect(message("").contains("it is empty"))
        let long = "dbmultiverse://chapter/" + String(repeating: "9", count: 10_000)
        #expect(message(long).count < 300, "a hostile link cannot flood the message")
    }

    @Test func linkFromChapterNumber() throws {
        #expect(try DeepLink(chapter: 42).uri == "dbmultiverse://chapter/42")
        #expect(thrownError { () throws(ComicError) in try DeepLink(chapter: 0) }?.kind == .invalidChapter)
        #expect(thrownError { () throws(ComicError) in try DeepLink(chapter: 100_000) }?.kind == .invalidChapter)
    }
}

@Suite("Comic site addresses", .timeLimit(.minutes(1)))
struct ComicSiteTests {
    // The official site given explicitly: the process origin follows $DBMULTIVERSE_SITE_URL, which
    // the suite must not depend on.
    @Test func pageAddressWhenThePageIsKnown() {
        #expect(ComicSite.url(page: 980, language: "fr", origin: .site) == "https://www.dragonball-multiverse.com/fr/page-980.html")
        #expect(ComicSite.url(page: 1, language: nil, origin: .site) == "https://www.dragonball-multiverse.com/en/page-1.html")
    }

    @Test func chapterListOtherwise() {
        #expect(ComicSite.url(page: nil, language: nil, origin: .site) == "https://www.dragonball-multiverse.com/en/chapters.html?comic=page&chaptersmode=1")
        #expect(ComicSite.url(page: nil, language: "es", origin: .site) == "https://www.dragonball-multiverse.com/es/chapters.html?comic=page&chaptersmode=1")
        #expect(ComicSite.url(page: 0, language: "es", origin: .site) == "https://www.dragonball-multiverse.com/es/chapters.html?comic=page&chaptersmode=1")
    }

    @Test func invalidLanguageFallsBackToEnglish() {
        #expect(ComicSite.url(page: 3, language: "../../evil", origin: .site) == "https://www.dragonball-multiverse.com/en/page-3.html")
        #expect(ComicSite.url(page: 3, language: "", origin: .site) == "https://www.dragonball-multiverse.com/en/page-3.html")
    }
}
