// libFuzzer target `deeplink` (scripts/dev/fuzz.sh): DeepLink.parse and ComicLink on arbitrary bytes.
//
// Built together with Sources/ComicDomain into one module, so internal API is in reach.
// Invariants, checked with preconditions so that libFuzzer reports a violation as a crash:
// parsing never traps; an accepted link's `uri` is `dbmultiverse://chapter/[1-9][0-9]{0,4}`,
// parses again to the same chapter, and `DeepLink(parsing:)` agrees with `parse`; ComicLink
// accepts every chapter link DeepLink does, as that chapter, and its page links are
// `dbmultiverse://page/[1-9][0-9]{0,4}` and parse again to the same page.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    // Invalid UTF-8 is decoded leniently (U+FFFD), as a String from the outside world would be.
    let text = String(decoding: bytes, as: UTF8.self)
    check(text)
    // The same bytes after a valid prefix, so mutations explore the path part too.
    check("dbmultiverse://chapter/" + text)
    check("dbmultiverse://page/" + text)
    return 0
}

private func check(_ text: String) {
    let parsed = DeepLink.parse(text)
    let thrown: DeepLink?
    do { thrown = try DeepLink(parsing: text) } catch { thrown = nil }
    switch parsed {
    case .success(let link):
        precondition(thrown == link, "parse and init(parsing:) disagree on \(Array(text.utf8))")
        precondition(Limits.chapters.contains(link.chapter), "chapter \(link.chapter) out of range")
        precondition(isNormalised(link.uri, host: "chapter"), "uri \(link.uri) is not normalised")
        let again: DeepLink
        do { again = try DeepLink(parsing: link.uri) } catch { preconditionFailure("\(link.uri) does not parse again: \(error)") }
        precondition(again.chapter == link.chapter, "\(link.uri) parses to chapter \(again.chapter)")
    case .failure(let failure):
        precondition(thrown == nil, "init(parsing:) accepted what parse rejected: \(Array(text.utf8))")
        precondition(failure.error.kind == .invalidDeepLink, "rejection is not invalidDeepLink")
    }
    let comic: ComicLink?
    do { comic = try ComicLink(parsing: text) } catch {
        precondition(error.kind == .invalidDeepLink, "a ComicLink rejection is not invalidDeepLink")
        comic = nil
    }
    switch comic {
    case .chapter(let link)?:
        precondition(link == thrown, "ComicLink and DeepLink disagree on \(Array(text.utf8))")
    case .page(let page)?:
        precondition(Limits.pages.contains(page), "page \(page) out of range")
        precondition(isNormalised(ComicLink.uri(page: page), host: "page"), "page uri not normalised")
        precondition((try? ComicLink(parsing: ComicLink.uri(page: page))) == .page(page), "page \(page) does not parse again")
    case nil:
        precondition(thrown == nil, "DeepLink accepted what ComicLink rejected: \(Array(text.utf8))")
    }
}

/// `dbmultiverse://<host>/[1-9][0-9]{0,4}`.
private func isNormalised(_ uri: String, host: String) -> Bool {
    let prefix = Array("dbmultiverse://\(host)/".utf8)
    let bytes = Array(uri.utf8)
    guard bytes.starts(with: prefix) else { return false }
    let digits = bytes[prefix.count...]
    guard (1...5).contains(digits.count), let first = digits.first, (0x31...0x39).contains(first) else { return false }
    return digits.allSatisfy { (0x30...0x39).contains($0) }
}
