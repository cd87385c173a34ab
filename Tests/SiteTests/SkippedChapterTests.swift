import ComicDomain
import Site
import Testing

/// A chapter the extractor cannot read is reported with why, not dropped in silence: markup drift
/// would otherwise look like a shorter comic.
@Suite(.timeLimit(.minutes(1))) struct SkippedChapterTests {
    @Test func eachUnreadableChapterIsReportedWithWhy() throws {
        let html = """
            <h1 class='horscadrelect'>DBMultiverse</h1>
            <div class='cadrelect'><h4>Chapter 1: One</h4><p><a href='page-1.html'>1</a> <a href='page-24.html'>24</a></p></div>
            <div class='cadrelect'><h4>Prologue</h4><p><a href='page-25.html'>25</a></p></div>
            <div class='cadrelect'><h4>Chapter 3: Three</h4><p>no links</p></div>
            <div class='cadrelect'><p>a box without a heading is no chapter</p></div>
            """
        var skipped: [String] = []
        let chapters = try ChapterListExtractor.chapters(in: Array(html.utf8), pageURL: "http://127.0.0.1:1/en/chapters.html") {
            skipped.append($0)
        }
        #expect(chapters.map(\.number) == [1])
        #expect(skipped.count == 2, "\(skipped)")
        #expect(skipped.first?.contains(#""Prologue" names no chapter number"#) == true, "\(skipped)")
        #expect(skipped.last?.contains("chapter 3 links to no page-N.html") == true, "\(skipped)")
    }
}
