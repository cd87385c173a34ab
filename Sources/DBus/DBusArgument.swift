import CDBus
import Glibc

/// A Swift type that is a D-Bus type: it knows its signature, and encodes to and decodes from a
/// message body. Decoding checks the wire type and throws `InvalidArgs` on a mismatch.
///
/// Conforming your own struct: implement `dbusSignature` (e.g. `"(is)"`), `dbusValue` and
/// `init(dbusValue:)`; `encode(to:)` and `init(from:)` then come for free.
package protocol DBusArgument: Sendable {
    static var dbusSignature: Signature { get }
    init(from reader: inout MessageReader) throws(DBusError)
    func encode(to writer: inout MessageWriter)

    /// The value as a dynamically typed D-Bus value (how it travels inside a variant).
    var dbusValue: DBusValue { get }
    init(dbusValue: DBusValue) throws(DBusError)
}

extension DBusArgument {
    package init(from reader: inout MessageReader) throws(DBusError) {
        try self.init(dbusValue: reader.readValue())
    }
    package func encode(to writer: inout MessageWriter) { dbusValue.encode(to: &writer) }
}

/// Types that may be dictionary keys: the basic types.
package protocol DBusBasicArgument: DBusArgument, Hashable {}

func mismatch(_ value: DBusValue, expected: Signature) -> DBusError {
    DBusError.invalidArgs("expected a value of type '\(expected.rawValue)', got '\(value.signature.rawValue)'")
}

// MARK: - Basic types

/// Stamps out the conformance of a fixed-size basic type.
private protocol FixedBasic: DBusBasicArgument {
    static var typeCode: Int32 { get }
    static var zero: Self { get }
}

extension FixedBasic {
    package init(from reader: inout MessageReader) throws(DBusError) {
        self = try reader.readBasic(Self.typeCode, as: Self.self, zero: Self.zero)
    }
    package func encode(to writer: inout MessageWriter) { writer.appendBasic(Self.typeCode, self) }
}

extension UInt8: DBusBasicArgument, FixedBasic {
    static var typeCode: Int32 { TypeCode.byte }
    static var zero: UInt8 { 0 }
    package static var dbusSignature: Signature { Signature(unchecked: "y") }
    package var dbusValue: DBusValue { .byte(self) }
    package init(dbusValue: DBusValue) throws(DBusError) {
        guard case .byte(let v) = dbusValue else { throw mismatch(dbusValue, expected: Self.dbusSignature) }
        self = v
    }
}

extension Bool: DBusBasicArgument {
    package static var dbusSignature: Signature { Signature(unchecked: "b") }
    package init(from reader: inout MessageReader) throws(DBusError) {
        // libdbus stores booleans as 32-bit integers on the wire.
        self = try reader.readBasic(TypeCode.boolean, as: dbus_bool_t.self, zero: 0) != 0
    }
    package func encode(to writer: inout MessageWriter) { writer.appendBasic(TypeCode.boolean, dbus_bool_t(self ? 1 : 0)) }
    package var dbusValue: DBusValue { .boolean(self) }
    package init(dbusValue: DBusValue) throws(DBusError) {
        guard case .boolean(let v) = dbusValue else { throw mismatch(dbusValue, expected: Self.dbusSignature) }
        self = v
    }
}

extension Int16: DBusBasicArgument, FixedBasic {
    static var typeCode: Int32 { TypeCode.int16 }
    static var zero: Int16 { 0 }
    package static var dbusSignature: Signature { Signature(unchecked: "n") }
    package var dbusValue: DBusValue { .int16(self) }
    package init(dbusValue: DBusValue) throws(DBusError) {
        guard case .int16(let v) = dbusValue else { throw mismatch(dbusValue, expected: Self.dbusSignature) }
        self = v
    }
}

extension UInt16: DBusBasicArgument, FixedBasic {
    static var typeCode: Int32 { TypeCode.uint16 }
    static var zero: UInt16 { 0 }
    package static var dbusSignature: Signature { Signature(unchecked: "q") }
    package var dbusValue: DBusValue { .uint16(self) }
    package init(dbusValue: DBusValue) throws(DBusError) {
        guard case .uint16(let v) = dbusValue else { throw mismatch(dbusValue, expected: Self.dbusSignature) }
        self = v
    }
}

