import JSON
import Testing

@Suite("JSON reader and writer", .timeLimit(.minutes(1)))
struct JSONTests {
    private func parse(_ text: String) throws(JSONParseError) -> JSONValue {
        try JSONValue.parse(Array(text.utf8))
    }

    @Test func parsesEveryKindOfValue() throws {
        let value = try parse(#" { "a" : [1, -2.5e+3, true, false, null, "x"], "b": {} , "c": [] } "#)
        #expect(value == .object([
            ("a", .array([.number("1"), .number("-2.5e+3"), .bool(true), .bool(false), .null, .string("x")])),
            ("b", .object([])),
            ("c", .array([])),
        ]))
    }

    @Test func lastDuplicateKeyWins() throws {
        let value = try parse(#"{"k": 1, "other": 2, "k": 3}"#)
        #expect(value["k"] == .number("3"))
        #expect(value["other"] == .number("2"))
        #expect(value["missing"] == nil)
    }

    @Test func decodesAllEscapes() throws {
        let value = try parse(#""\" \\ \/ \b \f \n \r \t \u0041 \u00e9 \u20AC \ud83d\ude00""#)
        #expect(value == .string("\" \\ / \u{08} \u{0C} \n \r \t A é € 😀"))
    }

    @Test func keepsRawUTF8InStrings() throws {
        #expect(try parse("\"ドラゴンボール 🐉\"") == .string("ドラゴンボール 🐉"))
    }

    @Test func skipsAByteOrderMark() throws {
        #expect(try JSONValue.parse([0xEF, 0xBB, 0xBF] + Array("[1]".utf8)) == .array([.number("1")]))
    }

    /// Malformed documents, with the offset and a word of the expected reason.
    @Test(arguments: [
        ("", 0, "expected a value"),
        ("   ", 3, "expected a value"),
        ("{} x", 3, "after the end"),
        ("[1,]", 3, "expected a value"),
        ("[1 2]", 3, "expected ',' or ']'"),
        (#"{"a" 1}"#, 5, "expected ':'"),
        (#"{"a":1,}"#, 7, "expected a string key"),
        (#"{a:1}"#, 1, "expected a string key"),
        ("[1", 2, "unterminated array"),
        (#"{"a":1"#, 6, "unterminated object"),
        (#""abc"#, 0, "unterminated string"),
        ("01", 0, "leading zero"),
        ("-", 1, "expected a digit"),
        ("1.", 2, "expected a digit after '.'"),
        ("1e", 2, "exponent"),
        ("+1", 0, "expected a value"),
        ("tru", 0, "invalid literal"),
        ("nul", 0, "invalid literal"),
        ("NaN", 0, "expected a value"),
        (#""\x""#, 1, "invalid escape"),
        (#""\u12""#, 1, "4 hex digits"),
        (#""\ud83d""#, 1, "lone high surrogate"),
        (#""\ud83d\u0041""#, 1, "not followed by a low surrogate"),
        (#""\ude00""#, 1, "lone low surrogate"),
        ("\"a\nb\"", 2, "raw control character U+000A"),
        ("\"a\tb\"", 2, "raw control character U+0009"),
        ("'a'", 0, "expected a value"),
    ])
    func rejectsMalformedDocuments(text: String, offset: Int, reason: String) {
        do {
            let value = try parse(text)
            Issue.record("parsed \(text.debugDescription) as \(value)")
        } catch {
            #expect(error.offset == offset, "\(text.debugDescription): \(error)")
            #expect(error.reason.contains(reason), "\(text.debugDescription): \(error)")
            #expect(!error.isEncodingError)
            #expect(error.description.hasPrefix("malformed JSON at byte \(offset): "))
        }
    }

    @Test(arguments: [
        ([0x22, 0xFF, 0x22], 1),  // never valid
        ([0x22, 0xC0, 0xAF, 0x22], 1),  // overlong "/"
        ([0x22, 0xED, 0xA0, 0x80, 0x22], 2),  // encoded surrogate
        ([0x22, 0xF4, 0x90, 0x80, 0x80, 0x22], 2),  // above U+10FFFF
        ([0x22, 0xE2, 0x82, 0x22], 3),  // truncated in the middle
        ([0x22, 0xE2, 0x82], 1),  // truncated at the end
        ([0x5B, 0x80, 0x5D], 1),  // stray continuation byte outside a string
    ] as [([UInt8], Int)])
    func rejectsInvalidUTF8(bytes: [UInt8], offset: Int) {
        do {
            _ = try JSONValue.parse(bytes)
            Issue.record("accepted \(bytes)")
        } catch {
            #expect(error.isEncodingError)
            #expect(error.offset == offset)
            #expect(error.description.hasPrefix("not valid UTF-8 at byte \(offset)"))
        }
    }

    @Test func limitsNestingDepth() throws {
        let deepest = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(throws: Never.self) { try parse(deepest) }
        let tooDeep = String(repeating: "[", count: 65) + String(repeating: "]", count: 65)
        #expect { try parse(tooDeep) } throws: { error in
            (error as? JSONParseError)?.reason.contains("nesting deeper than 64") == true
        }
        // Hostile input far beyond the limit fails cleanly instead of exhausting the stack.
        let hostile = String(repeating: #"{"a":["#, count: 100_000)
        #expect(throws: JSONParseError.self) { try parse(hostile) }
    }

    @Test(arguments: [
        ("0", JSONValue.IntegerConversion.integer(0)),
        ("-0", .integer(0)),
        ("42", .integer(42)),
        ("-17", .integer(-17)),
        ("9223372036854775807", .integer(Int.max)),
        ("-9223372036854775808", .integer(Int.min)),
        ("9223372036854775808", .overflow),
        ("-9223372036854775809", .overflow),
        ("99999999999999999999999", .overflow),
        ("35.0", .notAnInteger),
        ("1e2", .notAnInteger),
        ("-", .notAnInteger),
    ])
    func convertsIntegersWithOverflowDetection(lexeme: String, expected: JSONValue.IntegerConversion) {
        #expect(JSONValue.integer(fromLexeme: lexeme) == expected)
    }

    @Test func writerEscapesAndRoundTrips() throws {
        let text = "quote \" backslash \\ slash / nl \n cr \r tab \t nul \u{0} bell \u{7} esc \u{1B} del \u{7F} é 😀 \u{2028}"
        let value = JSONValue.object([("k\"ey", .string(text)), ("n", .integer(-5)), ("b", .bool(true)), ("z", .null), ("a", .array([]))])
        let bytes = value.serialized()
        let written = String(decoding: bytes, as: UTF8.self)
        #expect(written.contains(#"\u0000"#))
        #expect(written.contains(#"\u0007"#))
        #expect(written.contains(#"\u001B"#))
        #expect(written.contains(#"\n"#))
        #expect(written.contains("é 😀"))
        #expect(!bytes.contains(where: { $0 < 0x20 }))
        #expect(try JSONValue.parse(bytes) == value)
        #expect(JSONValue.object([("a", .integer(1)), ("b", .string("x"))]).jsonText == #"{"a":1,"b":"x"}"#)
    }
}
