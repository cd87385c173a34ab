import ComicDomain
@testable import Widget
import Testing

@Suite("Widget entry, renderings and --format output", .timeLimit(.minutes(1)))
struct ChapterEntryTests {
    /// Where a catalogue came from (as ComicDomainTests' CatalogueTests have it); the entry shows none of it.
    static let fetch = Catalogue.FetchMetadata(url: "https://www.dragonball-multiverse.com/en/chapters.html?comic=page&chaptersmode=1",
                                               etag: "W/\"5e1\"", lastModified: nil, fetchedAt: 1_795_323_865)

    private func entry(chapter: Int = 42, name: String = "Goku vs. Goku", progress: Int = 35, imagePath: String = "") throws -> ChapterEntry {
        let data = try ChapterData(validatingNumber: chapter, name: name, progress: progress, page: 980, language: "fr")
        return ChapterEntry(data: data, imagePath: imagePath, family: .medium, date: 1_700_000_000)
    }

    @Test func entryFromChapterData() throws {
        let entry = try entry(imagePath: "/data/chapterCoverImage.jpg")
        #expect(entry.chapter == 42)
        #expect(entry.name == "Goku vs. Goku")
        #expect(entry.progress == 35)
        #expect(entry.imagePath == "/data/chapterCoverImage.jpg")
        #expect(entry.date == 1_700_000_000)
        #expect(entry.family == .medium)
        #expect(!entry.isPlaceholder)
        #expect(entry.page == 980)
        #expect(entry.language == "fr")
        #expect(entry.deepLink == "dbmultiverse://chapter/42")
    }

    @Test func placeholderMatchesTheContract() {
        let placeholder = ChapterEntry.placeholder(family: .small, date: 5)
        #expect(placeholder.chapter == 1)
        #expect(placeholder.name == "A Really Strange Tournament!")
        #expect(placeholder.progress == 0)
        #expect(placeholder.imagePath == "")
        #expect(placeholder.deepLink == "dbmultiverse://chapter/1")
        #expect(placeholder.isPlaceholder)
        #expect(placeholder.family == .small)
        #expect(placeholder.date == 5)
    }

    @Test func thePanelTextAndTheTooltip() throws {
        let entry = try entry()
        #expect(entry.view.panelText == "Ch. 42 \u{00B7} 35%")
        #expect(entry.view.tooltip == "Chapter 42: Goku vs. Goku \u{2014} 35% read")
        let placeholder = ChapterEntry.placeholder(family: .medium, date: 0)
        #expect(placeholder.view.panelText == "Read Multiverse Reader")
        #expect(placeholder.view.tooltip == "Read Multiverse Reader \u{2014} start with Chapter 1")
    }

    @Test func textFormatIsThePanelTextOrTheTooltip() throws {
        let entry = try entry()
        #expect(entry.view.formatted(.text, family: .small) == "Ch. 42 · 35%")
        #expect(entry.view.formatted(.text, family: .medium) == "Chapter 42: Goku vs. Goku — 35% read")
        #expect(EntryFormat.allCases.map(\.rawValue) == ["text", "json", "waybar"])
    }

    @Test func jsonFormatHasExactlyTheEntryKeys() throws {
        let entry = try entry(name: "Say \"hi\"\n", imagePath: "/d/c.jpg")
        #expect(entry.view.formatted(.json, family: .small)
            == #"{"chapter":42,"name":"Say \"hi\"","progress":35,"image-path":"/d/c.jpg","deep-link":"dbmultiverse://chapter/42","date":1700000000,"family":"small","is-placeholder":false,"universe":0,"latest-page":0,"new-pages":0,"next-chapter":0,"first-unread-page":0,"next-chapter-name":"","continued-on":"","panel-text":"Ch. 42 · 35%","title":"Chapter 42","progress-text":"35% read","new-pages-text":"","actions":[{"label":"Continue reading","action":"open-current"},{"label":"Chapter list","action":"open-chapter-list"}],"state":"reading","tooltip":"Chapter 42: Say \"hi\" — 35% read","chapter-notification":{"summary":"Chapter 42: Say \"hi\"","body":"35% read","action":{"label":"Continue reading","action":"open-current"}},"new-pages-notification":null,"revision":\#(entry.view.revision)}"#, "no catalogue: no next chapter to offer")
        let placeholder = ChapterEntry.placeholder(family: .medium, date: -1)
        #expect(placeholder.view.formatted(.json, family: .medium)
            == #"{"chapter":1,"name":"A Really Strange Tournament!","progress":0,"image-path":"","deep-link":"dbmultiverse://chapter/1","date":-1,"family":"medium","is-placeholder":true,"universe":0,"latest-page":0,"new-pages":0,"next-chapter":0,"first-unread-page":0,"next-chapter-name":"","continued-on":"","panel-text":"Read Multiverse Reader","title":"Read Multiverse Reader","progress-text":"","new-pages-text":"","actions":[{"label":"Start reading","action":"open-chapter","parameter":1}],"state":"placeholder","tooltip":"Read Multiverse Reader — start with Chapter 1","chapter-notification":null,"new-pages-notification":null,"revision":\#(placeholder.view.revision)}"#)
    }