extension Int32: DBusBasicArgument, FixedBasic {
    static var typeCode: Int32 { TypeCode.int32 }
    static var zero: Int32 { 0 }
    package static var dbusSignature: Signature { Signature(unchecked: "i") }
    package var dbusValue: DBusValue { .int32(self) }
    package init(dbusValue: DBusValue) throws(DBusError) {
        guard case .int32(let v) = dbusValue else { throw mismatch(dbusValue, expected: Self.dbusSignature) }
        self = v
    }
}

extension UInt32: DBusBasicArgument, FixedBasic {
    static var typeCode: Int32 { TypeCode.uint32 }
    static var zero: UInt32 { 0 }
    package static var dbusSignature: Signature { Signature(unchecked: "u") }
    package var dbusValue: DBusValue { .uint32(self) }
    package init(dbusValue: DBusValue) throws(DBusError) {
        guard case .uint32(let v) = dbusValue else { throw mismatch(dbusValue, expected: Self.dbusSignature) }
        self = v
    }
}

extension Int64: DBusBasicArgument, FixedBasic {
    static var typeCode: Int32 { TypeCode.int64 }
    static var zero: Int64 { 0 }
    package static var dbusSignature: Signature { Signature(unchecked: "x") }
    package var dbusValue: DBusValue { .int64(self) }
    package init(dbusValue: DBusValue) throws(DBusError) {
        guard case .int64(let v) = dbusValue else { throw mismatch(dbusValue, expected: Self.dbusSignature) }
        self = v
    }
}

extension UInt64: DBusBasicArgument, FixedBasic {
    static var typeCode: Int32 { TypeCode.uint64 }
    static var zero: UInt64 { 0 }
    package static var dbusSignature: Signature { Signature(unchecked: "t") }
    package var dbusValue: DBusValue { .uint64(self) }
    package init(dbusValue: DBusValue) throws(DBusError) {
        guard case .uint64(let v) = dbusValue else { throw mismatch(dbusValue, expected: Self.dbusSignature) }
        self = v
    }
}

extension Double: DBusBasicArgument, FixedBasic {
    static var typeCode: Int32 { TypeCode.double }
    static var zero: Double { 0 }
    package static var dbusSignature: Signature { Signature(unchecked: "d") }
    package var dbusValue: DBusValue { .double(self) }
    package init(dbusValue: DBusValue) throws(DBusError) {
        guard case .double(let v) = dbusValue else { throw mismatch(dbusValue, expected: Self.dbusSignature) }
        self = v
    }
}

extension String: DBusBasicArgument {
    package static var dbusSignature: Signature { Signature(unchecked: "s") }
    package init(from reader: inout MessageReader) throws(DBusError) { self = try reader.readString(TypeCode.string) }
    package func encode(to writer: inout MessageWriter) { writer.appendString(TypeCode.string, self) }
    package var dbusValue: DBusValue { .string(self) }
    package init(dbusValue: DBusValue) throws(DBusError) {
        guard case .string(let v) = dbusValue else { throw mismatch(dbusValue, expected: Self.dbusSignature) }
        self = v
    }
}

extension ObjectPath: DBusBasicArgument {
    package static var dbusSignature: Signature { Signature(unchecked: "o") }
    package init(from reader: inout MessageReader) throws(DBusError) {
        self.init(unchecked: try reader.readString(TypeCode.objectPath)) // libdbus validated it on receipt
    }
    package func encode(to writer: inout MessageWriter) { writer.appendString(TypeCode.objectPath, rawValue) }
    package var dbusValue: DBusValue { .objectPath(self) }
    package init(dbusValue: DBusValue) throws(DBusError) {
        guard case .objectPath(let v) = dbusValue else { throw mismatch(dbusValue, expected: Self.dbusSignature) }
        self = v
    }
}

