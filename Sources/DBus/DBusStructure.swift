internal import CDBus

/// A Swift struct that travels as a D-Bus STRUCT: its fields, in order, each a `DBusArgument`.
///
/// Conforming takes three members written in the same field order — the signature, the fields
/// written, the fields read — and the rest follows: encoding and decoding straight from and to the
/// message (a byte-array field is copied in one step, not value by value), and the dynamically
/// typed form a variant carries (`dbusValue`, `init(dbusValue:)`), derived from the wire form.
/// A recursive struct (one holding itself inside `av`, as dbusmenu's layouts do) works the same way.
///
/// ```swift
/// struct Pixmap: DBusStructure {
///     var width: Int32, height: Int32, bytes: [UInt8]
///     static var dbusSignature: Signature { .structure(Int32.self, Int32.self, [UInt8].self) } // "(iiay)"
///     init(fields: inout MessageReader) throws(DBusError) {
///         width = try fields.read(); height = try fields.read(); bytes = try fields.read()
///     }
///     func encodeFields(to writer: inout MessageWriter) {
///         writer.append(width); writer.append(height); writer.append(bytes)
///     }
/// }
/// ```
public protocol DBusStructure: DBusArgument {
    /// Reads the fields in order from a reader positioned at the first one. The structure's
    /// signature has been checked already; each read checks its own field's type again.
    init(fields: inout MessageReader) throws(DBusError)
    /// Appends the fields in order.
    func encodeFields(to writer: inout MessageWriter)
}

extension DBusStructure {
    public init(from reader: inout MessageReader) throws(DBusError) {
        let expected = Self.dbusSignature.rawValue
        try reader.expect(TypeCode.structure)
        guard reader.currentSignature == expected else {
            throw DBusError.invalidArgs("expected '\(expected)', got '\(reader.currentSignature)'")
        }
        var fields = try reader.enter(TypeCode.structure)
        try self.init(fields: &fields)
        guard fields.isAtEnd else {
            throw DBusError.invalidArgs("\(Self.self) left fields of '\(expected)' unread")
        }
    }

    public func encode(to writer: inout MessageWriter) {
        writer.withContainer(TypeCode.structure, signature: nil) { encodeFields(to: &$0) }
    }

    /// The value as a variant carries it: written to a scratch message and read back, so it can't
    /// disagree with the wire form.
    public var dbusValue: DBusValue {
        let scratch = Message.scratch()
        var writer = scratch.writer()
        encode(to: &writer)
        var reader = scratch.reader()
        // Read back exactly what was just written with a valid signature: it always decodes.
        guard let value = try? reader.readValue() else { preconditionFailure("\(Self.self) does not read back what it wrote") }
        return value
    }

    public init(dbusValue: DBusValue) throws(DBusError) {
        guard dbusValue.signature == Self.dbusSignature else { throw mismatch(dbusValue, expected: Self.dbusSignature) }
        let scratch = Message.scratch()
        var writer = scratch.writer()
        writer.append(dbusValue)
        var reader = scratch.reader()
        try self.init(from: &reader)
    }
}

extension Signature {
    /// The signature of a STRUCT of these field types, e.g. `.structure(Int32.self, String.self)`
    /// is `(is)`.
    public static func structure<each Field: DBusArgument>(_ fields: repeat (each Field).Type) -> Signature {
        var text = "("
        repeat text += (each fields).dbusSignature.rawValue
        return Signature(unchecked: text + ")")
    }
}

extension MessageReader {
    /// Reads the next argument as `Value`; `InvalidArgs` when it has another type.
    public mutating func read<Value: DBusArgument>(_ type: Value.Type = Value.self) throws(DBusError) -> Value {
        try Value(from: &self)
    }
}

extension MessageWriter {
    /// Appends `value` (its signature follows from its Swift type).
    public mutating func append<Value: DBusArgument>(_ value: Value) { value.encode(to: &self) }

    /// Appends `value` inside a variant.
    mutating func appendVariant<Value: DBusArgument>(_ value: Value) {
        withContainer(TypeCode.variant, signature: Value.dbusSignature.rawValue) { value.encode(to: &$0) }
    }
}

extension Message {
    /// A message that never goes on the wire: a body to write values into and read back.
    static func scratch() -> Message {
        Message(owning: dbus_message_new(DBUS_MESSAGE_TYPE_METHOD_RETURN)!)
    }
}
