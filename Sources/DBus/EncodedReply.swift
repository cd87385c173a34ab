internal import CDBus

/// A method's reply body, marshalled once and reused while the values it holds don't change.
///
/// Answering from it costs a copy of the bytes plus two header fields, instead of marshalling
/// every argument again — what keeps a frequently read property-like method (an `a{sv}` entry)
/// as cheap as the bus itself. Typed by the outputs it holds, so a method can only answer with
/// the types it declares.
///
/// `@unchecked Sendable`: the template is built in `init` and never modified afterwards; replies
/// are copies (`dbus_message_copy`), so sharing the template is read-only.
public final class EncodedReply<each Output: DBusArgument>: @unchecked Sendable {
    private let template: Message

    public init(_ outputs: repeat each Output) {
        template = Message(owning: dbus_message_new(DBUS_MESSAGE_TYPE_METHOD_RETURN)!)
        template.append(repeat each outputs)
    }

    /// A reply to `call` carrying the stored body.
    func reply(to call: Message) -> Message {
        let reply = Message(owning: dbus_message_copy(template.raw)!)
        let serialSet = dbus_message_set_reply_serial(reply.raw, call.serial)
        precondition(serialSet != 0, "out of memory building a D-Bus reply")
        if let sender = dbus_message_get_sender(call.raw) {
            let destinationSet = dbus_message_set_destination(reply.raw, sender)
            precondition(destinationSet != 0, "out of memory building a D-Bus reply")
        }
        return reply
    }
}
