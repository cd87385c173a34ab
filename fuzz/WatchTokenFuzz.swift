// libFuzzer target `watchtoken` (scripts/dev/fuzz.sh): the watch long-poll's token — the check of a
// `--after TOKEN` argument (`EntryView.isToken`) and the token a view gets (its revision,
// Sources/Widget/EntryView.swift) — and `displayLine`, the text outputs' sanitiser.
//
// The input is a token candidate and a chapter name. Invariants, checked with preconditions so
// that libFuzzer reports a violation as a crash: `isToken` accepts exactly 16 lowercase hex
// digits; every entry's token is one, is the same for entries that differ only in their date, and
// appears in its `nextJSON`; `displayLine` output holds no line break, control or bidi override,
// and leaves safe text unchanged.
import ComicDomain

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let split = bytes.firstIndex(of: 0x0A) ?? bytes.count
    let candidate = String(decoding: bytes[..<split], as: UTF8.self)
    let expected = candidate.utf8.count == 16 && candidate.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    precondition(EntryView.isToken(candidate) == expected, "isToken(\(Array(candidate.utf8))) is wrong")

    let name = String(decoding: bytes[min(split + 1, bytes.count)...].filter { $0 != 0 }, as: UTF8.self)
    let line = displayLine(name)
    precondition(line.unicodeScalars.allSatisfy(isSafe), "displayLine left a control: \(Array(line.unicodeScalars))")
    if name.unicodeScalars.allSatisfy(isSafe) { precondition(line == name, "displayLine changed safe text") }

    let number = bytes.isEmpty ? 1 : Int(bytes[0]) + 1
    let entry = ChapterEntry(chapter: number, name: name, progress: size % 101, imagePath: "", date: Int64(size),
                             family: .medium, isPlaceholder: false, universe: number % 3, latestPage: size, newPages: number % 5)
    var later = entry
    later.date += 3600
    // Building the view is the most costly step here: the small family's is checked on a quarter
    // of the inputs only.
    let view = EntryView(entry), token = view.token
    precondition(EntryView.isToken(token), "token \(token) has not a token's form")
    precondition(EntryView(later).token == token, "the date changed the token")
    precondition(view.nextJSON(family: .medium).hasSuffix(",\"token\":\"\(token)\"}"), "nextJSON does not end with its token")
    if size % 4 == 0 {
        var small = entry
        small.family = .small
        precondition(EntryView(small).token == token, "the family changed the token")
    }
    return 0
}

/// What may appear on a line of text output (`displayLine`'s rule).
func isSafe(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00...0x1F, 0x7F...0x9F, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069: false
    default: true
    }
}