    // MARK: New pages and specials (docs/notifications.md, docs/usage.md#the-comics-site)

    /// Chapter 42 on page 980 (en), with the catalogue's latest page at 983.
    private func readingWithNewPages(page: Int = 980, universe: Int? = nil, latestPage: Int = 983) throws -> ChapterEntry {
        let data = try ChapterData(validatingNumber: universe == nil ? 42 : 1, name: "Vegeta", progress: 35, page: page,
                                   language: "en", universe: universe)
        let catalogue = try Catalogue(language: .english, chapters: [
            Catalogue.Chapter(number: 42, name: "Vegeta", startPage: 961, endPage: 983, universe: nil, thumbnailURL: ""),
            Catalogue.Chapter(number: 1, name: "Special", startPage: 500, endPage: 520, universe: 3, thumbnailURL: ""),
        ], latestPage: latestPage, fetch: Self.fetch)
        return ChapterEntry(data: data, imagePath: "", family: .medium, date: 0, catalogue: catalogue)
    }

    @Test func newPagesShowInTheSmallRenderingTheJSONAndTheWaybarClass() throws {
        let entry = try readingWithNewPages()
        #expect(entry.latestPage == 983 && entry.newPages == 3 && entry.universe == 0)
        #expect(entry.view.panelText == "Ch. 42 \u{00B7} 35% \u{00B7} 3 new")
        #expect(entry.view.tooltip == "Chapter 42: Vegeta \u{2014} 35% read", "the medium rendering does not change")
        #expect(entry.view.formatted(.json, family: .small).contains(#""is-placeholder":false,"universe":0,"latest-page":983,"new-pages":3,"next-chapter":0,"first-unread-page":981,"next-chapter-name":"","continued-on":"","panel-text":"Ch. 42 · 35% · 3 new","#), "the catalogue has no chapter 43")
        #expect(entry.view.formatted(.waybar, family: .small)
            == #"{"text":"Ch. 42 · 35% · 3 new","tooltip":"Chapter 42: Vegeta — 35% read","class":"new-pages","percentage":35}"#)
        // Caught up: no count, the usual class.
        let caughtUp = try readingWithNewPages(page: 983)
        #expect(caughtUp.newPages == 0 && caughtUp.view.panelText == "Ch. 42 \u{00B7} 35%" && caughtUp.view.state == .reading)
    }

    @Test func withoutACatalogueOrAPageNothingIsNew() throws {
        let noCatalogue = try entry()
        #expect(noCatalogue.latestPage == 0 && noCatalogue.newPages == 0)
        let catalogue = try Catalogue(language: .english, chapters: [
            Catalogue.Chapter(number: 42, name: "Vegeta", startPage: 961, endPage: 983, universe: nil, thumbnailURL: ""),
        ], latestPage: 990, fetch: Self.fetch)
        let noPage = ChapterEntry(data: try ChapterData(validatingNumber: 42, name: "V", progress: 1), imagePath: "", family: .small,
                                  date: 0, catalogue: catalogue)
        #expect(noPage.latestPage == 990 && noPage.newPages == 0, "no page: unknown")
    }

    @Test func aRollbackPastTheReaderNeverCountsNegative() throws {
        let rolledBack = try readingWithNewPages(page: 983, latestPage: 975)
        #expect(rolledBack.latestPage == 983, "the catalogue's latest page is at least its last chapter page")
        let ahead = try readingWithNewPages(page: 990)
        #expect(ahead.newPages == 0 && ahead.view.state == .reading)
    }

    @Test func inASpecialTheDeepLinkIsThePageAndNothingIsNew() throws {
        let special = try readingWithNewPages(page: 510, universe: 3)
        #expect(special.universe == 3 && special.newPages == 0 && special.latestPage == 983)
        #expect(special.deepLink == "dbmultiverse://page/510")
        #expect(special.view.formatted(.json, family: .medium).contains(#""deep-link":"dbmultiverse://page/510""#))
        #expect(special.view.formatted(.json, family: .medium).contains(#""universe":3,"latest-page":983,"new-pages":0,"next-chapter":0,"first-unread-page":0,"next-chapter-name":"","#))
    }

    /// What the view's actions open: the next main-story chapter when the catalogue has it, and the
    /// first unread page while there are new pages.
    @Test func theNextChapterAndTheFirstUnreadPage() throws {
        #expect(try entry().nextChapter == 0, "no catalogue: nothing says chapter 43 exists")
        #expect(try readingWithNewPages().nextChapter == 0, "the catalogue ends at chapter 42")
        #expect(ChapterEntry.placeholder(family: .small, date: 0).nextChapter == 0)
        #expect(try readingWithNewPages(page: 510, universe: 3).nextChapter == 0, "a special's numbers are not the main story's")
        #expect(try readingWithNewPages().firstUnreadPage == 981)
        #expect(try readingWithNewPages(page: 983).firstUnreadPage == 0, "caught up")
    }

