import CDBus

/// Reads a message body argument by argument, checking each argument's type before reading it.
///
/// A type mismatch throws `InvalidArgs`: data from the bus never reaches a trap.
package struct MessageReader {
    var iter = DBusMessageIter()
    /// Keeps the message alive while the iterator points into it.
    let message: Message

    init(message: Message) {
        self.message = message
        if dbus_message_iter_init(message.raw, &iter) == 0 {
            // An empty body: libdbus still initialises the iterator; remember there is nothing to read.
            atEnd = true
        }
    }

    private init(sub: DBusMessageIter, message: Message) {
        self.iter = sub
        self.message = message
    }

    private var atEnd = false

    /// The type code of the next argument, or `TypeCode.invalid` at the end.
    var currentType: Int32 {
        mutating get { atEnd ? TypeCode.invalid : dbus_message_iter_get_arg_type(&iter) }
    }

    package var isAtEnd: Bool {
        var copy = self // libdbus's getters take a mutable iterator; reading never moves it
        return copy.currentType == TypeCode.invalid
    }

    /// The signature of the next argument ("" at the end).
    var currentSignature: String {
        var copy = iter
        guard !isAtEnd, let s = dbus_message_iter_get_signature(&copy) else { return "" }
        defer { dbus_free(s) }
        return String(cString: s)
    }

    mutating func expect(_ type: Int32) throws(DBusError) {
        let found = currentType
        guard found == type else {
            throw DBusError.invalidArgs("expected \(TypeCode.name(type)), found \(TypeCode.name(found))")
        }
    }

    mutating func advance() { _ = dbus_message_iter_next(&iter) }

    /// Reads a fixed-size basic value stored as `T` in C.
    mutating func readBasic<T>(_ type: Int32, as: T.Type, zero: T) throws(DBusError) -> T {
        try expect(type)
        var value = zero
        withUnsafeMutablePointer(to: &value) { dbus_message_iter_get_basic(&iter, UnsafeMutableRawPointer($0)) }
        advance()
        return value
    }

    /// Reads a string-like basic value (`s`, `o`, `g`).
    mutating func readString(_ type: Int32) throws(DBusError) -> String {
        try expect(type)
        var pointer: UnsafePointer<CChar>? = nil
        withUnsafeMutablePointer(to: &pointer) { dbus_message_iter_get_basic(&iter, UnsafeMutableRawPointer($0)) }
        advance()
        return pointer.map { String(cString: $0) } ?? ""
    }

    /// Enters the container of `type` at the current position when its whole signature is
    /// `signature`; `InvalidArgs` naming both otherwise.
    mutating func enter(_ type: Int32, signature expected: String) throws(DBusError) -> MessageReader {
        try expect(type)
        guard currentSignature == expected else {
            throw DBusError.invalidArgs("expected '\(expected)', got '\(currentSignature)'")
        }
        return try enter(type)
    }

    /// Enters the container at the current position, returning a reader for its contents and
    /// moving past it.
    mutating func enter(_ type: Int32) throws(DBusError) -> MessageReader {
        try expect(type)
        var sub = DBusMessageIter()
        dbus_message_iter_recurse(&iter, &sub)
        advance()
        return MessageReader(sub: sub, message: message)
    }

    /// The element type code of the array at the current position.
    mutating func arrayElementType() -> Int32 { dbus_message_iter_get_element_type(&iter) }

    /// Reads an array of a fixed-size type in one step (no per-element work).
    mutating func readFixedArray<T>(_ elementType: Int32, as: T.Type) throws(DBusError) -> [T] {
        try expect(TypeCode.array)
        guard arrayElementType() == elementType else {
            throw DBusError.invalidArgs("expected an array of \(TypeCode.name(elementType)), found an array of \(TypeCode.name(arrayElementType()))")
        }
        var sub = DBusMessageIter()
        dbus_message_iter_recurse(&iter, &sub)
        var pointer: UnsafeMutableRawPointer? = nil
        var count: Int32 = 0
        withUnsafeMutablePointer(to: &pointer) { dbus_message_iter_get_fixed_array(&sub, UnsafeMutableRawPointer($0), &count) }
        advance()
        guard let pointer, count > 0 else { return [] }
        let typed = pointer.assumingMemoryBound(to: T.self)
        return Array(UnsafeBufferPointer(start: typed, count: Int(count)))
    }

    /// Reads the next argument whatever its type.
    package mutating func readValue() throws(DBusError) -> DBusValue {
        try DBusValue(from: &self)
    }
}
