/// A match rule for signals (D-Bus specification, "Match Rules"), built from validated parts so
/// it is always well-formed. The bus uses it to route; the connection uses it to pick subscribers.
package struct MatchRule: Sendable, Hashable, CustomStringConvertible {
    package var sender: BusName?
    package var path: ObjectPath?
    package var interface: InterfaceName?
    package var member: MemberName?
    /// Matches the first argument when it is a string equal to this.
    package var arg0: String?

    package init(sender: BusName? = nil, path: ObjectPath? = nil, interface: InterfaceName? = nil,
                member: MemberName? = nil, arg0: String? = nil) {
        self.sender = sender
        self.path = path
        self.interface = interface
        self.member = member
        self.arg0 = arg0
    }

    /// The rule text, as AddMatch and RemoveMatch take it.
    package var description: String {
        var parts = ["type='signal'"]
        if let sender { parts.append("sender='\(sender.rawValue)'") }
        if let path { parts.append("path='\(path.rawValue)'") }
        if let interface { parts.append("interface='\(interface.rawValue)'") }
        if let member { parts.append("member='\(member.rawValue)'") }
        if let arg0 { parts.append("arg0='\(Self.escaped(arg0))'") }
        return parts.joined(separator: ",")
    }

    /// Whether a received signal matches. A well-known `sender` is not compared here (signals
    /// carry the unique name): the connection checks it against the name's current owner. The
    /// bus itself is the exception: its signals carry `org.freedesktop.DBus` as their sender.
    func matches(_ message: Message) -> Bool {
        guard message.kind == .signal else { return false }
        if let sender, sender.isUnique || sender == BusDriver.object.destination, message.sender != sender.rawValue { return false }
        if let path, message.path != path.rawValue { return false }
        if let interface, message.interface != interface.rawValue { return false }
        if let member, message.member != member.rawValue { return false }
        if let arg0 {
            var reader = message.reader()
            guard (try? String(from: &reader)) == arg0 else { return false } // no string first: no match, as the bus rules
        }
        return true
    }

    /// Match-rule values escape an apostrophe as '\'' (the spec's only escape).
    private static func escaped(_ value: String) -> String {
        value.replacing("'", with: "'\\''")
    }
}
