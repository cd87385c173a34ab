// libFuzzer target `entrydict` (scripts/dev/fuzz.sh): the widget entry's `a{sv}` as a client reads it
// (`EntryView(dbusDictionary:)`, the keys of Sources/Widget/EntryKeys.swift) and every output
// made from what it reads (EntryFormat, the watch token).
//
// The input is a small program that builds the dictionary: records of a key byte (one of the
// entry's keys, or a name from the input), a type byte (s, i, x, b, y, u, d, as, a{sv}) and a
// value from the following bytes. Invariants, checked with preconditions so that libFuzzer reports
// a violation as a crash: nothing traps; an entry that decodes re-encodes to a dictionary that
// decodes (and, once re-encoded, round-trips exactly); its token has a token's form; the text and
// Waybar outputs are one line without control characters or bidi overrides. The program starts
// from the placeholder's published dictionary (a client refuses an entry without every key of the
// view), so that most inputs reach the outputs.
import ComicDomain
import DBus

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    var input = Input(bytes: Array(UnsafeBufferPointer(start: data, count: size)))
    var dictionary = EntryView.placeholder(family: .medium, date: 0).dbusDictionary
    let names = EntryKeys.all.map(\.name)
    while !input.isEmpty, dictionary.count < 64 {
        let keyByte = input.byte()
        let key = Int(keyByte) < names.count * 2 ? names[Int(keyByte) % names.count] : input.text()
        dictionary[key] = input.variant(depth: 0)
    }
    guard let decoded = try? EntryView(dbusDictionary: dictionary) else { return 0 }
    // What a client keeps of a foreign dictionary is one encoding away from stable: a page link in
    // the main story sets `page`, which only a special's link carries again (the first round trip
    // drops it). From there on, encoding and decoding give the same entry.
    let entry: EntryView, again: EntryView
    do {
        entry = try EntryView(dbusDictionary: decoded.dbusDictionary)
        again = try EntryView(dbusDictionary: entry.dbusDictionary)
    } catch {
        preconditionFailure("re-encoded entry rejected: \(error)")
    }
    precondition(again == entry, "the entry does not round-trip: \(entry) vs \(again)")
    for family in [WidgetFamily.small, .medium] {
        precondition(EntryView.isToken(entry.token), "token \(entry.token)")
        precondition(entry.nextJSON(family: family).hasSuffix("\"token\":\"\(entry.token)\"}"), "nextJSON")
        for format in [EntryFormat.text, .waybar] {
            let line = entry.formatted(format, family: family)
            precondition(line.unicodeScalars.allSatisfy(isSafe), "\(format) output holds a control: \(Array(line.unicodeScalars))")
        }
        precondition(!entry.formatted(.json, family: family).contains("\n"), "JSON output spans lines")
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

/// Reads the input front to back; past its end every read is zero.
struct Input {
    var bytes: [UInt8]
    var index = 0
    var isEmpty: Bool { index >= bytes.count }

    mutating func byte() -> UInt8 {
        defer { index += 1 }
        return index < bytes.count ? bytes[index] : 0
    }

    mutating func integer<T: FixedWidthInteger>(_: T.Type) -> T {
        var value: T = 0
        for _ in 0..<MemoryLayout<T>.size { value = value << 8 | T(truncatingIfNeeded: byte()) }
        return value
    }

    /// A length byte, then that many bytes as UTF-8 (invalid sequences decoded leniently, as the
    /// bus never delivers them), without NUL (D-Bus strings cannot carry it).
    mutating func text() -> String {
        let count = Int(byte())
        var scalars: [UInt8] = []
        for _ in 0..<count where !isEmpty { scalars.append(byte()) }
        return String(decoding: scalars.filter { $0 != 0 }, as: UTF8.self)
    }

    mutating func variant(depth: Int) -> Variant {
        switch byte() % (depth < 2 ? 9 : 8) {
        case 0: return Variant(text())
        case 1: return Variant(integer(Int32.self))
        case 2: return Variant(integer(Int64.self))
        case 3: return Variant(byte() & 1 == 1)
        case 4: return Variant(byte())
        case 5: return Variant(integer(UInt32.self))
        case 6: return Variant(Double(bitPattern: integer(UInt64.self)))
        case 7: return Variant((0..<Int(byte() % 4)).map { _ in text() })
        default:
            var nested: [String: Variant] = [:]
            for _ in 0..<Int(byte() % 4) { nested[text()] = variant(depth: depth + 1) }
            return Variant(nested)
        }
    }
}
