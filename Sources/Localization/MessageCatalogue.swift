import Glibc

/// A gettext catalogue (`.mo`, the format of gettext's manual, "The Format of GNU MO Files"),
/// checked before glibc may read it. glibc trusts a catalogue whole: it reads the offsets and
/// lengths of its tables and strings, probes its hash table until it meets an empty slot,
/// compares and copies its strings up to their NUL, copies the header's charset onto the stack
/// and evaluates its plural expression, all without a bound check — a truncated or damaged file
/// crashes every program that translates a message. A catalogue passes only when every one of
/// those reads stays inside the file and ends.
enum MessageCatalogue {
    /// The largest catalogue read (ours are some 40 KiB).
    static let maxBytes = 16 * 1024 * 1024
    /// The size of the header glibc reads (revision 0: magic, revision, five table fields).
    static let headerBytes = 28
    static let magic: UInt32 = 0x9504_12de

    /// Why glibc must not read `bytes` as a catalogue, or nil when every read it makes stays in
    /// the file and ends.
    static func problem(_ bytes: UnsafeRawBufferPointer) -> String? {
        let size = bytes.count
        guard size >= headerBytes else { return "\(size) bytes, shorter than a catalogue's header" }
        guard size <= maxBytes else { return "\(size) bytes, more than \(maxBytes)" }
        let swapped: Bool
        switch bytes.loadUnaligned(as: UInt32.self) {
        case magic: swapped = false
        case magic.byteSwapped: swapped = true
        default: return "not a catalogue (no .mo magic number)"
        }
        func word(_ offset: Int) -> Int {
            let value = bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
            return Int(swapped ? value.byteSwapped : value)
        }
        // Revision 1 adds system-dependent strings (<inttypes.h> formats), which no message of ours has.
        guard word(4) == 0 else { return "revision \(word(4)), not 0" }
        let count = word(8), originals = word(12), translations = word(16), hashSize = word(20), hashOffset = word(24)

        // The two string tables: `count` (length, offset) pairs each, every string in the file
        // and ended by a NUL (glibc compares and copies them as C strings, and copies length + 1 bytes).
        for (name, table) in [("original", originals), ("translation", translations)] {
            guard table % 4 == 0, table + 8 * count <= size else {
                return "its \(name) table (\(count) strings at \(table)) does not fit its \(size) bytes"
            }
            for index in 0..<count {
                let length = word(table + 8 * index), offset = word(table + 8 * index + 4)
                guard offset + length < size, bytes[offset + length] == 0 else {
                    return "\(name) string \(index) (\(length) bytes at \(offset)) does not end inside its \(size) bytes"
                }
            }
        }
        // The hash table, which glibc uses when it has more than 2 slots: each slot empty or naming
        // a string, and a probe that ends — double hashing visits every slot only when the size is
        // prime, and stops only at an empty one.
        if hashSize > 2 {
            guard hashOffset % 4 == 0, hashOffset + 4 * hashSize <= size else {
                return "its hash table (\(hashSize) slots at \(hashOffset)) does not fit its \(size) bytes"
            }
            var empty = false
            for slot in 0..<hashSize {
                let entry = word(hashOffset + 4 * slot)
                guard entry <= count else { return "hash slot \(slot) names string \(entry), of \(count)" }
                empty = empty || entry == 0
            }
            guard empty, isPrime(hashSize) else { return "its hash table of \(hashSize) slots has a lookup that never ends" }
        }
        // The header, the translation of "" (any original starting with NUL compares equal to it):
        // its charset goes onto glibc's stack, its plural expression is evaluated for every plural.
        for index in 0..<count where bytes[word(originals + 8 * index + 4)] == 0 {
            let offset = word(translations + 8 * index + 4)
            let header = bytes[offset...].prefix { $0 != 0 }
            if let problem = headerProblem(Array(header)) { return "its header: \(problem)" }
        }
        return nil
    }

    /// What is wrong with a header's charset or plural expression, as glibc reads them: the first
    /// `charset=` up to a space, tab or newline, and the expression after the first `plural=`.
    static func headerProblem(_ header: [UInt8]) -> String? {
        if let start = header.firstRange(of: Array("charset=".utf8))?.upperBound {
            let charset = String(decoding: header[start...].prefix { ![0x20, 0x09, 0x0a].contains($0) }, as: UTF8.self)
            guard charset.lowercased() == "utf-8" else { return "charset \(charset.prefix(40)), not UTF-8" }
        }
        if let start = header.firstRange(of: Array("plural=".utf8))?.upperBound {
            var parser = PluralExpression(header[start...])
            if let problem = parser.problem() { return "plural expression: \(problem)" }
        }
        return nil
    }

