/// Any D-Bus value, typed at run time: what a variant holds, and what a reader returns when the
/// type is not known in advance.
package indirect enum DBusValue: Sendable, Hashable, CustomStringConvertible {
    package struct DictEntry: Sendable, Hashable {
        package var key: DBusValue
        package var value: DBusValue
        package init(key: DBusValue, value: DBusValue) { self.key = key; self.value = value }
    }

    case byte(UInt8)
    case boolean(Bool)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(ObjectPath)
    case signature(Signature)
    case unixFD(UnixFD)
    /// An array with its element signature (needed to encode an empty one).
    case array(Signature, [DBusValue])
    /// A dictionary with its key and value signatures.
    case dictionary(Signature, Signature, [DictEntry])
    case structure([DBusValue])
    case variant(DBusValue)

    /// The value's own signature (one complete type).
    package var signature: Signature {
        switch self {
        case .byte: UInt8.dbusSignature
        case .boolean: Bool.dbusSignature
        case .int16: Int16.dbusSignature
        case .uint16: UInt16.dbusSignature
        case .int32: Int32.dbusSignature
        case .uint32: UInt32.dbusSignature
        case .int64: Int64.dbusSignature
        case .uint64: UInt64.dbusSignature
        case .double: Double.dbusSignature
        case .string: String.dbusSignature
        case .objectPath: ObjectPath.dbusSignature
        case .signature: Signature.dbusSignature
        case .unixFD: UnixFD.dbusSignature
        case .array(let element, _): Signature(unchecked: "a" + element.rawValue)
        case .dictionary(let k, let v, _): Signature(unchecked: "a{" + k.rawValue + v.rawValue + "}")
        case .structure(let fields): Signature(unchecked: "(" + fields.map(\.signature.rawValue).joined() + ")")
        case .variant: Variant.dbusSignature
        }
    }

    package var description: String {
        switch self {
        case .byte(let v): "byte \(v)"
        case .boolean(let v): "\(v)"
        case .int16(let v): "int16 \(v)"
        case .uint16(let v): "uint16 \(v)"
        case .int32(let v): "\(v)"
        case .uint32(let v): "uint32 \(v)"
        case .int64(let v): "int64 \(v)"
        case .uint64(let v): "uint64 \(v)"
        case .double(let v): "\(v)"
        case .string(let v): "'\(v)'"
        case .objectPath(let v): "objectpath '\(v)'"
        case .signature(let v): "signature '\(v)'"
        case .unixFD(let v): "fd \(v.fd)"
        case .array(_, let items): "[" + items.map(\.description).joined(separator: ", ") + "]"
        case .dictionary(_, _, let entries): "{" + entries.map { "\($0.key): \($0.value)" }.joined(separator: ", ") + "}"
        case .structure(let fields): "(" + fields.map(\.description).joined(separator: ", ") + ")"
        case .variant(let inner): "<\(inner)>"
        }
    }

    func encode(to writer: inout MessageWriter) {
        switch self {
        case .byte(let v): v.encode(to: &writer)
        case .boolean(let v): v.encode(to: &writer)
        case .int16(let v): v.encode(to: &writer)
        case .uint16(let v): v.encode(to: &writer)
        case .int32(let v): v.encode(to: &writer)
        case .uint32(let v): v.encode(to: &writer)
        case .int64(let v): v.encode(to: &writer)
        case .uint64(let v): v.encode(to: &writer)
        case .double(let v): v.encode(to: &writer)
        case .string(let v): v.encode(to: &writer)
        case .objectPath(let v): v.encode(to: &writer)
        case .signature(let v): v.encode(to: &writer)
        case .unixFD(let v): v.encode(to: &writer)
        case .array(let element, let items):
            writer.withContainer(TypeCode.array, signature: element.rawValue) { sub in
                for item in items { item.encode(to: &sub) }
            }
        case .dictionary(let k, let v, let entries):
            writer.withContainer(TypeCode.array, signature: "{" + k.rawValue + v.rawValue + "}") { array in
                for entry in entries {
                    array.withContainer(TypeCode.dictEntry, signature: nil) { sub in
                        entry.key.encode(to: &sub)
                        entry.value.encode(to: &sub)
                    }
                }
            }
        case .structure(let fields):
            writer.withContainer(TypeCode.structure, signature: nil) { sub in
                for field in fields { field.encode(to: &sub) }
            }
        case .variant(let inner):
            writer.withContainer(TypeCode.variant, signature: inner.signature.rawValue) { inner.encode(to: &$0) }
        }
    }

    /// Reads the argument at the reader's position, whatever its type.
    init(from reader: inout MessageReader) throws(DBusError) {
        switch reader.currentType {
        case TypeCode.byte: self = .byte(try UInt8(from: &reader))
        case TypeCode.boolean: self = .boolean(try Bool(from: &reader))
        case TypeCode.int16: self = .int16(try Int16(from: &reader))
        case TypeCode.uint16: self = .uint16(try UInt16(from: &reader))
        case TypeCode.int32: self = .int32(try Int32(from: &reader))
        case TypeCode.uint32: self = .uint32(try UInt32(from: &reader))
        case TypeCode.int64: self = .int64(try Int64(from: &reader))
        case TypeCode.uint64: self = .uint64(try UInt64(from: &reader))
        case TypeCode.double: self = .double(try Double(from: &reader))
        case TypeCode.string: self = .string(try String(from: &reader))
        case TypeCode.objectPath: self = .objectPath(try ObjectPath(from: &reader))
        case TypeCode.signature: self = .signature(try Signature(from: &reader))
        case TypeCode.unixFD: self = .unixFD(try UnixFD(from: &reader))
        case TypeCode.variant: self = .variant(try Variant(from: &reader).value)
        case TypeCode.structure:
            var sub = try reader.enter(TypeCode.structure)
            var fields: [DBusValue] = []
            while !sub.isAtEnd { fields.append(try DBusValue(from: &sub)) }
            self = .structure(fields)
        case TypeCode.array:
            // "a{kv}" is a dictionary; anything else after "a" is the element type.
            let signature = reader.currentSignature
            let elementSignature = String(signature.dropFirst())
            if reader.arrayElementType() == TypeCode.dictEntry {
                let inner = elementSignature.dropFirst().dropLast() // strip { }
                let keySignature = Signature(unchecked: String(inner.prefix(1))) // keys are basic: one character
                let valueSignature = Signature(unchecked: String(inner.dropFirst()))
                var array = try reader.enter(TypeCode.array)
                var entries: [DictEntry] = []
                while !array.isAtEnd {
                    var entry = try array.enter(TypeCode.dictEntry)
                    let key = try DBusValue(from: &entry)
                    let value = try DBusValue(from: &entry)
                    entries.append(DictEntry(key: key, value: value))
                }
                self = .dictionary(keySignature, valueSignature, entries)
            } else {
                var array = try reader.enter(TypeCode.array)
                var items: [DBusValue] = []
                while !array.isAtEnd { items.append(try DBusValue(from: &array)) }
                self = .array(Signature(unchecked: elementSignature), items)
            }
        case TypeCode.invalid:
            throw DBusError.invalidArgs("expected another argument, found the end of the message")
        case let other:
            throw DBusError.invalidArgs("unsupported type \(TypeCode.name(other))")
        }
    }
}
