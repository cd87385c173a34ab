import CDBus

/// A Swift struct that travels as a D-Bus STRUCT: its fields, in order, each a `DBusArgument`.
///
/// The fields are declared once, as a list of key paths (`fields`), and everything follows from
/// that list: the signature, encoding and decoding straight from and to the message (a byte-array
/// field is copied in one step, not value by value), and the dynamically typed form a variant
/// carries (`dbusValue`, `init(dbusValue:)`). Since the signature and the wire form come from the
/// same list, they cannot disagree, whatever order the fields are declared in. A field stored as
/// one type may travel as another (`DBusField.field(_:as:encode:decode:)`): a recursive struct,
/// holding itself inside `av` as dbusmenu's layouts do, works that way.
///
/// ```swift
/// struct Pixmap: DBusStructure {
///     var width: Int32 = 0, height: Int32 = 0, bytes: [UInt8] = []
///     static let fields: [DBusField<Pixmap>] = [.field(\.width), .field(\.height), .field(\.bytes)] // "(iiay)"
///     static var empty: Pixmap { Pixmap() }
/// }
/// ```
package protocol DBusStructure: DBusArgument {
    /// The fields in wire order.
    static var fields: [DBusField<Self>] { get }
    /// The value decoding starts from: each field is then set from the message, in order.
    static var empty: Self { get }
}

/// One field of a `DBusStructure`: its signature, and how it is written from and read into the struct.
package struct DBusField<Root>: Sendable {
    let signature: Signature
    let encode: @Sendable (Root, inout MessageWriter) -> Void
    let decode: @Sendable (inout Root, inout MessageReader) throws(DBusError) -> Void

    /// The field at `path`, travelling as its own type.
    package static func field<Value: DBusArgument>(_ path: any WritableKeyPath<Root, Value> & Sendable) -> DBusField {
        DBusField(signature: Value.dbusSignature,
                  encode: { root, writer in root[keyPath: path].encode(to: &writer) },
                  decode: { root, reader throws(DBusError) in root[keyPath: path] = try Value(from: &reader) })
    }

    /// The field at `path`, travelling as `Wire`: written through `encode`, read back through `decode`.
    package static func field<Value, Wire: DBusArgument>(
        _ path: any WritableKeyPath<Root, Value> & Sendable, as wire: Wire.Type,
        encode: @escaping @Sendable (Value) -> Wire, decode: @escaping @Sendable (Wire) throws(DBusError) -> Value
    ) -> DBusField {
        DBusField(signature: Wire.dbusSignature,
                  encode: { root, writer in encode(root[keyPath: path]).encode(to: &writer) },
                  decode: { root, reader throws(DBusError) in root[keyPath: path] = try decode(try Wire(from: &reader)) })
    }

    /// An array field travelling as `av`, each element in its own variant: how a struct holds
    /// itself (dbusmenu's layouts).
    package static func variants<Element: DBusArgument>(_ path: any WritableKeyPath<Root, [Element]> & Sendable) -> DBusField {
        field(path, as: [Variant].self, encode: { $0.map { Variant($0) } }) { variants throws(DBusError) in
            var elements: [Element] = []
            for variant in variants { elements.append(try variant.get(Element.self)) }
            return elements
        }
    }
}

extension DBusStructure {
    /// `(` and the fields' signatures `)`.
    package static var dbusSignature: Signature {
        Signature(unchecked: "(" + fields.map(\.signature.rawValue).joined() + ")")
    }

    package init(from reader: inout MessageReader) throws(DBusError) {
        let expected = Self.dbusSignature.rawValue
        var fields = try reader.enter(TypeCode.structure, signature: expected)
        var value = Self.empty
        for field in Self.fields { try field.decode(&value, &fields) }
        guard fields.isAtEnd else {
            throw DBusError.invalidArgs("\(Self.self) left fields of '\(expected)' unread")
        }
        self = value
    }

    package func encode(to writer: inout MessageWriter) {
        writer.withContainer(TypeCode.structure, signature: nil) { fields in
            for field in Self.fields { field.encode(self, &fields) }
        }
    }

    /// The value as a variant carries it: written to a scratch message and read back. The
    /// signature and the fields written come from the same list, so it always reads back.
    package var dbusValue: DBusValue {
        let scratch = Message.scratch()
        var writer = scratch.writer()
        encode(to: &writer)
        var reader = scratch.reader()
        guard let value = try? reader.readValue() else { preconditionFailure("\(Self.self) does not read back what it wrote") }
        return value
    }

    package init(dbusValue: DBusValue) throws(DBusError) {
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
    package static func structure<each Field: DBusArgument>(_ fields: repeat (each Field).Type) -> Signature {
        var text = "("
        repeat text += (each fields).dbusSignature.rawValue
        return Signature(unchecked: text + ")")
    }
}

extension MessageReader {
    /// Reads the next argument as `Value`; `InvalidArgs` when it has another type.
    package mutating func read<Value: DBusArgument>(_ type: Value.Type = Value.self) throws(DBusError) -> Value {
        try Value(from: &self)
    }
}

extension MessageWriter {
    /// Appends `value` (its signature follows from its Swift type).
    package mutating func append<Value: DBusArgument>(_ value: Value) { value.encode(to: &self) }

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