    /// The catalogue files of `domain` gettext may read under `directory` for `languages`
    /// (`sessionLanguages`): for each language, the names glibc tries — the language with or
    /// without its territory, its codeset as written or normalised (`UTF-8`, `utf8`) or none, its
    /// modifier or none — and the same for the name its locale.alias gives it.
    static func candidates(directory: String, domain: String, languages: [String], aliases: [String: String]) -> [String] {
        var names: [String] = []
        for language in languages {
            for name in [language] + [aliases[language.lowercased()]].compactMap({ $0 }) {
                for variant in variants(of: name) where !names.contains(variant) { names.append(variant) }
            }
        }
        return names.map { "\(directory)/\($0)/LC_MESSAGES/\(domain).mo" }
    }

    /// `language[_territory][.codeset][@modifier]` and every name made by leaving parts out, the
    /// codeset also normalised as glibc does it (lower case, letters and digits only, `iso` before
    /// a codeset of digits only).
    static func variants(of name: String) -> [String] {
        guard !name.isEmpty, !name.contains("/") else { return [] }
        let modifierStart = name.firstIndex(of: "@")
        let modifier = modifierStart.map { String(name[$0...]) }
        let base = name[..<(modifierStart ?? name.endIndex)]
        let codesetStart = base.firstIndex(of: ".")
        let codeset = codesetStart.map { String(base[$0...]) }
        let head = base[..<(codesetStart ?? base.endIndex)]
        let territoryStart = head.firstIndex(of: "_")
        let territory = territoryStart.map { String(head[$0...]) }
        let language = String(head[..<(territoryStart ?? head.endIndex)])
        var codesets: [String?] = [nil]
        if let codeset {
            let kept = codeset.dropFirst().lowercased().filter { $0.isASCII && ($0.isLetter || $0.isNumber) }
            let normalised = "." + (kept.allSatisfy(\.isNumber) ? "iso" : "") + kept
            codesets = [codeset, normalised, nil]
        }
        var result: [String] = []
        for territoryPart in [territory, nil] {
            for codesetPart in codesets {
                for modifierPart in [modifier, nil] {
                    let variant = language + (territoryPart ?? "") + (codesetPart ?? "") + (modifierPart ?? "")
                    if !result.contains(variant) { result.append(variant) }
                }
            }
        }
        return result
    }

    /// glibc's locale aliases (`french` → `fr_FR.ISO-8859-1`), keys in lower case: the file's lines
    /// `ALIAS VALUE`, `#` comments.
    static func aliases(path: String = "/usr/share/locale/locale.alias") -> [String: String] {
        guard let bytes = CatalogueFile.read(path, limit: 256 * 1024).bytes else { return [:] }
        var aliases: [String: String] = [:]
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            let words = line.split { $0 == 0x20 || $0 == 0x09 }
            guard words.count >= 2, words[0].first != UInt8(ascii: "#") else { continue }
            let alias = String(decoding: words[0], as: UTF8.self).lowercased()
            if aliases[alias] == nil { aliases[alias] = String(decoding: words[1], as: UTF8.self) }
        }
        return aliases
    }

    /// Why the catalogue at `path` must not be read, or nil when it passes or is not there (a
    /// file gettext cannot open either is no danger).
    static func problem(path: String) -> String? {
        let file = CatalogueFile.read(path, limit: maxBytes)
        if let problem = file.problem { return problem }
        guard let bytes = file.bytes else { return nil }
        return bytes.withUnsafeBytes { problem($0) }
    }

    static func isPrime(_ number: Int) -> Bool {
        guard number >= 2 else { return false }
        var divisor = 2
        while divisor * divisor <= number {
            if number % divisor == 0 { return false }
            divisor += 1
        }
        return true
    }
}

