import ComicDomain
import Testing

@Suite("Widget entry, renderings and --format output", .timeLimit(.minutes(1)))
struct ChapterEntryTests {
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

    @Test func rendersBothFamilies() throws {
        let entry = try entry()
        #expect(entry.rendered(.small) == "Ch. 42 \u{00B7} 35%")
        #expect(entry.rendered(.medium) == "Chapter 42: Goku vs. Goku \u{2014} 35% read")
        let placeholder = ChapterEntry.placeholder(family: .medium, date: 0)
        #expect(placeholder.rendered(.small) == "Read Multiverse Reader")
        #expect(placeholder.rendered(.medium) == "Read Multiverse Reader \u{2014} start with Chapter 1")
    }

    @Test func textFormatIsTheRendering() throws {
        let entry = try entry()
        #expect(entry.formatted(.text, family: .small) == "Ch. 42 · 35%")
        #expect(entry.formatted(.text, family: .medium) == "Chapter 42: Goku vs. Goku — 35% read")
        #expect(EntryFormat.allCases.map(\.rawValue) == ["text", "json", "waybar"])
    }

    @Test func jsonFormatHasExactlyTheEntryKeys() throws {
        let entry = try entry(name: "Say \"hi\"\n", imagePath: "/d/c.jpg")
        #expect(entry.formatted(.json, family: .small)
            == #"{"chapter":42,"name":"Say \"hi\"","progress":35,"image-path":"/d/c.jpg","deep-link":"dbmultiverse://chapter/42","date":1700000000,"family":"small","is-placeholder":false}"#)
        let placeholder = ChapterEntry.placeholder(family: .medium, date: -1)
        #expect(placeholder.formatted(.json, family: .medium)
            == #"{"chapter":1,"name":"A Really Strange Tournament!","progress":0,"image-path":"","deep-link":"dbmultiverse://chapter/1","date":-1,"family":"medium","is-placeholder":true}"#)
    }

    @Test func waybarFormatEscapesForPangoThenJSON() throws {
        let entry = try entry(name: #"Cell & <Bojack> "returns""#, progress: 40)
        #expect(entry.formatted(.waybar, family: .medium)
            == #"{"text":"Ch. 42 · 40%","tooltip":"Chapter 42: Cell &amp; &lt;Bojack&gt; \"returns\" — 40% read","class":"reading","percentage":40}"#)
    }

    @Test func waybarClasses() throws {
        #expect(try entry(progress: 100).formatted(.waybar, family: .small).contains(#""class":"finished","percentage":100"#))
        #expect(try entry(progress: 0).formatted(.waybar, family: .small).contains(#""class":"reading","percentage":0"#))
        let placeholder = ChapterEntry.placeholder(family: .small, date: 0).formatted(.waybar, family: .small)
        #expect(placeholder == #"{"text":"Read Multiverse Reader","tooltip":"Read Multiverse Reader — start with Chapter 1","class":"placeholder","percentage":0}"#)
    }

    @Test func formattedOutputIsOneLine() throws {
        let entry = try entry(name: "two\nlines\r\u{2028}x")
        for format in EntryFormat.allCases where format != .text {
            let line = entry.formatted(format, family: .medium)
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
