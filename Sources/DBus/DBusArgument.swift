import CDBus
import Glibc

/// A Swift type that is a D-Bus type: it knows its signature, and encodes to and decodes from a
/// message body. Decoding checks the wire type and throws `InvalidArgs` on a mismatch.
///
/// Conforming your own struct: implement `dbusSignature` (e.g. `"(is)"`), `dbusValue` and
/// `init(dbusValue:)`; `encode(to:)` and `init(from:)` then come for free.
public protocol DBusArgument: Sendable {
    static var dbusSignature: Signature { get }
    init(from reader: inout MessageReader) throws(DBusError)
    func encode(to writer: inout MessageWriter)

    /// The value as a dynamically typed D-Bus value (how it travels inside a variant).
    var dbusValue: DBusValue { get }
    init(dbusValue: DBusValue) throws(DBusError)
}

extension DBusArgument {
    public init(from reader: inout MessageReader) throws(DBusError) {
        try self.init(dbusValue: reader.readValue())
    }
    public func encode(to writer: inout MessageWriter) { dbusValue.encode(to: &writer) }
}

/// Types that may be dictionary keys: the basic types.
public protocol DBusBasicArgument: DBusArgument, Hashable {}

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
    public init(from reader: inout MessageReader) throws(DBusError) {
        self = try reader.readBasic(Self.typeCode, as: Self.self, zero: Self.zero)
    }
    public func encode(to writer: inout MessageWriter) { writer.appendBasic(Self.typeCode, self) }
}

extension UInt8: DBusBasicArgument, FixedBasic {
    static var typeCode: Int32 { TypeCode.byte }
    static var zero: UInt8 { 0 }
    public static var dbusSignature: Signature { Signature(unchecked: "y") }
    public var dbusValue: DBusValue { .byte(self) }
    public init(dbusValue: DBusValue) throws(DBusError) {
        guard case .byte(let v) = dbusValue else { throw mismatch(dbusValue, expected: Self.dbusSignature) }
        self = v
    }
}

extension Bool: DBusBasicArgument {
    public static var dbusSignature: Signature { Signature(unchecked: "b") }
    public init(from reader: inout MessageReader) throws(DBusError) {
        // libdbus stores booleans as 32-bit integers on the wire.
        self = try reader.readBasic(TypeCode.boolean, as: dbus_bool_t.self, zero: 0) != 0
    }
    public func encode(to writer: inout MessageWriter) { writer.appendBasic(TypeCode.boolean, dbus_bool_t(self ? 1 : 0)) }
    public var dbusValue: DBusValue { .boolean(self) }
    public init(dbusValue: DBusValue) throws(DBusError) {
        guard case .boolean(let v) = dbusValue else { throw mismatch(dbusValue, expected: Self.dbusSignature) }
        self = v
    }
}

extension Int16: DBusBasicArgument, FixedBasic {
    static var typeCode: Int32 { TypeCode.int16 }
    static var zero: Int16 { 0 }
    public static var dbusSignature: Signature { Signature(unchecked: "n") }
    public var dbusValue: DBusValue { .int16(self) }
    public init(dbusValue: DBusValue) throws(DBusError) {
        guard case .int16(let v) = dbusValue else { throw mismatch(dbusValue, expected: Self.dbusSignature) }
        self = v
    }
}

extension UInt16: DBusBasicArgument, FixedBasic {
    static var typeCode: Int32 { TypeCode.uint16 }
    static var zero: UInt16 { 0 }
    public static var dbusSignature: Signature { Signature(unchecked: "q") }
    public var dbusValue: DBusValue { .uint16(self) }
    public init(dbusValue: DBusValue) throws(DBusError) {
        guard case .uint16(let v) = dbusValue else { throw mismatch(dbusValue, expected: Self.dbusSignature) }
        self = v
    }
}

extension Int32: DBusBasicArgument, FixedBasic {
    static var typeCode: Int32 { TypeCode.int32 }
    static var zero: Int32 { 0 }
    public static var dbusSignature: Signature { Signature(unchecked: "i") }
    public var dbusValue: DBusValue { .int32(self) }
    public init(dbusValue: DBusValue) throws(DBusError) {
        guard case .int32(let v) = dbusValue else { throw mismatch(dbusValue, expected: Self.dbusSignature) }
        self = v
    }
}