/// A catalogue's plural expression (`plural=` in its header) read as glibc's parser reads it —
/// C's `?:`, `||`, `&&`, `==`, `!=`, `<`, `>`, `<=`, `>=`, `+`, `-`, `*`, `/`, `%` and `!` over
/// `n` and decimal numbers, ended by `;`, a newline or the header's end — and refused when glibc
/// could divide by zero evaluating it (it raises SIGFPE): every divisor must be a number other
/// than 0 (as glibc reads it: wrapping at 2⁶⁴). Real plural forms divide only by 10 and 100.
struct PluralExpression {
    private let text: [UInt8]
    private var position = 0
    /// Nesting allowed: real expressions nest a few levels; each level is a frame on the stack.
    private static let maxDepth = 64

    init(_ text: ArraySlice<UInt8>) { self.text = Array(text) }

    enum Operator: Equatable {
        case or, and, equal, notEqual, less, greater, lessOrEqual, greaterOrEqual, plus, minus, times, divide, remainder

        /// glibc's plural.y, lowest first; `?:` is below them all.
        var precedence: Int {
            switch self {
            case .or: 1
            case .and: 2
            case .equal, .notEqual: 3
            case .less, .greater, .lessOrEqual, .greaterOrEqual: 4
            case .plus, .minus: 5
            case .times, .divide, .remainder: 6
            }
        }
    }

    /// The parsed expression.
    indirect enum Node {
        case n
        case number(UInt64)
        case not(Node)
        case binary(Operator, Node, Node)
        case choice(Node, Node, Node)
    }

    private enum Token: Equatable {
        case end, n, number(UInt64), operation(Operator), not, question, colon, open, close
    }

    struct Refused: Error { let reason: String }

    /// Why the expression is refused, or nil.
    mutating func problem() -> String? {
        do {
            _ = try parse()
            return nil
        } catch {
            return error.reason
        }
    }

    /// The whole expression, up to its end.
    mutating func parse() throws(Refused) -> Node {
        let node = try expression(depth: 0)
        guard try next() == .end else { throw Refused(reason: "unexpected text after the expression") }
        return node
    }

    /// `a ? b : c` (right-associative) over the binary operators.
    private mutating func expression(depth: Int) throws(Refused) -> Node {
        let condition = try binary(depth: depth + 1, above: 0)
        let saved = position
        guard try next() == .question else {
            position = saved
            return condition
        }
        let then = try expression(depth: depth + 1)
        guard try next() == .colon else { throw Refused(reason: "a ? without its :") }
        return .choice(condition, then, try expression(depth: depth + 1))
    }

    /// Binary operators of a precedence above `above`, left-associative.
    private mutating func binary(depth: Int, above: Int) throws(Refused) -> Node {
        guard depth < Self.maxDepth else { throw Refused(reason: "nested more than \(Self.maxDepth) deep") }
        var left = try unary(depth: depth + 1)
        while true {
            let saved = position
            guard case .operation(let operation) = try next(), operation.precedence > above else {
                position = saved
                return left
            }
            let right = try binary(depth: depth + 1, above: operation.precedence)
            if operation == .divide || operation == .remainder {
                guard case .number(let divisor) = right, divisor != 0 else {
                    throw Refused(reason: "a divisor that is not a number other than 0")
                }
            }
            left = .binary(operation, left, right)
        }
    }

    /// `!x`, `n`, a number or `( … )`.
    private mutating func unary(depth: Int) throws(Refused) -> Node {
        guard depth < Self.maxDepth else { throw Refused(reason: "nested more than \(Self.maxDepth) deep") }
        switch try next() {
        case .not: return .not(try unary(depth: depth + 1))
        case .n: return .n
        case .number(let value): return .number(value)
        case .open:
            let inner = try expression(depth: depth + 1)
            guard try next() == .close else { throw Refused(reason: "a ( without its )") }
            return inner
        default: throw Refused(reason: "an operand is missing")
        }
    }