extension Signature: DBusBasicArgument {
    package static var dbusSignature: Signature { Signature(unchecked: "g") }
    package init(from reader: inout MessageReader) throws(DBusError) {
        self.init(unchecked: try reader.readString(TypeCode.signature))
    }
    package func encode(to writer: inout MessageWriter) { writer.appendString(TypeCode.signature, rawValue) }
    package var dbusValue: DBusValue { .signature(self) }
    package init(dbusValue: DBusValue) throws(DBusError) {
        guard case .signature(let v) = dbusValue else { throw mismatch(dbusValue, expected: Self.dbusSignature) }
        self = v
    }
}

/// A Unix file descriptor passed over the bus (`h`). The wrapper owns its descriptor: libdbus
/// hands out a duplicate on read, closed when the last copy of this value goes away.
package struct UnixFD: DBusBasicArgument {
    final class Owner: Sendable {
        let fd: Int32
        init(fd: Int32) { self.fd = fd }
        deinit { if fd >= 0 { _ = close(fd) } }
    }
    let owner: Owner
    package var fd: Int32 { owner.fd }

    /// Takes ownership of `fd` (it is closed when no longer referenced).
    package init(owning fd: Int32) { owner = Owner(fd: fd) }
    package static func == (a: UnixFD, b: UnixFD) -> Bool { a.fd == b.fd }
    package func hash(into hasher: inout Hasher) { hasher.combine(fd) }

    package static var dbusSignature: Signature { Signature(unchecked: "h") }
    package init(from reader: inout MessageReader) throws(DBusError) {
        let fd = try reader.readBasic(TypeCode.unixFD, as: Int32.self, zero: -1)
        // An `h` is an index into the descriptors sent with the message; libdbus answers -1 when
        // the message carries no descriptor at that index (none attached, or more `h` than fds).
        // Such a value could never be sent on, so it is rejected here, not at a later append.
        guard fd >= 0 else {
            throw DBusError.invalidArgs("the message carries no file descriptor for its 'h' argument")
        }
        self.init(owning: fd)
    }
    // libdbus duplicates the descriptor on append, so ours stays ours.
    package func encode(to writer: inout MessageWriter) {
        precondition(fd >= 0, "UnixFD: \(fd) is not a file descriptor")
        writer.appendBasic(TypeCode.unixFD, fd)
    }
    package var dbusValue: DBusValue { .unixFD(self) }
    package init(dbusValue: DBusValue) throws(DBusError) {
        guard case .unixFD(let v) = dbusValue else { throw mismatch(dbusValue, expected: Self.dbusSignature) }
        self = v
    }
}

// MARK: - Containers

extension Array: DBusArgument where Element: DBusArgument {
    package static var dbusSignature: Signature { Signature(unchecked: "a" + Element.dbusSignature.rawValue) }

    package init(from reader: inout MessageReader) throws(DBusError) {
        // Byte arrays (cover images) are read in one step rather than element by element.
        if Element.self == UInt8.self {
            self = unsafeBitCast(try reader.readFixedArray(TypeCode.byte, as: UInt8.self), to: [Element].self)
            return
        }
        var sub = try reader.enter(TypeCode.array, signature: "a" + Element.dbusSignature.rawValue)
        var result: [Element] = []
        while !sub.isAtEnd { result.append(try Element(from: &sub)) }
        self = result
    }

    package func encode(to writer: inout MessageWriter) {
        // Check the element type, not `as? [UInt8]`: an empty array of any type casts successfully.
        if Element.self == UInt8.self {
            writer.appendFixedArray(TypeCode.byte, signature: "y", unsafeBitCast(self, to: [UInt8].self))
            return
        }
        writer.withContainer(TypeCode.array, signature: Element.dbusSignature.rawValue) { sub in
            for element in self { element.encode(to: &sub) }
        }
    }

    package var dbusValue: DBusValue { .array(Element.dbusSignature, map(\.dbusValue)) }

