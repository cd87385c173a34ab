/// A JSON value (RFC 8259), with a strict parser and a compact writer, without Foundation.
///
/// Numbers keep their lexeme so that integers are converted with overflow detection and
/// fractions can be told apart from integers. Objects keep their members in document order,
/// duplicates included; lookups take the last one, so the last duplicate wins.
package enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    /// The number as written, e.g. `-12`, `3.5`, `1e3`; always valid JSON number syntax.
    case number(String)
    case string(String)
    case array([JSONValue])
    case object([(key: String, value: JSONValue)])

    /// A number value for `value`.
    package static func integer<T: BinaryInteger>(_ value: T) -> JSONValue {
        .number(String(value))
    }

    /// The member named `key` (the last one, when the key is repeated), or nil.
    package subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.last(where: { $0.key == key })?.value
    }

    /// How a number converts to `Int`.
    package enum IntegerConversion: Sendable, Equatable {
        case integer(Int)
        /// Has a fraction or an exponent.
        case notAnInteger
        /// An integer too large for `Int`.
        case overflow
    }

    /// Converts a number lexeme to `Int`: plain integers only, overflow detected.
    package static func integer(fromLexeme lexeme: String) -> IntegerConversion {
        var digits = Substring(lexeme).utf8[...]
        let negative = digits.first == UInt8(ascii: "-")
        if negative { digits = digits.dropFirst() }
        guard !digits.isEmpty else { return .notAnInteger }
        var value = 0
        for byte in digits {
            guard byte.isASCIIDigit else { return .notAnInteger }
            let (shifted, o1) = value.multipliedReportingOverflow(by: 10)
            // Accumulate towards the sign so that Int.min is reachable.
            let digit = Int(byte - UInt8(ascii: "0"))
            let (next, o2) = negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            guard !o1, !o2 else { return .overflow }
            value = next
        }
        return .integer(value)
    }

    /// A short name of the value's type for error messages ("a string", "an array"…).
    package var typeDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .number(let lexeme): "the number \(lexeme.count > 24 ? String(lexeme.prefix(24)) + "…" : lexeme)"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): true
        case (.bool(let a), .bool(let b)): a == b
        case (.number(let a), .number(let b)): a == b
        case (.string(let a), .string(let b)): a == b
        case (.array(let a), .array(let b)): a == b
        case (.object(let a), .object(let b)):
            a.count == b.count && zip(a, b).allSatisfy { $0.key == $1.key && $0.value == $1.value }
        default: false
        }
    }
}

/// Why a document is not JSON, with the byte offset (0-based) where it went wrong.
package struct JSONParseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 0-based offset of the offending byte in the input.
    package let offset: Int
    /// What is wrong there.
    package let reason: String
    /// True when the input is not valid UTF-8 (rather than malformed JSON).
    package let isEncodingError: Bool

    package var description: String {
        isEncodingError ? "not valid UTF-8 at byte \(offset): \(reason)" : "malformed JSON at byte \(offset): \(reason)"
    }
}

extension JSONValue {
    /// The default limit of nested arrays and objects.
    static let defaultMaxDepth = 64

    /// Parses one JSON text (RFC 8259) from UTF-8 bytes.
    ///
    /// Strict: trailing content, raw control characters in strings, lone surrogates, invalid
    /// UTF-8 and nesting deeper than `maxDepth` are errors. A leading UTF-8 byte-order mark is
    /// skipped, as RFC 8259 allows. Never traps, whatever the input.
    package static func parse(_ bytes: [UInt8], maxDepth: Int = defaultMaxDepth) throws(JSONParseError) -> JSONValue {
        try validateUTF8(bytes)
        var parser = JSONParser(bytes: bytes, maxDepth: maxDepth)
        return try parser.parseDocument()
    }