extension UInt32: DBusBasicArgument, FixedBasic {
    static var typeCode: Int32 { TypeCode.uint32 }
    static var zero: UInt32 { 0 }
    public static var dbusSignature: Signature { Signature(unchecked: "u") }
    public var dbusValue: DBusValue { .uint32(self) }
    public init(dbusValue: DBusValue) throws(DBusError) {
        guard case .uint32(let v) = dbusValue else { throw mismatch(dbusValue, expected: Self.dbusSignature) }
        self = v
    }
}

extension Int64: DBusBasicArgument, FixedBasic {
    static var typeCode: Int32 { TypeCode.int64 }
    static var zero: Int64 { 0 }
    public static var dbusSignature: Signature { Signature(unchecked: "x") }
    public var dbusValue: DBusValue { .int64(self) }
    public init(dbusValue: DBusValue) throws(DBusError) {
        guard case .int64(let v) = dbusValue else { throw mismatch(dbusValue, expected: Self.dbusSignature) }
        self = v
    }
}

extension UInt64: DBusBasicArgument, FixedBasic {
    static var typeCode: Int32 { TypeCode.uint64 }
    static var zero: UInt64 { 0 }
    public static var dbusSignature: Signature { Signature(unchecked: "t") }
    public var dbusValue: DBusValue { .uint64(self) }
    public init(dbusValue: DBusValue) throws(DBusError) {
        guard case .uint64(let v) = dbusValue else { throw mismatch(dbusValue, expected: Self.dbusSignature) }
        self = v
    }
}

extension Double: DBusBasicArgument, FixedBasic {
    static var typeCode: Int32 { TypeCode.double }
    static var zero: Double { 0 }
    public static var dbusSignature: Signature { Signature(unchecked: "d") }
    public var dbusValue: DBusValue { .double(self) }
    public init(dbusValue: DBusValue) throws(DBusError) {
        guard case .double(let v) = dbusValue else { throw mismatch(dbusValue, expected: Self.dbusSignature) }
        self = v
    }
}

extension String: DBusBasicArgument {
    public static var dbusSignature: Signature { Signature(unchecked: "s") }
    public init(from reader: inout MessageReader) throws(DBusError) { self = try reader.readString(TypeCode.string) }
    public func encode(to writer: inout MessageWriter) { writer.appendString(TypeCode.string, self) }
    public var dbusValue: DBusValue { .string(self) }
    public init(dbusValue: DBusValue) throws(DBusError) {
        guard case .string(let v) = dbusValue else { throw mismatch(dbusValue, expected: Self.dbusSignature) }
        self = v
    }
}

extension ObjectPath: DBusBasicArgument {
    public static var dbusSignature: Signature { Signature(unchecked: "o") }
    public init(from reader: inout MessageReader) throws(DBusError) {
        self.init(unchecked: try reader.readString(TypeCode.objectPath)) // libdbus validated it on receipt
    }
    public func encode(to writer: inout MessageWriter) { writer.appendString(TypeCode.objectPath, rawValue) }
    public var dbusValue: DBusValue { .objectPath(self) }
    public init(dbusValue: DBusValue) throws(DBusError) {
        guard case .objectPath(let v) = dbusValue else { throw mismatch(dbusValue, expected: Self.dbusSignature) }
        self = v
    }
}

extension Signature: DBusBasicArgument {
    public static var dbusSignature: Signature { Signature(unchecked: "g") }
    public init(from reader: inout MessageReader) throws(DBusError) {
        self.init(unchecked: try reader.readString(TypeCode.signature))
    }
    public func encode(to writer: inout MessageWriter) { writer.appendString(TypeCode.signature, rawValue) }
    public var dbusValue: DBusValue { .signature(self) }
    public init(dbusValue: DBusValue) throws(DBusError) {
        guard case .signature(let v) = dbusValue else { throw mismatch(dbusValue, expected: Self.dbusSignature) }
        self = v
    }
}

/// A Unix file descriptor passed over the bus (`h`). The wrapper owns its descriptor: libdbus
/// hands out a duplicate on read, closed when the last copy of this value goes away.
public struct UnixFD: DBusBasicArgument {
    final class Owner: Sendable {
        let fd: Int32
        init(fd: Int32) { self.fd = fd }
        deinit { if fd >= 0 { _ = close(fd) } }
    }
    let owner: Owner
    public var fd: Int32 { owner.fd }

    /// Takes ownership of `fd` (it is closed when no longer referenced).
    public init(owning fd: Int32) { owner = Owner(fd: fd) }
    public static func == (a: UnixFD, b: UnixFD) -> Bool { a.fd == b.fd }
    public func hash(into hasher: inout Hasher) { hasher.combine(fd) }

