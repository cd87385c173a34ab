import CDBus

extension Message {
    /// Reads a message from its wire form (the D-Bus marshalling: header, fields and body, as
    /// `wireBytes()` writes it or a socket carries it).
    ///
    /// The bytes must hold exactly one complete message. libdbus validates them as untrusted data
    /// (header, signature, body, nesting limits) before anything can be read, so the message's
    /// `reader()` and `decode` are as safe on it as on a message received from the bus.
    /// - Throws: `InvalidArgs` when the bytes are truncated, have bytes after the message, or are
    ///   not a valid message; `NoMemory` when libdbus runs out of memory.
    package convenience init(wireBytes bytes: [UInt8]) throws(DBusError) {
        // libdbus's answer: 0 = not even a full fixed header yet, -1 = not a message header,
        // else the length of the whole message.
        let needed = bytes.withUnsafeBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress, buffer.count <= Int32.max else { return 0 }
            return base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                dbus_message_demarshal_bytes_needed($0, Int32(buffer.count))
            }
        }
        guard needed > 0 else {
            throw DBusError.invalidArgs(needed == 0 ? "\(bytes.count) bytes are too few for a D-Bus message header" : "the bytes do not start with a D-Bus message header")
        }
        guard Int(needed) == bytes.count else {
            throw DBusError.invalidArgs("the message header announces \(needed) bytes, got \(bytes.count)")
        }
        let raw = try DBusError.check { error in
            bytes.withUnsafeBufferPointer { buffer -> OpaquePointer? in
                guard let base = buffer.baseAddress else { return nil }
                return base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                    dbus_message_demarshal($0, Int32(buffer.count), error)
                }
            }
        }
        self.init(owning: raw)
    }

    /// The message's wire form (the D-Bus marshalling), readable back with `init(wireBytes:)`.
    ///
    /// A message that was never sent has no serial yet, and serial 0 is not valid on the wire:
    /// such a message is marshalled as a copy with serial 1 (the message itself is unchanged).
    package func wireBytes() -> [UInt8] {
        var source = self
        if serial == 0 {
            guard let copy = dbus_message_copy(raw) else { preconditionFailure("out of memory copying a D-Bus message") }
            source = Message(owning: copy)
            dbus_message_set_serial(source.raw, 1)
        }
        var pointer: UnsafeMutablePointer<CChar>? = nil
        var length: Int32 = 0
        let ok = dbus_message_marshal(source.raw, &pointer, &length)
        precondition(ok != 0, "out of memory marshalling a D-Bus message")
        guard let pointer else { return [] }
        defer { dbus_free(pointer) }
        return pointer.withMemoryRebound(to: UInt8.self, capacity: Int(length)) {
            Array(UnsafeBufferPointer(start: $0, count: Int(length)))
        }
    }
}
