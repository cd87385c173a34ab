@testable import ComicDomain
import Testing

@Suite("Site languages, origins and page URLs", .timeLimit(.minutes(1)))
struct SitePageTests {
    @Test func theSiteHas37Languages() throws {
        #expect(SiteLanguage.all.count == 37)
        #expect(Set(SiteLanguage.all).count == 37)
        #expect(try SiteLanguage(validating: "pt_BR").code == "pt_BR")
        #expect(SiteLanguage.english.code == "en")
    }

    @Test(arguments: ["", "EN", "xx", "pt_br", "en/", "../en", "fr_FR"])
    func unknownLanguagesAreRejectedNamingTheValidOnes(code: String) {
        #expect(SiteLanguage(code: code) == nil)
        let error = #expect(throws: ComicError.self) { try SiteLanguage(validating: code) }
        #expect(error?.kind == .invalidLanguage)
        #expect(error?.message.contains("en fr it es pt_BR") == true)
    }

    @Test(arguments: [
        ("https://www.dragonball-multiverse.com/en/page-42.html", "en", 42),
        ("http://www.dragonball-multiverse.com/en/page-1.html", "en", 1),
        ("https://dragonball-multiverse.com/pt_BR/page-99999.html", "pt_BR", 99999),
        ("HTTPS://WWW.Dragonball-Multiverse.com/fr/page-980.html#pagetop", "fr", 980),
        ("https://www.dragonball-multiverse.com/en/page-2450.html?utm=x", "en", 2450),
    ])
    func acceptsTheSitesPageURLs(url: String, language: String, number: Int) throws {
        let page = try SitePage(url: url)
        #expect(page.language.code == language)
        #expect(page.number == number)
        #expect(page.path == "/\(language)/page-\(number).html")
    }

    @Test(arguments: [
        "",
        "www.dragonball-multiverse.com/en/page-42.html",
        "ftp://www.dragonball-multiverse.com/en/page-42.html",
        "file:///en/page-42.html",
        "https://example.com/en/page-42.html",
        "https://www.dragonball-multiverse.com.evil.example/en/page-42.html",
        "https://user@www.dragonball-multiverse.com/en/page-42.html",
        "https://www.dragonball-multiverse.com:8443/en/page-42.html",
        "https://www.dragonball-multiverse.com/en/page-042.html",
        "https://www.dragonball-multiverse.com/en/page-0.html",
        "https://www.dragonball-multiverse.com/en/page-100000.html",
        "https://www.dragonball-multiverse.com/en/page--1.html",
        "https://www.dragonball-multiverse.com/en/page-.html",
        "https://www.dragonball-multiverse.com/en/page-4%32.html",
        "https://www.dragonball-multiverse.com/en/chapters.html",
        "https://www.dragonball-multiverse.com/en/page-42.htm",
        "https://www.dragonball-multiverse.com/page-42.html",
        "https://www.dragonball-multiverse.com/en/x/page-42.html",
        "https://www.dragonball-multiverse.com//en/page-42.html",
    ])
    func rejectsEverythingElse(url: String) {
        let error = #expect(throws: ComicError.self) { try SitePage(url: url) }
        #expect(error?.kind == .invalidPage)
    }

    @Test func aWellFormedPageOfAnUnknownLanguageSaysSo() {
        let error = #expect(throws: ComicError.self) { try SitePage(url: "https://www.dragonball-multiverse.com/xx/page-42.html") }
        #expect(error?.kind == .invalidLanguage)
    }

    @Test func theOverrideOriginsPagesAreAcceptedToo() throws {
        let origin = try SiteOrigin(parsing: "http://127.0.0.1:8080")
        #expect(origin.url == "http://127.0.0.1:8080")
        #expect(try SitePage(url: "http://127.0.0.1:8080/en/page-7.html", extraOrigin: origin).number == 7)
        #expect(throws: ComicError.self) { try SitePage(url: "http://127.0.0.1:8081/en/page-7.html", extraOrigin: origin) }
        #expect(throws: ComicError.self) { try SitePage(url: "http://127.0.0.1:8080/en/page-7.html") }
    }

    @Test(arguments: ["", "127.0.0.1", "ftp://host", "http://", "http://host/path", "http://host:0", "http://host:65536",
                      "http://user@host", "http://host?x", "http://host:80x"])
    func badOriginsAreRejected(text: String) {
        let error = #expect(throws: ComicError.self) { try SiteOrigin(parsing: text) }
        #expect(error?.kind == .invalidOption)
    }

    @Test func theOriginComesFromTheEnvironment() throws {
        #expect(try SiteOrigin.resolve(environment: [:]) == .site)
        #expect(try SiteOrigin.resolve(environment: ["DBMULTIVERSE_SITE_URL": "http://localhost:9/"]).url == "http://localhost:9")
        #expect(SiteOrigin.site.url(path: "/en/page-1.html") == "https://www.dragonball-multiverse.com/en/page-1.html")
    }
}
