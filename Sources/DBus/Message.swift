import CDBus

/// A D-Bus message: a method call, a reply, an error or a signal.
///
/// `@unchecked Sendable`: a message is built by one owner and becomes read-only once it is sent or
/// received (libdbus locks it); readers only copy iterators, which never mutate the message. The
/// reference count is atomic in libdbus, so sharing the handle across threads is safe.
package final class Message: @unchecked Sendable {
    package enum Kind: Sendable, Equatable {
        case methodCall, methodReturn, error, signal, unknown
    }

    let raw: OpaquePointer

    /// Takes over a reference the caller owns.
    init(owning raw: OpaquePointer) { self.raw = raw }
    /// Adds a reference of its own.
    init(retaining raw: OpaquePointer) { self.raw = dbus_message_ref(raw) }
    deinit { dbus_message_unref(raw) }

    // MARK: Building

    package static func methodCall(
        destination: BusName?, path: ObjectPath, interface: InterfaceName?, member: MemberName
    ) -> Message {
        Message(owning: dbus_message_new_method_call(
            destination?.rawValue, path.rawValue, interface?.rawValue, member.rawValue)!)
    }

    /// A signal; with a `destination`, a unicast signal the bus delivers only to that peer.
    package static func signal(path: ObjectPath, interface: InterfaceName, member: MemberName, destination: BusName? = nil) -> Message {
        let message = Message(owning: dbus_message_new_signal(path.rawValue, interface.rawValue, member.rawValue)!)
        if let destination {
            let destinationSet = dbus_message_set_destination(message.raw, destination.rawValue)
            precondition(destinationSet != 0, "out of memory building a D-Bus signal")
        }
        return message
    }

    /// A successful reply to this method call.
    package func makeReply() -> Message {
        Message(owning: dbus_message_new_method_return(raw)!)
    }

    /// An error reply to this method call carrying `error`'s name and message.
    func makeErrorReply(_ error: DBusError) -> Message {
        // An invalid name from a handler must not become a malformed message: fall back to Failed.
        let name = (try? ErrorName(error.name))?.rawValue ?? DBusError.Name.failed
        let text = error.message.replacingNULs()
        return Message(owning: dbus_message_new_error(raw, name, text)!)
    }

    /// Appends arguments in order; their signatures follow from their Swift types.
    package func append<each Argument: DBusArgument>(_ arguments: repeat each Argument) {
        var writer = MessageWriter(appendingTo: self)
        repeat (each arguments).encode(to: &writer)
    }

    /// A writer appending at the end of the body.
    package func writer() -> MessageWriter { MessageWriter(appendingTo: self) }

    /// Asks the bus not to start a service for this call (no auto-start).
    package var autoStart: Bool {
        get { dbus_message_get_auto_start(raw) != 0 }
        set { dbus_message_set_auto_start(raw, newValue ? 1 : 0) }
    }

    /// True when the caller asked for no reply.
    var noReplyExpected: Bool {
        get { dbus_message_get_no_reply(raw) != 0 }
        set { dbus_message_set_no_reply(raw, newValue ? 1 : 0) }
    }

    // MARK: Reading

    package var kind: Kind {
        switch dbus_message_get_type(raw) {
        case DBUS_MESSAGE_TYPE_METHOD_CALL: .methodCall
        case DBUS_MESSAGE_TYPE_METHOD_RETURN: .methodReturn
        case DBUS_MESSAGE_TYPE_ERROR: .error
        case DBUS_MESSAGE_TYPE_SIGNAL: .signal
        default: .unknown
        }
    }

    package var path: String? { dbus_message_get_path(raw).map { String(cString: $0) } }
    package var interface: String? { dbus_message_get_interface(raw).map { String(cString: $0) } }
    package var member: String? { dbus_message_get_member(raw).map { String(cString: $0) } }
    package var sender: String? { dbus_message_get_sender(raw).map { String(cString: $0) } }
    package var destination: String? { dbus_message_get_destination(raw).map { String(cString: $0) } }
    var errorName: String? { dbus_message_get_error_name(raw).map { String(cString: $0) } }
    package var serial: UInt32 { dbus_message_get_serial(raw) }
    var replySerial: UInt32 { dbus_message_get_reply_serial(raw) }
    /// The signature of the whole body.
    package var signature: String { String(cString: dbus_message_get_signature(raw)) }

    /// Compares the body's signature without building a Swift string (the dispatch fast path).
    func hasSignature(_ signature: String) -> Bool {
        signature.withCString { dbus_message_has_signature(raw, $0) } != 0
    }

    /// A reader positioned at the first argument.
    package func reader() -> MessageReader { MessageReader(message: self) }

    /// Decodes the whole body as exactly these types, checking the signature first.
    package func decode<each Argument: DBusArgument>(
        _ types: repeat (each Argument).Type
    ) throws(DBusError) -> (repeat each Argument) {
        var expected = ""
        repeat expected += (each types).dbusSignature.rawValue
        guard hasSignature(expected) else {
            throw DBusError.invalidArgs("expected arguments of signature '\(expected)', got '\(signature)'")
        }
        var reader = self.reader()
        return (repeat try (each Argument)(from: &reader))
    }

    /// For an error message: the error it carries (name and first string argument).
    package var error: DBusError? {
        guard kind == .error else { return nil }
        var reader = self.reader()
        let text = (try? String(from: &reader)) ?? "" // an error may carry no message: its name alone
        return DBusError(name: errorName ?? DBusError.Name.failed, message: text)
    }
}

extension String {
    /// D-Bus strings may not contain NUL; libdbus would abort on one. Replace it visibly.
    func replacingNULs() -> String {
        utf8.contains(0) ? String(unicodeScalars.map { $0 == "\0" ? "\u{FFFD}" : Character($0) }) : self
    }
}
