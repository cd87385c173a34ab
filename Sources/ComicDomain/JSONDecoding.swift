import JSON

/// Reads the storage files' JSON objects with precise errors.
///
/// File-content problems (size, syntax, shape, types) are `storageFailed`; values outside
/// their range use the specific kind of the value (via the `range` closure of `integer`).
struct JSONObjectReader {
    let value: JSONValue

    /// Parses `bytes`, which must hold one JSON object of at most `limit` bytes.
    init(bytes: [UInt8], limit: Int = Limits.maxChapterFileBytes) throws(ComicError) {
        guard bytes.count <= limit else {
            throw ComicError(.storageFailed, "content is \(bytes.count) bytes, more than \(limit)")
        }
        let parsed: JSONValue
        do {
            parsed = try JSONValue.parse(bytes)
        } catch {
            throw ComicError(.storageFailed, error.description)
        }
        guard case .object = parsed else {
            throw ComicError(.storageFailed, "expected a JSON object at the top level, found \(parsed.typeDescription)")
        }
        value = parsed
    }

    /// Reads a nested object; `what` names it in the error when `object` is not one.
    init(object: JSONValue, what: String) throws(ComicError) {
        guard case .object = object else {
            throw ComicError(.storageFailed, "\(what) must be an object, found \(object.typeDescription)")
        }
        value = object
    }

    /// A required array.
    func array(_ key: String) throws(ComicError) -> [JSONValue] {
        guard let member = value[key] else { throw ComicError(.storageFailed, "missing key \"\(key)\"") }
        guard case .array(let elements) = member else {
            throw ComicError(.storageFailed, "key \"\(key)\" must be an array, found \(member.typeDescription)")
        }
        return elements
    }

    /// A required integer; `outOfRange` builds the error for a value that is not in `range`
    /// (it gets the number as written, so overflowing values are quoted exactly).
    func integer(_ key: String, in range: ClosedRange<Int>, outOfRange: (String) -> ComicError) throws(ComicError) -> Int {
        guard let member = value[key] else {
            throw ComicError(.storageFailed, "missing key \"\(key)\"")
        }
        return try Self.integer(member, key: key, in: range, outOfRange: outOfRange)
    }

    /// An optional integer: absent or null → nil.
    func optionalInteger(_ key: String, in range: ClosedRange<Int>, outOfRange: (String) -> ComicError) throws(ComicError) -> Int? {
        guard let member = value[key], member != .null else { return nil }
        return try Self.integer(member, key: key, in: range, outOfRange: outOfRange)
    }

    /// A required string.
    func string(_ key: String) throws(ComicError) -> String {
        guard let member = value[key] else {
            throw ComicError(.storageFailed, "missing key \"\(key)\"")
        }
        guard case .string(let text) = member else {
            throw ComicError(.storageFailed, "key \"\(key)\" must be a string, found \(member.typeDescription)")
        }
        return text
    }

    /// An optional string: absent or null → nil.
    func optionalString(_ key: String) throws(ComicError) -> String? {
        guard let member = value[key], member != .null else { return nil }
        guard case .string(let text) = member else {
            throw ComicError(.storageFailed, "key \"\(key)\" must be a string, found \(member.typeDescription)")
        }
        return text
    }

    private static func integer(_ member: JSONValue, key: String, in range: ClosedRange<Int>, outOfRange: (String) -> ComicError) throws(ComicError) -> Int {
        guard case .number(let lexeme) = member else {
            throw ComicError(.storageFailed, "key \"\(key)\" must be an integer, found \(member.typeDescription)")
        }
        switch JSONValue.integer(fromLexeme: lexeme) {
        case .integer(let number):
            guard range.contains(number) else { throw outOfRange(lexeme) }
            return number
        case .overflow:
            throw outOfRange(lexeme)
        case .notAnInteger:
            throw ComicError(.storageFailed, "key \"\(key)\" must be an integer, found \(member.typeDescription)")
        }
    }
}
