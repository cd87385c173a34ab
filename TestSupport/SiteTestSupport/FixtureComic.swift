/// The comic as the fixture site publishes it: chapters with page ranges (main story and
/// specials), written out as the site's markup in each variant docs/usage.md#the-comics-site lists. The markup
/// follows what three readers of the real site parse (the iOS app's ComicHTMLParser: sections
/// `h1.horscadrelect`, `.cadrelect` siblings, `h4`, `p a`, first `img`; Komikku's dbmultiverse
/// server: `div.chapter`, page `img#balloonsimg` or `div#balloonsimg` with a style `url(…)`;
/// Mihon's extension: `div.cadrelect.chapters[ch]` with page-number links).
package struct FixtureComic: Sendable {
    package struct Chapter: Sendable, Equatable {
        package var number: Int
        package var name: String
        package var startPage: Int
        package var endPage: Int
        /// nil: the main story.
        package var universe: Int?

        package init(number: Int, name: String, startPage: Int, endPage: Int, universe: Int? = nil) {
            self.number = number
            self.name = name
            self.startPage = startPage
            self.endPage = endPage
            self.universe = universe
        }
    }

    package enum ChapterListVariant: String, Sendable, CaseIterable {
        /// `div.cadrelect.chapters[ch]` after `h1.horscadrelect` headings, as today.
        case current
        /// `div.chapter` only (what Komikku selects).
        case chapterClass
        /// Whitespace and line breaks everywhere, entities, unclosed tags, extra chrome (a
        /// `div.horscadrelect` box, `cadrelectx` and `chapters-nav` classes that are not chapters),
        /// a double page "46-47" closing a chapter.
        case drift
    }

    package enum PageVariant: String, Sendable, CaseIterable {
        /// `<div id="balloonsimg"><img src=…></div>` (2025 on).
        case imageInside
        /// `<img id="balloonsimg" src=…>`.
        case imageWithID
        /// `<div id="balloonsimg" style="background-image:url(…)">`.
        case divStyle
    }

    package var chapters: [Chapter]
    package var latestPage: Int

    package init(chapters: [Chapter], latestPage: Int? = nil) {
        self.chapters = chapters
        self.latestPage = latestPage ?? chapters.map(\.endPage).max() ?? 1
    }

    /// A small comic: five main-story chapters (names with `&`, `<`, accents and Japanese), two of
    /// Special Universe 3 and one of Broly. Pages are numbered in the order they were published,
    /// specials included: the specials came out between chapters 4 and 5, so the main story holds
    /// pages 1–96 and 129–152, the specials 97–128, and the latest page is chapter 5's last.
    package static let small = FixtureComic(chapters: [
        Chapter(number: 1, name: "A Really Strange Tournament!", startPage: 1, endPage: 24),
        Chapter(number: 2, name: "Vegeta & <Goku>", startPage: 25, endPage: 48),
        Chapter(number: 3, name: "Végéta contre l'Univers", startPage: 49, endPage: 72),
        Chapter(number: 4, name: "超サイヤ人の戦い", startPage: 73, endPage: 96),
        Chapter(number: 5, name: "The Tournament Goes On", startPage: 129, endPage: 152),
        Chapter(number: 1, name: "The Special Begins", startPage: 97, endPage: 106, universe: 3),
        Chapter(number: 2, name: "The Special Ends", startPage: 107, endPage: 116, universe: 3),
        Chapter(number: 1, name: "Broly's Return", startPage: 117, endPage: 128, universe: 20),
    ])

    /// About as large as the real chapter list: 100 main-story chapters of 24 pages, and
    /// specials (universes 3, 16 and Broly's) of five chapters each.
    package static let fullSize: FixtureComic = {
        var chapters: [Chapter] = (1...100).map {
            Chapter(number: $0, name: "Chapter Name Number \($0): the Tournament Goes On", startPage: ($0 - 1) * 24 + 1, endPage: $0 * 24)
        }
        for (index, universe) in [3, 16, 20].enumerated() {
            let base = 10_000 + index * 1000
            chapters += (1...5).map { Chapter(number: $0, name: "Special Chapter \($0)", startPage: base + ($0 - 1) * 20 + 1, endPage: base + $0 * 20, universe: universe) }
        }
        return FixtureComic(chapters: chapters)
    }()

    /// The comic with `count` more pages published in its last main-story chapter.
    package func publishing(_ count: Int) -> FixtureComic {
        var next = self
        if let last = next.chapters.lastIndex(where: { $0.universe == nil }) {
            next.chapters[last].endPage += count
        }
        next.latestPage = latestPage + count
        return next
    }

    // MARK: Markup

    package func chapterListHTML(_ variant: ChapterListVariant = .current, language: String = "en") -> String {
        var html = """
            <!DOCTYPE html>
            <html><head><meta charset="utf-8"><title>Dragon Ball Multiverse - chapters</title>
            <link rel="stylesheet" href="/style.css"></head>
            <body><div id="menu"><a href="/\(language)/news.html">News</a> <a href="/\(language)/page-1.html">Read</a></div>
            <div id="content">

            """
        if variant == .drift {
            html += """
                <div class="horscadrelect">Welcome box, not a chapter: <a href="page-999.html">999</a></div>
                <h1>Site title heading, not a section</h1>
                <div class="cadrelect"><h4>Chapter 77: before any section</h4><p><a href="page-900.html">900</a></p></div>

                """
        }
        let sections: [(title: String, universe: Int?)] = [("DBMultiverse", nil)]
            + Set(chapters.compactMap(\.universe)).sorted().map { ($0 == 20 ? "Broly: the special" : "Special Universe \($0)", $0) }
        for section in sections {
            html += variant == .drift
                ? "<h1 class=\"  horscadrelect   big\">\n   \(section.title)\n</h1>\n<div class=\"cadrelectx\"><h4>Chapter 901: not a chapter</h4><p><a href=\"page-9001.html\">9001</a></p></div>\n"
                : "<h1 class=\"horscadrelect\">\(section.title)</h1>\n"
            for chapter in chapters where chapter.universe == section.universe {
                html += chapterHTML(chapter, variant: variant, language: language)
            }
        }
        if variant == .drift { html += "<div class=\"chapters-nav\"><h4>Chapter 500: navigation</h4><p><a href=\"page-5000.html\">5000</a></p></div>\n" }
        return html + "</div>\n<div id=\"footer\">&copy; DBM</div></body></html>\n"
    }

    private func chapterHTML(_ chapter: Chapter, variant: ChapterListVariant, language: String) -> String {
        let pages = Array(chapter.startPage...chapter.endPage)
        let thumbnail = "/images/thumb-\(chapter.startPage).jpg"
        switch variant {
        case .current:
            let links = pages.map { "<a href=\"page-\($0).html\">\($0)</a>" }.joined(separator: " ")
            return "<div class=\"cadrelect chapters\" ch=\"\(chapter.number)\"><a href=\"chapters.html?chapter=\(chapter.number)\"><img src=\"\(thumbnail)\" alt=\"\"></a>"
                + "<h4>Chapter \(chapter.number): \(escaped(chapter.name))</h4><p>\(links)</p></div>\n"
        case .chapterClass:
            let links = pages.map { "<a href=\"/\(language)/page-\($0).html\">\($0)</a>" }.joined(separator: "\n")
            return "<div class=\"chapter\" ch=\"page\(chapter.number)\"><img src=\"\(thumbnail)\"><h4>Chapter \(chapter.number): \(escaped(chapter.name))</h4><p>\(links)</p></div>\n"
        case .drift:
            // The last two pages as one double-page link; every other chapter left unclosed.
            var links = pages.dropLast(2).map { "<a href=\"page-\($0).html\">\n \($0) </a>" }
            if pages.count >= 2 {
                links.append("<a href=\"page-\(pages[pages.count - 2]).html\">\(pages[pages.count - 2])-\(pages[pages.count - 1])</a>")
            } else {
                links.append("<a href=\"page-\(pages[0]).html\">\(pages[0])</a>")
            }
            let close = chapter.number % 2 == 0 ? "" : "</div>"
            return "<div ch=\"\(chapter.number)\" class=\"chapters   cadrelect\" >\n  <img src='\(thumbnail)'>\n  <h4>\n    Chapter&nbsp;\(chapter.number) :   \(entityEscaped(chapter.name))\n  </h4>\n  <p class=\"pages\">\(links.joined(separator: "&nbsp;|"))\n  </p>\(close)\n"
        }
    }

    package func pageHTML(_ page: Int, _ variant: PageVariant = .imageInside, language: String = "en") -> String {
        let image = "/images/page-\(page).png"
        let body = switch variant {
        case .imageInside: "<div id=\"balloonsimg\"><img src=\"\(image)\" alt=\"page \(page)\"></div>"
        case .imageWithID: "<img id=\"balloonsimg\" src=\"\(image)\" alt=\"page \(page)\">"
        case .divStyle: "<div id=\"balloonsimg\" style=\"width:800px;background-image:url('\(image)');\"></div>"
        }
        return """
            <!DOCTYPE html><html><head><meta charset="utf-8"><title>Page \(page)</title>
            <link rel="First" href="/\(language)/page-1.html"><link rel="Last" href="/\(language)/page-\(latestPage).html">
            </head><body><div id="h_read">\(body)</div></body></html>

            """
    }

    /// RSS 1.0 (RDF), as the site's `flux.rss.php`: the last `count` pages, newest first.
    package func feedRSS1(origin: String, language: String = "en", count: Int = 5) -> String {
        let pages = (max(1, latestPage - count + 1)...latestPage).reversed()
        return """
            <?xml version="1.0" encoding="utf-8"?>
            <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
            <channel rdf:about="\(origin)/\(language)/news.html"><title>Dragon Ball Multiverse</title><link>\(origin)/</link>
            <items><rdf:Seq>\(pages.map { "<rdf:li rdf:resource=\"\(origin)/\(language)/page-\($0).html\"/>" }.joined())</rdf:Seq></items></channel>
            \(pages.map { "<item rdf:about=\"\(origin)/\(language)/page-\($0).html\"><title>Page \($0) &amp; more</title><link>\(origin)/\(language)/page-\($0).html</link></item>" }.joined(separator: "\n"))
            </rdf:RDF>

            """
    }

    /// RSS 2.0 with the same items.
    package func feedRSS2(origin: String, language: String = "en", count: Int = 5) -> String {
        let pages = (max(1, latestPage - count + 1)...latestPage).reversed()
        return """
            <?xml version="1.0" encoding="utf-8"?>
            <rss version="2.0"><channel><title>Dragon Ball Multiverse</title><link>\(origin)/</link>
            \(pages.map { "<item><title>Page \($0)</title><link><![CDATA[\(origin)/\(language)/page-\($0).html]]></link><guid>\(origin)/\(language)/page-\($0).html</guid></item>" }.joined(separator: "\n"))
            </channel></rss>

            """
    }

    private func escaped(_ text: String) -> String {
        text.replacingAll("&", with: "&amp;").replacingAll("<", with: "&lt;").replacingAll(">", with: "&gt;")
    }

    /// Escaped with numeric entities for every non-ASCII character, as older pages did.
    private func entityEscaped(_ text: String) -> String {
        escaped(text).unicodeScalars.map { $0.isASCII ? String($0) : "&#\($0.value);" }.joined()
    }
}

extension String {
    func replacingAll(_ target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
