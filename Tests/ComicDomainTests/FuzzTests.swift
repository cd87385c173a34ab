@testable import ComicDomain
import JSON
import Testing

/// A small deterministic generator (SplitMix64), so every run checks the same inputs.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite("Hostile input never traps", .timeLimit(.minutes(1)))
struct FuzzTests {
    private static let seeds: [[UInt8]] = [
        Array(#"{"number":42,"name":"Goku \"vs\" \u00e9\ud83d\ude00","progress":35,"coverImagePath":"c.jpg","page":3,"language":"en"}"#.utf8),
        Array(#"{"chapter":1,"progress":100}"#.utf8),
        Array(#"[1,-2.5e+3,true,false,null,{"a":[{}]}]"#.utf8),
    ]

    /// Mutated storage documents: the decoders either accept a value within the limits or
    /// throw; whatever parses re-serialises to an equal value.
    @Test func mutatedDocuments() {
        var random = SplitMix64(state: 0xDB_2024)
        let interesting: [UInt8] = Array(#"{}[]",:\u0123456789-+.eE tfn"#.utf8) + [0x00, 0x0A, 0x80, 0xBF, 0xC3, 0xED, 0xF0, 0xF4, 0xFF]
        var accepted = 0
        for _ in 0..<20_000 {
            var bytes = Self.seeds[Int(random.next() % UInt64(Self.seeds.count))]
            for _ in 0...(random.next() % 4) {
                let position = bytes.isEmpty ? 0 : Int(random.next() % UInt64(bytes.count))
                let byte = random.next() % 2 == 0 ? interesting[Int(random.next() % UInt64(interesting.count))] : UInt8(truncatingIfNeeded: random.next())
                switch random.next() % 3 {
                case 0 where !bytes.isEmpty: bytes[position] = byte
                case 1: bytes.insert(byte, at: position)
                default: if !bytes.isEmpty { bytes.remove(at: position) }
                }
            }
            if let value = try? JSONValue.parse(bytes) {
                #expect((try? JSONValue.parse(value.serialized())) == value)
            }
            if let data = try? ChapterData.decode(bytes) {
                accepted += 1
                #expect(Limits.chapters.contains(data.number) && Limits.progress.contains(data.progress))
                #expect(Limits.nameLength.contains(data.name.count))
                #expect((try? ChapterData.decode(data.encodeJSON())) == data)
            }
            if let state = try? SyncState.decode(bytes) {
                #expect(Limits.chapters.contains(state.chapter) && Limits.progress.contains(state.progress))
            }
        }
        #expect(accepted > 0, "some mutations stay valid, so the checks above ran")
    }

    /// Random links over the grammar's alphabet agree with a simple reference definition:
    /// valid exactly when, ASCII-lowercased, the text is the normalised link (plus one "/").
    @Test func randomDeepLinks() {
        var random = SplitMix64(state: 42)
        let pieces = ["dbmultiverse", "DBMultiverse", "chapter", "CHAPTER", ":", "//", "/", "0", "1", "4", "2", "9", "99999", "100000",
                      "?", "#", "@", ":80", " ", "\t", "%34", "-", "+", "٤", "x", ""]
        var valid = 0
        for _ in 0..<20_000 {
            var text = random.next() % 2 == 0 ? "dbmultiverse://chapter/" : ""
            for _ in 0...(random.next() % 5) {
                text += pieces[Int(random.next() % UInt64(pieces.count))]
            }
            let lowered = String(decoding: text.utf8.map { (0x41...0x5A).contains($0) ? $0 + 0x20 : $0 }, as: UTF8.self)
            var expected: Int?
            if lowered.hasPrefix("dbmultiverse://chapter/") {
                var rest = String(lowered.dropFirst("dbmultiverse://chapter/".count))
                if rest.hasSuffix("/") { rest.removeLast() }
                if let number = Int(rest), String(number) == rest, Limits.chapters.contains(number) { expected = number }
            }
            switch DeepLink.parse(text) {
            case .success(let link):
                valid += 1
                #expect(link.chapter == expected, "\(text.debugDescription)")
            case .failure(let failure):
                #expect(expected == nil, "\(text.debugDescription): \(failure.error.message)")
                #expect(failure.error.kind == .invalidDeepLink)
            }
        }
        #expect(valid > 100)
    }
}