    /// Chapter 42 ends on page 983; a special (pages 984–990) was published before chapter 43
    /// (991–1000): the first unread page after 983 is 991, not latest − new + 1 = 984.
    @Test func theFirstUnreadPageSkipsASpecialPublishedAmongTheNewPages() throws {
        let catalogue = try Catalogue(language: .english, chapters: [
            Catalogue.Chapter(number: 42, name: "Vegeta", startPage: 961, endPage: 983, universe: nil, thumbnailURL: ""),
            Catalogue.Chapter(number: 1, name: "Broly's Return", startPage: 984, endPage: 990, universe: 20, thumbnailURL: ""),
            Catalogue.Chapter(number: 43, name: "Forty-three", startPage: 991, endPage: 1000, universe: nil, thumbnailURL: ""),
        ], latestPage: 1000, fetch: Self.fetch)
        let data = try ChapterData(validatingNumber: 42, name: "Vegeta", progress: 100, page: 983, language: "en")
        let entry = ChapterEntry(data: data, imagePath: "", family: .medium, date: 0, catalogue: catalogue)
        #expect(entry.newPages == 10 && entry.firstUnreadPage == 991)
        #expect(entry.nextChapter == 43 && entry.nextChapterName == "Forty-three", "the main story's chapter 43, named by the catalogue")
        #expect(entry.view.formatted(.json, family: .medium).contains(#""next-chapter":43,"first-unread-page":991,"next-chapter-name":"Forty-three","#))
        // A special's chapter 1 has no next chapter to name; chapter 43 has none in the list.
        let inSpecial = ChapterEntry(data: try ChapterData(validatingNumber: 1, name: "Broly's Return", progress: 50, page: 985,
                                                           language: "en", universe: 20),
                                     imagePath: "", family: .medium, date: 0, catalogue: catalogue)
        #expect(inSpecial.nextChapterName == "" && inSpecial.firstUnreadPage == 0)
        let last = ChapterEntry(data: try ChapterData(validatingNumber: 43, name: "Forty-three", progress: 10, page: 991, language: "en"),
                                imagePath: "", family: .medium, date: 0, catalogue: catalogue)
        #expect(last.nextChapter == 0 && last.nextChapterName == "", "after the last published chapter: no next chapter")
    }

    /// A page past the stored list is published: the entry's latest page is at least the reader's,
    /// so the reload for that page is right before the newer list is stored (one route: the call).
    @Test func theLatestPageIsNeverBelowThePageBeingRead() throws {
        let ahead = try readingWithNewPages(page: 990)
        #expect(ahead.latestPage == 990 && ahead.newPages == 0 && ahead.firstUnreadPage == 0)
        #expect(try entry().latestPage == 0, "no catalogue: unknown")
    }

    @Test func waybarFormatEscapesForPangoThenJSON() throws {
        let entry = try entry(name: #"Cell & <Bojack> "returns""#, progress: 40)
        #expect(entry.view.formatted(.waybar, family: .medium)
            == #"{"text":"Ch. 42 · 40%","tooltip":"Chapter 42: Cell &amp; &lt;Bojack&gt; \"returns\" — 40% read","class":"reading","percentage":40}"#)
    }

    @Test func waybarClasses() throws {
        #expect(try entry(progress: 100).view.formatted(.waybar, family: .small).contains(#""class":"finished","percentage":100"#))
        #expect(try entry(progress: 0).view.formatted(.waybar, family: .small).contains(#""class":"reading","percentage":0"#))
        let placeholder = ChapterEntry.placeholder(family: .small, date: 0).view.formatted(.waybar, family: .small)
        #expect(placeholder == #"{"text":"Read Multiverse Reader","tooltip":"Read Multiverse Reader — start with Chapter 1","class":"placeholder","percentage":0}"#)
    }

    @Test func formattedOutputIsOneLine() throws {
        let entry = try entry(name: "two\nlines\r\u{2028}x")
        for format in EntryFormat.allCases where format != .text {
            let line = entry.view.formatted(format, family: .medium)
            #expect(!line.contains("\n") && !line.contains("\r") && !line.hasSuffix("\n"))
        }
    }

    @Test func markupEscaping() {
        #expect(escapedForMarkup("a & b < c > d") == "a &amp; b &lt; c &gt; d")
        #expect(escapedForMarkup("&amp;") == "&amp;amp;")
        #expect(escapedForMarkup("&\u{301}") == "&amp;\u{301}", "a combining mark must not hide the ampersand")
        #expect(escapedForMarkup("plain 'quotes' \"stay\"") == "plain 'quotes' \"stay\"")
    }
}