    package init(dbusValue: DBusValue) throws(DBusError) {
        guard case .array(let signature, let elements) = dbusValue, signature == Element.dbusSignature else {
            throw mismatch(dbusValue, expected: Self.dbusSignature)
        }
        var result: [Element] = []
        result.reserveCapacity(elements.count)
        for element in elements { result.append(try Element(dbusValue: element)) }
        self = result
    }
}

extension Dictionary: DBusArgument where Key: DBusBasicArgument, Value: DBusArgument {
    package static var dbusSignature: Signature {
        Signature(unchecked: "a{" + Key.dbusSignature.rawValue + Value.dbusSignature.rawValue + "}")
    }

    package init(from reader: inout MessageReader) throws(DBusError) {
        var entries = try reader.enter(TypeCode.array, signature: Self.dbusSignature.rawValue)
        var result: [Key: Value] = [:]
        while !entries.isAtEnd {
            var entry = try entries.enter(TypeCode.dictEntry)
            let key = try Key(from: &entry)
            result[key] = try Value(from: &entry)
        }
        self = result
    }

    package func encode(to writer: inout MessageWriter) {
        let entrySignature = "{" + Key.dbusSignature.rawValue + Value.dbusSignature.rawValue + "}"
        writer.withContainer(TypeCode.array, signature: entrySignature) { array in
            for (key, value) in self {
                array.withContainer(TypeCode.dictEntry, signature: nil) { entry in
                    key.encode(to: &entry)
                    value.encode(to: &entry)
                }
            }
        }
    }

    package var dbusValue: DBusValue {
        .dictionary(Key.dbusSignature, Value.dbusSignature,
                    map { DBusValue.DictEntry(key: $0.key.dbusValue, value: $0.value.dbusValue) })
    }

    package init(dbusValue: DBusValue) throws(DBusError) {
        guard case .dictionary(let k, let v, let entries) = dbusValue,
              k == Key.dbusSignature, v == Value.dbusSignature else {
            throw mismatch(dbusValue, expected: Self.dbusSignature)
        }
        var result: [Key: Value] = [:]
        for entry in entries { result[try Key(dbusValue: entry.key)] = try Value(dbusValue: entry.value) }
        self = result
    }
}

/// A variant (`v`): any single complete value, carried with its own signature.
package struct Variant: DBusArgument, Hashable, CustomStringConvertible {
    package var value: DBusValue
    package init(_ value: DBusValue) { self.value = value }
    package init(_ value: some DBusArgument) { self.value = value.dbusValue }

    /// The contained value as `T`; `InvalidArgs` when it holds another type.
    package func get<T: DBusArgument>(_ type: T.Type = T.self) throws(DBusError) -> T {
        try T(dbusValue: value)
    }

    package static var dbusSignature: Signature { Signature(unchecked: "v") }
    package init(from reader: inout MessageReader) throws(DBusError) {
        var inner = try reader.enter(TypeCode.variant)
        value = try inner.readValue()
    }
    package func encode(to writer: inout MessageWriter) {
        writer.withContainer(TypeCode.variant, signature: value.signature.rawValue) { value.encode(to: &$0) }
    }
    package var dbusValue: DBusValue { .variant(value) }
    package init(dbusValue: DBusValue) throws(DBusError) {
        guard case .variant(let inner) = dbusValue else { throw mismatch(dbusValue, expected: Self.dbusSignature) }
        value = inner
    }
    package var description: String { value.description }
}

/// A type that travels as its raw string (`s`), so that a declaration can name it and both sides
/// use the type: a reason, a key. Every string decodes (a later peer may send a value this version
/// does not know).
package protocol DBusStringValue: DBusBasicArgument, RawRepresentable where RawValue == String {
    init(rawValue: String)
}

extension DBusStringValue {
    package static var dbusSignature: Signature { String.dbusSignature }
    package init(from reader: inout MessageReader) throws(DBusError) { self.init(rawValue: try String(from: &reader)) }
    package func encode(to writer: inout MessageWriter) { rawValue.encode(to: &writer) }
    package var dbusValue: DBusValue { rawValue.dbusValue }
    package init(dbusValue: DBusValue) throws(DBusError) { self.init(rawValue: try String(dbusValue: dbusValue)) }
}
