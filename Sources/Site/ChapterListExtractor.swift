package import ComicDomain

/// Reads the site's chapter list page (docs/usage.md#the-comics-site): section headings `h1.horscadrelect`; after
/// each, the chapters, elements with the class `cadrelect` or `chapter` (whole class tokens); a
/// chapter's first `h4` reads "Chapter 42: Name", its `p a` links go to `page-N.html` (the first
/// and the last give its start and end page), its first `img` is the thumbnail.
///
/// Three independent readers of the site parse it this way (the iOS app, Komikku, Mihon's
/// extension). Markup drifts, so this is lenient where it can be: chapters are found in document
/// order rather than only as direct siblings (an unclosed `div` nests the next chapter inside
/// it, and each is read without its nested ones), page numbers come from the links' targets
/// (their text as a fallback; "46-47" for a double page ends at 47), names without a colon keep
/// their whole heading. A chapter it cannot read (a heading without a number, no page links, a
/// value out of range) is skipped and reported; none at all is a markup change.
package enum ChapterListExtractor {
    /// The chapters in the page's order.
    /// - Parameters:
    ///   - pageURL: where the page came from, for the thumbnails' absolute URLs and messages.
    ///   - skipped: told of each chapter that could not be read, with why (a shorter list may be
    ///     markup drift, not a shorter comic).
    /// - Throws: `unexpectedContent` when no chapter can be read.
    package static func chapters(in html: [UInt8], encoding: String? = nil, pageURL: String,
                                skipped: (String) -> Void = { _ in }) throws(SiteError) -> [Catalogue.Chapter] {
        let document = try MarkupDocument.html(html, encoding: encoding, source: pageURL)
        let isChapter: (MarkupNode) -> Bool = { $0.hasClass("cadrelect") || $0.hasClass("chapter") }
        let expression = "//h1 | //*[\(MarkupDocument.hasClass("cadrelect")) or \(MarkupDocument.hasClass("chapter"))]"
        var universe: Int?? = .none // nil: before any section (or after a heading that is not one)
        var chapters: [Catalogue.Chapter] = []
        for node in document.select(expression) {
            if node.isNamed("h1") {
                universe = node.hasClass("horscadrelect") ? .some(Self.universe(ofSection: node.text())) : .none
                continue
            }
            guard case .some(let sectionUniverse) = universe else { continue }
            switch chapter(node, universe: sectionUniverse, pageURL: pageURL, isChapter: isChapter) {
            case .success(let chapter?): chapters.append(chapter)
            case .success(nil): continue // no heading: not a chapter
            case .failure(let problem): skipped("\(pageURL): skipping a chapter: \(problem.message)")
            }
        }
        guard !chapters.isEmpty else {
            throw SiteError(.unexpectedContent, "\(pageURL): no chapters found in the chapter list (the site's markup may have changed)")
        }
        return chapters
    }

    /// The universe a section heading names: nil for the main story (a title containing
    /// "dbmultiverse", or any title the rules below do not match, as the iOS app reads it),
    /// N for "Special Universe N", 20 for one containing "broly".
    static func universe(ofSection title: String) -> Int? {
        let lower = title.lowercased()
        if lower.contains("dbmultiverse") { return nil }
        let words = lower.split(whereSeparator: { !$0.isLetter && !$0.isNumber })
        for index in words.indices.dropLast(2) where words[index] == "special" && words[index + 1] == "universe" {
            if let number = SiteURL.number(words[index + 2].utf8), Limits.chapters.contains(number) { return number }
        }
        if lower.contains("broly") { return 20 }
        return nil
    }

    /// The chapter `element` holds: nil without an `h4` heading (not a chapter), an error saying
    /// why when it has one but cannot be read.
    private static func chapter(_ element: MarkupNode, universe: Int?, pageURL: String,
                                isChapter: @escaping (MarkupNode) -> Bool) -> Result<Catalogue.Chapter?, ComicError> {
        // Its own content ends where a nested chapter or section starts (an unclosed tag nests
        // them): those are read on their own.
        let ends: (MarkupNode) -> Bool = { $0.isNamed("h1") || isChapter($0) }
        let content = element.descendants(until: ends)
        guard let heading = content.first(where: { $0.isNamed("h4") }) else { return .success(nil) }
        let title = heading.text()
        guard let number = SiteURL.integers(in: title).first, Limits.chapters.contains(number) else {
            return .failure(ComicError(.invalidChapter, "the heading \(quotedForMessage(title)) names no chapter number (\(Limits.chapters.lowerBound)…\(Limits.chapters.upperBound))"))
        }
        let links = content.filter { $0.isNamed("p") }.flatMap { $0.descendants(until: ends).filter { $0.isNamed("a") } }
        guard let first = links.first, let last = links.last,
              let startPage = page(of: first, end: false), let endPage = page(of: last, end: true) else {
            return .failure(ComicError(.invalidPage, "chapter \(number) links to no page-N.html"))
        }
        let thumbnail = content.first(where: { $0.isNamed("img") })?.attribute("src").flatMap { SiteURL.resolve($0, against: pageURL) }
        return Result { () throws(ComicError) in
            try Catalogue.Chapter(number: number, name: name(fromTitle: title, number: number), startPage: startPage,
                                  endPage: max(startPage, endPage), universe: universe, thumbnailURL: thumbnail ?? "")
        }
    }

    /// The page a link goes to; at the end of a chapter, a double page "46-47" counts to 47.
    private static func page(of link: MarkupNode, end: Bool) -> Int? {
        let written = SiteURL.integers(in: link.text(limit: 64)).filter { Limits.pages.contains($0) }
        guard let target = link.attribute("href").flatMap(SiteURL.pageNumber(inLink:)) ?? written.first else { return nil }
        if end, written.count == 2, written[0] == target, (target...target + 4).contains(written[1]) { return written[1] }
        return target
    }

    /// The text after the first colon (also a full-width one), else the whole title; "Chapter N"
    /// when that leaves nothing.
    static func name(fromTitle title: String, number: Int) -> String {
        let colon = title.firstIndex { $0 == ":" || $0 == "：" }
        let name = colon.map { title[title.index(after: $0)...].trimmingWhitespace() } ?? title
        let usable = name.isEmpty ? "Chapter \(number)" : name
        // Names are at most Limits.nameLength characters: a longer heading is cut, not dropped.
        return usable.count > Limits.nameLength.upperBound ? String(usable.prefix(Limits.nameLength.upperBound)) : usable
    }
}