    public static var dbusSignature: Signature { Signature(unchecked: "h") }
    public init(from reader: inout MessageReader) throws(DBusError) {
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
    public func encode(to writer: inout MessageWriter) {
        precondition(fd >= 0, "UnixFD: \(fd) is not a file descriptor")
        writer.appendBasic(TypeCode.unixFD, fd)
    }
    public var dbusValue: DBusValue { .unixFD(self) }
    public init(dbusValue: DBusValue) throws(DBusError) {
        guard case .unixFD(let v) = dbusValue else { throw mismatch(dbusValue, expected: Self.dbusSignature) }
        self = v
    }
}

// MARK: - Containers

extension Array: DBusArgument where Element: DBusArgument {
    public static var dbusSignature: Signature { Signature(unchecked: "a" + Element.dbusSignature.rawValue) }

    public init(from reader: inout MessageReader) throws(DBusError) {
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

    public func encode(to writer: inout MessageWriter) {
        // Check the element type, not `as? [UInt8]`: an empty array of any type casts successfully.
        if Element.self == UInt8.self {
            writer.appendFixedArray(TypeCode.byte, signature: "y", unsafeBitCast(self, to: [UInt8].self))
            return
        }
        writer.withContainer(TypeCode.array, signature: Element.dbusSignature.rawValue) { sub in
            for element in self { element.encode(to: &sub) }
        }
    }

    public var dbusValue: DBusValue { .array(Element.dbusSignature, map(\.dbusValue)) }

    public init(dbusValue: DBusValue) throws(DBusError) {
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
    public static var dbusSignature: Signature {
        Signature(unchecked: "a{" + Key.dbusSignature.rawValue + Value.dbusSignature.rawValue + "}")
    }

    public init(from reader: inout MessageReader) throws(DBusError) {
        var entries = try reader.enter(TypeCode.array, signature: Self.dbusSignature.rawValue)
        var result: [Key: Value] = [:]
        while !entries.isAtEnd {
            var entry = try entries.enter(TypeCode.dictEntry)
            let key = try Key(from: &entry)
            result[key] = try Value(from: &entry)
        }
        self = result
    }

    public func encode(to writer: inout MessageWriter) {
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

    public var dbusValue: DBusValue {
        .dictionary(Key.dbusSignature, Value.dbusSignature,
                    map { DBusValue.DictEntry(key: $0.key.dbusValue, value: $0.value.dbusValue) })
    }

    public init(dbusValue: DBusValue) throws(DBusError) {
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
public struct Variant: DBusArgument, Hashable, CustomStringConvertible {
    public var value: DBusValue
    public init(_ value: DBusValue) { self.value = value }
    public init(_ value: some DBusArgument) { self.value = value.dbusValue }

    /// The contained value as `T`; `InvalidArgs` when it holds another type.
    public func get<T: DBusArgument>(_ type: T.Type = T.self) throws(DBusError) -> T {
        try T(dbusValue: value)
    }

    public static var dbusSignature: Signature { Signature(unchecked: "v") }
    public init(from reader: inout MessageReader) throws(DBusError) {
        var inner = try reader.enter(TypeCode.variant)
        value = try inner.readValue()
    }
    public func encode(to writer: inout MessageWriter) {
        writer.withContainer(TypeCode.variant, signature: value.signature.rawValue) { value.encode(to: &$0) }
    }
    public var dbusValue: DBusValue { .variant(value) }
    public init(dbusValue: DBusValue) throws(DBusError) {
        guard case .variant(let inner) = dbusValue else { throw mismatch(dbusValue, expected: Self.dbusSignature) }
        value = inner
    }
    public var description: String { value.description }
}

/// A type that travels as its raw string (`s`), so that a declaration can name it and both sides
/// use the type: a reason, a key. Every string decodes (a later peer may send a value this version
/// does not know).
public protocol DBusStringValue: DBusBasicArgument, RawRepresentable where RawValue == String {
    init(rawValue: String)
}

extension DBusStringValue {
    public static var dbusSignature: Signature { String.dbusSignature }
    public init(from reader: inout MessageReader) throws(DBusError) { self.init(rawValue: try String(from: &reader)) }
    public func encode(to writer: inout MessageWriter) { rawValue.encode(to: &writer) }
    public var dbusValue: DBusValue { rawValue.dbusValue }
    public init(dbusValue: DBusValue) throws(DBusError) { self.init(rawValue: try String(dbusValue: dbusValue)) }
}