    /// Checks `bytes` is well-formed UTF-8 (no overlong forms, no surrogates, ≤ U+10FFFF).
    private static func validateUTF8(_ bytes: [UInt8]) throws(JSONParseError) {
        var i = 0
        let n = bytes.count
        while i < n {
            let b0 = bytes[i]
            if b0 < 0x80 {
                i += 1
                continue
            }
            let length: Int
            let secondRange: ClosedRange<UInt8>
            switch b0 {
            case 0xC2...0xDF: length = 2; secondRange = 0x80...0xBF
            case 0xE0: length = 3; secondRange = 0xA0...0xBF
            case 0xE1...0xEC, 0xEE...0xEF: length = 3; secondRange = 0x80...0xBF
            case 0xED: length = 3; secondRange = 0x80...0x9F
            case 0xF0: length = 4; secondRange = 0x90...0xBF
            case 0xF1...0xF3: length = 4; secondRange = 0x80...0xBF
            case 0xF4: length = 4; secondRange = 0x80...0x8F
            default:
                throw JSONParseError(offset: i, reason: "byte 0x\(hex(b0)) cannot start a character", isEncodingError: true)
            }
            guard i + length <= n else {
                throw JSONParseError(offset: i, reason: "truncated character at the end", isEncodingError: true)
            }
            guard secondRange.contains(bytes[i + 1]) else {
                throw JSONParseError(offset: i + 1, reason: "unexpected byte 0x\(hex(bytes[i + 1])) in a character", isEncodingError: true)
            }
            var k = 2
            while k < length {
                guard (0x80...0xBF).contains(bytes[i + k]) else {
                    throw JSONParseError(offset: i + k, reason: "unexpected byte 0x\(hex(bytes[i + k])) in a character", isEncodingError: true)
                }
                k += 1
            }
            i += length
        }
    }
}

extension UInt8 {
    var isASCIIDigit: Bool { (0x30...0x39).contains(self) }
}

/// Two upper-case hex digits.
func hex(_ byte: UInt8) -> String {
    let digits = Array("0123456789ABCDEF".utf8)
    return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]], as: UTF8.self)
}

/// A recursive-descent parser over already UTF-8-validated bytes.
private struct JSONParser {
    let bytes: [UInt8]
    let maxDepth: Int
    var index = 0

    init(bytes: [UInt8], maxDepth: Int) {
        self.bytes = bytes
        self.maxDepth = maxDepth
    }

    mutating func parseDocument() throws(JSONParseError) -> JSONValue {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        skipWhitespace()
        let value = try parseValue(depth: 0)
        skipWhitespace()
        guard index == bytes.count else {
            throw failure("unexpected \(describeCurrent()) after the end of the document")
        }
        return value
    }

    private func failure(_ reason: String, at offset: Int? = nil) -> JSONParseError {
        JSONParseError(offset: offset ?? index, reason: reason, isEncodingError: false)
    }

