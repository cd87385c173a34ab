import ComicDomain
@testable import Site
import SiteTestSupport
import Testing

/// The extractors on the fixture markup, in every variant docs/usage.md#the-comics-site lists.
@Suite(.timeLimit(.minutes(1)))
struct ExtractorTests {
    let pageURL = "http://127.0.0.1:1/en/chapters.html?comic=page&chaptersmode=1"

    @Test(arguments: FixtureComic.ChapterListVariant.allCases)
    func chapterListInEveryVariant(_ variant: FixtureComic.ChapterListVariant) throws {
        let comic = FixtureComic.small
        let chapters = try ChapterListExtractor.chapters(in: Array(comic.chapterListHTML(variant).utf8), pageURL: pageURL)
        #expect(chapters.count == comic.chapters.count, "\(chapters.map(\.name))")
        for (read, written) in zip(chapters, comic.chapters) {
            #expect(read.number == written.number)
            #expect(read.name == written.name)
            #expect(read.startPage == written.startPage)
            #expect(read.endPage == written.endPage, "chapter \(written.number) of universe \(String(describing: written.universe))")
            #expect(read.universe == written.universe)
            #expect(read.thumbnailURL == "http://127.0.0.1:1/images/thumb-\(written.startPage).jpg")
        }
    }

    @Test func classesAreWholeTokens() throws {
        let html = "<div class='horscadrelect big'></div><p class=' a\tcadrelect\n'></p><span class='cadrelect-x'></span>"
        let document = try MarkupDocument.html(Array(html.utf8), encoding: nil, source: "test")
        let div = try #require(document.select("//div").first), p = try #require(document.select("//p").first)
        let span = try #require(document.select("//span").first)
        #expect(div.hasClass("horscadrelect") && div.hasClass("big") && !div.hasClass("cadrelect"))
        #expect(p.hasClass("cadrelect") && p.hasClass("a") && !p.hasClass("cadrelec"))
        #expect(!span.hasClass("cadrelect"))
        #expect(document.select("//*[\(MarkupDocument.hasClass("cadrelect"))]").count == 1)
    }

    @Test func sectionTitlesNameTheUniverse() {
        #expect(ChapterListExtractor.universe(ofSection: "DBMultiverse") == nil)
        #expect(ChapterListExtractor.universe(ofSection: "Special Universe 16") == 16)
        #expect(ChapterListExtractor.universe(ofSection: "  special   universe  3 : Bra ") == 3)
        #expect(ChapterListExtractor.universe(ofSection: "Broly, the legendary") == 20)
        #expect(ChapterListExtractor.universe(ofSection: "DBMultiverse: Broly") == nil, "dbmultiverse wins")
    }

    @Test func namesAreTheTextAfterTheFirstColon() {
        #expect(ChapterListExtractor.name(fromTitle: "Chapter 42: A: B", number: 42) == "A: B")
        #expect(ChapterListExtractor.name(fromTitle: "第42話：戦い", number: 42) == "戦い")
        #expect(ChapterListExtractor.name(fromTitle: "Chapter 42", number: 42) == "Chapter 42")
        #expect(ChapterListExtractor.name(fromTitle: "Chapter 42:   ", number: 42) == "Chapter 42")
    }

    @Test(arguments: ["", "garbage \u{0}\u{1} ☃", "<html><body><p>no chapters here</p></body></html>",
                      "<h1 class='horscadrelect'>DBMultiverse</h1><div class='horscadrelect'><h4>Chapter 1: x</h4><p><a href='page-1.html'>1</a></p></div>"])
    func noChaptersIsAMarkupChange(_ html: String) {
        #expect(throws: SiteError.self) { try ChapterListExtractor.chapters(in: Array(html.utf8), pageURL: pageURL) }
        if !html.isEmpty {
            let error = try? #require(throws: SiteError.self) { try ChapterListExtractor.chapters(in: Array(html.utf8), pageURL: pageURL) }
            #expect(error?.message.contains("markup may have changed") == true, "\(String(describing: error))")
        }
    }

    @Test(arguments: FixtureComic.PageVariant.allCases)
    func pageImageInEveryVariant(_ variant: FixtureComic.PageVariant) throws {
        let html = FixtureComic.small.pageHTML(49, variant)
        let page = try PageExtractor.page(in: Array(html.utf8), pageURL: "http://127.0.0.1:1/en/page-49.html")
        #expect(page.imageURL == "http://127.0.0.1:1/images/page-49.png")
        #expect(page.latestPage == 152)
    }

    @Test func styleURLsQuotedOrNot() {
        #expect(PageExtractor.styleURL("background-image:url(/a.png)") == "/a.png")
        #expect(PageExtractor.styleURL("BACKGROUND:URL( \"/a b.png\" );") == "/a b.png")
        #expect(PageExtractor.styleURL("color:red") == nil)
        #expect(PageExtractor.styleURL("url()") == nil)
    }

    @Test func feedsRSS1AndRSS2() throws {
        let comic = FixtureComic.small
        let origin = "http://127.0.0.1:1"
        #expect(try FeedExtractor.latestPage(in: Array(comic.feedRSS1(origin: origin).utf8), feedURL: "feed") == 152)
        #expect(try FeedExtractor.latestPage(in: Array(comic.feedRSS2(origin: origin).utf8), feedURL: "feed") == 152)
    }

    @Test(arguments: ["", "not xml at all", "<html><body>an HTML page</body></html>", "<rss version='2.0'><channel></channel></rss>",
                      "<?xml version='1.0'?><!DOCTYPE r [<!ENTITY a 'page-5.html'>]><rss><channel><item><link>&a;</link></item></channel></rss>"])
    func badFeedsAreErrors(_ xml: String) {
        #expect(throws: SiteError.self) { try FeedExtractor.latestPage(in: Array(xml.utf8), feedURL: "feed") }
    }

    @Test func urlsResolveAgainstThePage() {
        let base = "https://www.dragonball-multiverse.com/en/chapters.html?comic=page"
        #expect(SiteURL.resolve("/en/image.php?x=1", against: base) == "https://www.dragonball-multiverse.com/en/image.php?x=1")
        #expect(SiteURL.resolve("img/a.png", against: base) == "https://www.dragonball-multiverse.com/en/img/a.png")
        #expect(SiteURL.resolve("//cdn.example/a.png", against: base) == "https://cdn.example/a.png")
        #expect(SiteURL.resolve("javascript:alert(1)", against: base) == nil)
        #expect(SiteURL.resolve("data:image/png;base64,AAAA", against: base) == nil)
        #expect(SiteURL.pageNumber(inLink: "/en/page-42.html#top") == 42)
        #expect(SiteURL.pageNumber(inLink: "page-042.html") == nil)
        #expect(SiteURL.pageNumber(inLink: "page-.html") == nil)
    }

    @Test func fullSizeListParses() throws {
        let comic = FixtureComic.fullSize
        let chapters = try ChapterListExtractor.chapters(in: Array(comic.chapterListHTML().utf8), pageURL: pageURL)
        #expect(chapters.count == comic.chapters.count)
        #expect(chapters.last?.universe == 20)
    }
}
