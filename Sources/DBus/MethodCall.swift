/// An object served by another connection: the bus name that reaches it (well-known, such as
/// `org.freedesktop.Notifications`, or unique) and its path.
package struct RemoteObject: Sendable, Hashable {
    package let destination: BusName
    package let path: ObjectPath

    package init(destination: BusName, path: ObjectPath) {
        (self.destination, self.path) = (destination, path)
    }
}

/// A method call ready to send, with how its reply decodes into `Reply`. Made from a declaration
/// (`MethodDeclaration.call(on:)`, `PropertyDeclaration.get(from:)`), so its arguments and reply
/// have the declared types; sent, its `Reply` comes back blocking (`BlockingCaller.call`), to a
/// callback on the loop thread (`Connection.call`) or awaited (`BusClient.call`).
///
/// Each `MethodCall` carries one message: send it once.
package struct MethodCall<Reply>: Sendable {
    /// The call as it goes on the wire.
    package let message: Message
    private let decode: @Sendable (Message) throws(DBusError) -> Reply

    init(message: Message, decode: @escaping @Sendable (Message) throws(DBusError) -> Reply) {
        self.message = message
        self.decode = decode
    }

    /// The reply's values; `InvalidArgs` when its signature is not the declared one.
    func decodeReply(_ reply: Message) throws(DBusError) -> Reply { try decode(reply) }

    /// The same call, whose reply is further turned into `T` (a throwing `transform` fails the call).
    package func map<T>(_ transform: @escaping @Sendable (Reply) throws(DBusError) -> T) -> MethodCall<T> {
        let decode = self.decode
        return MethodCall<T>(message: message) { reply throws(DBusError) in try transform(try decode(reply)) }
    }

    /// The same call, but one that does not start its destination by D-Bus activation: with no
    /// owner of the name it fails with `ServiceUnknown` at once.
    package func withoutActivation() -> MethodCall {
        message.autoStart = false
        return self
    }
}

extension MethodDeclaration {
    /// A call of this method on `object` with `arguments`; its reply is the declared outputs: a
    /// tuple of several, or `()`.
    package func call<each In: DBusArgument, each Out: DBusArgument>(
        on object: RemoteObject, _ arguments: repeat each In
    ) -> MethodCall<(repeat each Out)> where Inputs == Arguments<repeat each In>, Outputs == Arguments<repeat each Out> {
        MethodCall(message: message(to: object, repeat each arguments)) { reply throws(DBusError) in
            try reply.decode(repeat (each Out).self)
        }
    }

    /// A call of this method on `object` with `arguments`; its reply is the one declared output.
    /// (The general form's one-element tuple is the same type, but Swift 6.3 fails to infer it
    /// where the reply meets a known type, as in `let sum: Int32 = try caller.call(…)`.)
    package func call<each In: DBusArgument, Out: DBusArgument>(
        on object: RemoteObject, _ arguments: repeat each In
    ) -> MethodCall<Out> where Inputs == Arguments<repeat each In>, Outputs == Arguments<Out> {
        MethodCall(message: message(to: object, repeat each arguments)) { reply throws(DBusError) in try reply.decode(Out.self) }
    }

    private func message<each In: DBusArgument>(to object: RemoteObject, _ arguments: repeat each In) -> Message {
        let message = Message.methodCall(destination: object.destination, path: object.path, interface: Owner.name, member: name)
        message.append(repeat each arguments)
        return message
    }
}

extension PropertyDeclaration {
    /// A read of this property of `object` (`org.freedesktop.DBus.Properties.Get`); its reply is
    /// the value, `InvalidArgs` when it has another type than declared.
    package func get(from object: RemoteObject) -> MethodCall<Value> {
        Properties.get.call(on: object, Owner.name.rawValue, name).map { variant throws(DBusError) in try variant.get(Value.self) }
    }
}