    /// The byte at `index`, described for a message.
    private func describeCurrent() -> String {
        guard index < bytes.count else { return "end of input" }
        let byte = bytes[index]
        if (0x21...0x7E).contains(byte) { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(hex(byte))"
    }

    private mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0A, 0x0D: index += 1
            default: return
            }
        }
    }

    private mutating func parseValue(depth: Int) throws(JSONParseError) -> JSONValue {
        guard index < bytes.count else { throw failure("expected a value, found end of input") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try parseObject(depth: depth + 1)
        case UInt8(ascii: "["): return try parseArray(depth: depth + 1)
        case UInt8(ascii: "\""): return .string(try parseString())
        case UInt8(ascii: "t"): try expectLiteral("true"); return .bool(true)
        case UInt8(ascii: "f"): try expectLiteral("false"); return .bool(false)
        case UInt8(ascii: "n"): try expectLiteral("null"); return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try parseNumber())
        default: throw failure("expected a value, found \(describeCurrent())")
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(JSONParseError) {
        let start = index
        let expected = UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount)
        for byte in expected {
            guard index < bytes.count, bytes[index] == byte else {
                throw failure("invalid literal, expected '\(literal)'", at: start)
            }
            index += 1
        }
    }

    private mutating func parseObject(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= maxDepth else { throw failure("nesting deeper than \(maxDepth) levels") }
        index += 1  // {
        var members: [(key: String, value: JSONValue)] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
                throw failure("expected a string key in an object, found \(describeCurrent())")
            }
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw failure("expected ':' after an object key, found \(describeCurrent())")
            }
            index += 1
            skipWhitespace()
            let value = try parseValue(depth: depth)
            members.append((key: key, value: value))
            skipWhitespace()
            guard index < bytes.count else { throw failure("unterminated object, expected ',' or '}'") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "}"): index += 1; return .object(members)
            default: throw failure("expected ',' or '}' in an object, found \(describeCurrent())")
            }
        }
    }

    private mutating func parseArray(depth: Int) throws(JSONParseError) -> JSONValue {
        guard depth <= maxDepth else { throw failure("nesting deeper than \(maxDepth) levels") }
        index += 1  // [
        var elements: [JSONValue] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            elements.append(try parseValue(depth: depth))
            skipWhitespace()
            guard index < bytes.count else { throw failure("unterminated array, expected ',' or ']'") }
            switch bytes[index] {
            case UInt8(ascii: ","): index += 1
            case UInt8(ascii: "]"): index += 1; return .array(elements)
            default: throw failure("expected ',' or ']' in an array, found \(describeCurrent())")
            }
        }
    }

    /// -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?
    private mutating func parseNumber() throws(JSONParseError) -> String {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, bytes[index].isASCIIDigit else {
            throw failure("expected a digit in a number, found \(describeCurrent())")
        }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
            if index < bytes.count, bytes[index].isASCIIDigit {
                throw failure("a number cannot have a leading zero", at: start)
            }
        } else {
            skipDigits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, bytes[index].isASCIIDigit else {
                throw failure("expected a digit after '.', found \(describeCurrent())")
            }
            skipDigits()
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, bytes[index].isASCIIDigit else {
                throw failure("expected a digit in an exponent, found \(describeCurrent())")
            }
            skipDigits()
        }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    private mutating func skipDigits() {
        while index < bytes.count, bytes[index].isASCIIDigit { index += 1 }
    }

    private mutating func parseString() throws(JSONParseError) -> String {
        let start = index
        index += 1  // opening quote
        var out: [UInt8] = []
        while true {
            guard index < bytes.count else { throw failure("unterminated string", at: start) }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                index += 1
                // The input was validated as UTF-8 and escapes only add valid scalars.
                return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                try parseEscape(into: &out)
            case 0x00..<0x20:
                throw failure("raw control character U+00\(hex(byte)) in a string; it must be escaped")
            default:
                out.append(byte)
                index += 1
            }
        }
    }

    private mutating func parseEscape(into out: inout [UInt8]) throws(JSONParseError) {
        let start = index
        index += 1  // backslash
        guard index < bytes.count else { throw failure("unterminated escape sequence", at: start) }
        let code = bytes[index]
        index += 1
        switch code {
        case UInt8(ascii: "\""): out.append(0x22)
        case UInt8(ascii: "\\"): out.append(0x5C)
        case UInt8(ascii: "/"): out.append(0x2F)
        case UInt8(ascii: "b"): out.append(0x08)
        case UInt8(ascii: "f"): out.append(0x0C)
        case UInt8(ascii: "n"): out.append(0x0A)
        case UInt8(ascii: "r"): out.append(0x0D)
        case UInt8(ascii: "t"): out.append(0x09)
        case UInt8(ascii: "u"):
            let first = try parseHex4(escapeStart: start)
            var value = UInt32(first)
            if (0xD800...0xDBFF).contains(first) {
                // A high surrogate must be followed by an escaped low surrogate.
                let secondStart = index
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") else {
                    throw failure("lone high surrogate \\u\(hex(UInt8(first >> 8)))\(hex(UInt8(first & 0xFF)))", at: start)
                }
                index += 2
                let second = try parseHex4(escapeStart: secondStart)
                guard (0xDC00...0xDFFF).contains(second) else {
                    throw failure("high surrogate not followed by a low surrogate", at: start)
                }
                value = 0x10000 + ((UInt32(first) - 0xD800) << 10) + (UInt32(second) - 0xDC00)
            } else if (0xDC00...0xDFFF).contains(first) {
                throw failure("lone low surrogate \\u\(hex(UInt8(first >> 8)))\(hex(UInt8(first & 0xFF)))", at: start)
            }
            guard let scalar = Unicode.Scalar(value) else {
                throw failure("invalid escaped character", at: start)
            }
            out.append(contentsOf: scalar.utf8)
        default:
            index -= 1
            throw failure("invalid escape sequence: \\ followed by \(describeCurrent())", at: start)
        }
    }

    private mutating func parseHex4(escapeStart: Int) throws(JSONParseError) -> UInt16 {
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard index < bytes.count else { throw failure("truncated \\u escape", at: escapeStart) }
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw failure("expected 4 hex digits after \\u", at: escapeStart)
            }
            value = value << 4 | UInt16(digit)
            index += 1
        }
        return value
    }
}
