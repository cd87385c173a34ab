import CDBus

/// Appends arguments to a message body. Containers are opened and closed in `withContainer`.
///
/// libdbus only fails to append when memory runs out; that is treated like any allocation failure.
package struct MessageWriter {
    var iter = DBusMessageIter()
    let message: Message

    init(appendingTo message: Message) {
        self.message = message
        dbus_message_iter_init_append(message.raw, &iter)
    }

    private init(sub: DBusMessageIter, message: Message) {
        self.iter = sub
        self.message = message
    }

    mutating func appendBasic<T>(_ type: Int32, _ value: T) {
        var copy = value
        let ok = withUnsafePointer(to: &copy) { dbus_message_iter_append_basic(&iter, type, UnsafeRawPointer($0)) }
        precondition(ok != 0, "out of memory appending to a D-Bus message")
    }

    /// Appends a string-like value; `value` must already be valid for `type`.
    mutating func appendString(_ type: Int32, _ value: String) {
        let ok = value.replacingNULs().withCString { cString -> dbus_bool_t in
            var pointer: UnsafePointer<CChar>? = cString
            return withUnsafePointer(to: &pointer) { dbus_message_iter_append_basic(&iter, type, UnsafeRawPointer($0)) }
        }
        precondition(ok != 0, "out of memory appending to a D-Bus message")
    }

    mutating func withContainer(_ type: Int32, signature: String?, _ body: (inout MessageWriter) -> Void) {
        var sub = DBusMessageIter()
        let opened = dbus_message_iter_open_container(&iter, type, signature, &sub)
        precondition(opened != 0, "out of memory appending to a D-Bus message")
        var writer = MessageWriter(sub: sub, message: message)
        body(&writer)
        let closed = dbus_message_iter_close_container(&iter, &writer.iter)
        precondition(closed != 0, "out of memory appending to a D-Bus message")
    }

    /// Appends an array of a fixed-size type in one step.
    mutating func appendFixedArray<T>(_ elementType: Int32, signature: String, _ elements: [T]) {
        withContainer(TypeCode.array, signature: signature) { writer in
            elements.withUnsafeBufferPointer { buffer in
                var base = buffer.baseAddress
                let ok = withUnsafePointer(to: &base) {
                    dbus_message_iter_append_fixed_array(&writer.iter, elementType, UnsafeRawPointer($0), Int32(buffer.count))
                }
                precondition(ok != 0, "out of memory appending to a D-Bus message")
            }
        }
    }

    /// Appends any value (its signature comes from the value itself).
    package mutating func append(_ value: DBusValue) { value.encode(to: &self) }
}