    /// The next token, as glibc's scanner reads it (spaces and tabs skipped).
    private mutating func next() throws(Refused) -> Token {
        while position < text.count, text[position] == 0x20 || text[position] == 0x09 { position += 1 }
        guard position < text.count else { return .end }
        let character = text[position]
        position += 1
        /// The token is `character` followed by `second`, or `single` (nil: an error) without it.
        func pair(_ second: UInt8, _ both: Token, else single: Token?) throws(Refused) -> Token {
            if position < text.count, text[position] == second {
                position += 1
                return both
            }
            guard let single else { throw Refused(reason: "a lone \(Character(Unicode.Scalar(character)))") }
            return single
        }
        switch character {
        case UInt8(ascii: "0")...UInt8(ascii: "9"):
            var value = UInt64(character - UInt8(ascii: "0"))
            while position < text.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(text[position]) {
                value = value &* 10 &+ UInt64(text[position] - UInt8(ascii: "0"))
                position += 1
            }
            return .number(value)
        case UInt8(ascii: "="): return try pair(UInt8(ascii: "="), .operation(.equal), else: nil)
        case UInt8(ascii: "&"): return try pair(UInt8(ascii: "&"), .operation(.and), else: nil)
        case UInt8(ascii: "|"): return try pair(UInt8(ascii: "|"), .operation(.or), else: nil)
        case UInt8(ascii: "!"): return try pair(UInt8(ascii: "="), .operation(.notEqual), else: .not)
        case UInt8(ascii: "<"): return try pair(UInt8(ascii: "="), .operation(.lessOrEqual), else: .operation(.less))
        case UInt8(ascii: ">"): return try pair(UInt8(ascii: "="), .operation(.greaterOrEqual), else: .operation(.greater))
        case UInt8(ascii: "*"): return .operation(.times)
        case UInt8(ascii: "/"): return .operation(.divide)
        case UInt8(ascii: "%"): return .operation(.remainder)
        case UInt8(ascii: "+"): return .operation(.plus)
        case UInt8(ascii: "-"): return .operation(.minus)
        case UInt8(ascii: "n"): return .n
        case UInt8(ascii: "?"): return .question
        case UInt8(ascii: ":"): return .colon
        case UInt8(ascii: "("): return .open
        case UInt8(ascii: ")"): return .close
        case UInt8(ascii: ";"), UInt8(ascii: "\n"):
            position -= 1
            return .end
        default:
            throw Refused(reason: "byte \(character) is not part of an expression")
        }
    }
}

extension PluralExpression.Node {
    /// The value for `n`, with glibc's unsigned arithmetic (C's: comparisons and logic give 0 or
    /// 1, `||` and `&&` evaluate their right side only when it decides); nil where glibc would
    /// divide by zero — which no expression that passed does (the fuzz target checks it).
    func value(_ n: UInt64) -> UInt64? {
        switch self {
        case .n: return n
        case .number(let value): return value
        case .not(let operand): return operand.value(n).map { $0 == 0 ? 1 : 0 }
        case .choice(let condition, let then, let otherwise):
            guard let test = condition.value(n) else { return nil }
            return test != 0 ? then.value(n) : otherwise.value(n)
        case .binary(let operation, let left, let right):
            guard let a = left.value(n) else { return nil }
            if operation == .or, a != 0 { return 1 }
            if operation == .and, a == 0 { return 0 }
            guard let b = right.value(n) else { return nil }
            switch operation {
            case .or, .and: return b != 0 ? 1 : 0
            case .equal: return a == b ? 1 : 0
            case .notEqual: return a != b ? 1 : 0
            case .less: return a < b ? 1 : 0
            case .greater: return a > b ? 1 : 0
            case .lessOrEqual: return a <= b ? 1 : 0
            case .greaterOrEqual: return a >= b ? 1 : 0
            case .plus: return a &+ b
            case .minus: return a &- b
            case .times: return a &* b
            case .divide: return b == 0 ? nil : a / b
            case .remainder: return b == 0 ? nil : a % b
            }
        }
    }
}

/// A file read whole, without blocking: gettext opens a catalogue without O_NONBLOCK, so a FIFO in
/// a catalogue's place would block the program at its first message.
enum CatalogueFile {
    /// The file's bytes; or none, with the problem when the file is there but no regular file of at
    /// most `limit` bytes, or none at all when it cannot be opened (gettext cannot open it either).
    static func read(_ path: String, limit: Int) -> (bytes: [UInt8]?, problem: String?) {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else { return (nil, nil) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { return (nil, nil) }
        guard (status.st_mode & S_IFMT) == S_IFREG else { return (nil, "not a regular file") }
        guard status.st_size <= limit else { return (nil, "\(status.st_size) bytes, more than \(limit)") }
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size))
        var count = 0
        while count < bytes.count {
            let read = bytes.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress! + count, $0.count - count) }
            if read < 0, errno == EINTR { continue }
            guard read > 0 else { return (nil, "cannot be read whole") }
            count += read
        }
        return (bytes, nil)
    }
}
