// libFuzzer target `chapterjson` (scripts/dev/fuzz.sh): `currentChapterData.json` content.
//
// Built together with Sources/ComicDomain into one module, so internal API is in reach (the
// JSON parser is its own module). Invariants, checked with preconditions so libFuzzer reports a
// violation as a crash:
// decoding never traps; accepted chapter data is within the docs/storage.md ranges (a special's with its
// page, the main story's universe stored as none) and survives
// encodeJSON → decode unchanged; any parsed JSON value survives serialized → parse unchanged.

import JSON

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    checkJSONRoundTrip(bytes)
    guard let chapter = try? ChapterData.decode(bytes) else { return 0 }
    precondition(Limits.chapters.contains(chapter.number), "number \(chapter.number) out of range")
    precondition(Limits.progress.contains(chapter.progress), "progress \(chapter.progress) out of range")
    precondition(Limits.nameLength.contains(chapter.name.count), "name of \(chapter.name.count) characters")
    precondition(!chapter.name.utf8.contains(0) && !chapter.coverImagePath.utf8.contains(0), "NUL accepted")
    if let page = chapter.page { precondition(Limits.pages.contains(page), "page \(page) out of range") }
    if let language = chapter.language { precondition(SiteLanguage(code: language) != nil, "language \(language) accepted") }
    if let universe = chapter.universe {
        precondition(universe != 0 && Limits.universes.contains(universe), "universe \(universe) kept")
        precondition(chapter.page != nil, "a special's chapter without its page")
    }
    let encoded = chapter.encodeJSON()
    let again: ChapterData
    do { again = try ChapterData.decode(encoded) } catch {
        preconditionFailure("re-encoded chapter data does not decode: \(error); \(String(decoding: encoded, as: UTF8.self))")
    }
    precondition(again == chapter, "round trip changed \(chapter) into \(again)")
    precondition(again.encodeJSON() == encoded, "encoding is not stable")
    return 0
}

/// Whatever parses serialises to JSON that parses to the same value.
func checkJSONRoundTrip(_ bytes: [UInt8]) {
    guard let value = try? JSONValue.parse(bytes) else { return }
    let text = value.serialized()
    let again: JSONValue
    do { again = try JSONValue.parse(text) } catch {
        preconditionFailure("serialised JSON does not parse: \(error)")
    }
    precondition(again == value, "JSON round trip changed the value")
}
