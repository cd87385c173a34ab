public import DBus
public import EventLoop

/// Makes calls for a short-lived command: sends on a private loop and runs that loop until the
/// reply arrives. Synchronous and Task-free (not for use inside async code).
public final class BlockingCaller {
    public let loop: EventLoop
    public let connection: Connection

    public init(address: Connection.Address = .session) throws {
        loop = try EventLoop()
        connection = try Connection(address, loop: loop)
    }

    /// Sends `message` and runs the loop until its reply (or error) arrives.
    public func call(_ message: Message, timeout: Duration = .seconds(25)) throws(DBusError) -> Message {
        var result: Result<Message, DBusError>?
        connection.call(message, timeout: timeout) { [loop] reply in
            result = reply
            loop.stop()
        }
        while result == nil {
            do {
                try loop.run()
            } catch {
                throw DBusError.failed("the call's event loop failed: \(error)")
            }
        }
        return try result!.get()
    }

    /// Calls a method of the widget service (starting it by D-Bus activation when needed).
    public func callWidget<each Argument: DBusArgument>(
        _ member: MemberName, interface: InterfaceName = WidgetBus.widgetInterface, _ arguments: repeat each Argument
    ) throws(DBusError) -> Message {
        let message = Message.methodCall(destination: WidgetBus.busName, path: WidgetBus.objectPath,
                                         interface: interface, member: member)
        message.append(repeat each arguments)
        return try call(message)
    }
}
