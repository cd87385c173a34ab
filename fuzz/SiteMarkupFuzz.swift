// libFuzzer target `sitemarkup` (scripts/dev/fuzz.sh): the site's extractors and the catalogue reader
// on arbitrary bytes. The first byte picks the reader (mod 4): the chapter list, a comic page,
// the feed (libxml2's HTML and XML parsers, loaded with dlopen as in the program), or the
// catalogue file's JSON; the rest is the document.
//
// Built together with Sources/Site into one module (ComicDomain as its own), so internal API is
// in reach. Invariants, checked with preconditions so that libFuzzer reports a violation as a
// crash: nothing traps; every chapter read is in range with start ≤ end; page numbers are in
// 1…99999; a catalogue that decodes encodes and decodes to itself.
@testable import ComicDomain

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    let url = "https://www.dragonball-multiverse.com/en/chapters.html?comic=page&chaptersmode=1"
    switch data[0] % 4 {
    case 0:
        guard let chapters = try? ChapterListExtractor.chapters(in: bytes, pageURL: url) else { return 0 }
        precondition(!chapters.isEmpty, "an empty chapter list was accepted")
        for chapter in chapters {
            precondition(Limits.chapters.contains(chapter.number), "chapter \(chapter.number) out of range")
            precondition(chapter.startPage <= chapter.endPage && Limits.pages.contains(chapter.startPage) && Limits.pages.contains(chapter.endPage),
                         "pages \(chapter.startPage)–\(chapter.endPage)")
            // Schemes are case-insensitive (RFC 3986): "Https://…" is an https address, kept as written.
            precondition(chapter.thumbnailURL.isEmpty || chapter.thumbnailURL.lowercased().hasPrefix("http"), "thumbnail \(chapter.thumbnailURL)")
        }
    case 1:
        guard let page = try? PageExtractor.page(in: bytes, pageURL: "https://www.dragonball-multiverse.com/en/page-3.html") else { return 0 }
        precondition(page.latestPage.map { Limits.pages.contains($0) } ?? true, "latest page \(String(describing: page.latestPage))")
        precondition(page.imageURL.map { $0.lowercased().hasPrefix("http") } ?? true, "image \(String(describing: page.imageURL))")
    case 2:
        guard let latest = try? FeedExtractor.latestPage(in: bytes, feedURL: "feed") else { return 0 }
        precondition(Limits.pages.contains(latest), "latest page \(latest)")
    default:
        guard let catalogue = try? Catalogue.decode(bytes, language: .english) else { return 0 }
        let again: Catalogue
        do { again = try Catalogue.decode(catalogue.encodeJSON(), language: .english) } catch { preconditionFailure("re-encoded catalogue rejected: \(error)") }
        precondition(again == catalogue, "the catalogue does not round-trip")
    }
    return 0
}
