import CDBus

/// A method's reply body, marshalled once and reused while the values it holds don't change.
///
/// Answering from it costs a copy of the bytes plus the reply serial, instead of marshalling every
/// argument again — what keeps a frequently read property-like method (an `a{sv}` entry) as cheap
/// as the bus itself. Typed by the outputs it holds, so a method can only answer with the types
/// it declares.
///
/// libdbus re-walks and re-validates the whole header for every field it sets, so the few callers
/// seen last each get a template that already names them as the destination: a reply is then a
/// copy plus the reply serial.
///
/// `@unchecked Sendable`: the templates are only read or replaced through `reply(to:)`, which the
/// object server calls on its connection's loop thread (one thread); replies are copies
/// (`dbus_message_copy`), never the templates themselves.
package final class EncodedReply<each Output: DBusArgument>: @unchecked Sendable {
    /// Templates for recent callers, most recent first: (destination, reply without a serial).
    private var templates: [(destination: String, message: Message)] = []
    /// The body alone, for callers without a template yet (and messages without a sender).
    private let body: Message
    private static var recentCallers: Int { 4 }

    package init(_ outputs: repeat each Output) {
        body = Message(owning: dbus_message_new(DBUS_MESSAGE_TYPE_METHOD_RETURN)!)
        body.append(repeat each outputs)
    }

    /// A reply to `call` carrying the stored body.
    func reply(to call: Message) -> Message {
        let reply = Message(owning: dbus_message_copy(template(for: call).raw)!)
        let serialSet = dbus_message_set_reply_serial(reply.raw, call.serial)
        precondition(serialSet != 0, "out of memory building a D-Bus reply")
        return reply
    }

    private func template(for call: Message) -> Message {
        guard let sender = call.sender else { return body }
        if let index = templates.firstIndex(where: { $0.destination == sender }) {
            if index != 0 { templates.insert(templates.remove(at: index), at: 0) }
            return templates[0].message
        }
        let message = Message(owning: dbus_message_copy(body.raw)!)
        let destinationSet = dbus_message_set_destination(message.raw, sender)
        precondition(destinationSet != 0, "out of memory building a D-Bus reply")
        templates.insert((sender, message), at: 0)
        if templates.count > Self.recentCallers { templates.removeLast() }
        return message
    }
}
