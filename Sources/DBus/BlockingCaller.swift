package import EventLoop

/// Makes calls for a short-lived command: sends on a private loop and runs that loop until the
/// reply arrives. Synchronous and Task-free (not for use inside async code).
///
/// Between calls, `loop` can also be run to wait for signals (with `loop.stop()` from a handler).
package final class BlockingCaller {
    package let loop: EventLoop
    package let connection: Connection

    /// How long a command waits for an answer by default: long enough for D-Bus activation to
    /// start a service, short enough that a frozen peer fails the command within seconds.
    package static let callTimeout = Duration.seconds(10)

    /// Connects within `connectTimeout`.
    package init(address: Connection.Address = .session, connectTimeout: Duration = Connection.connectTimeout) throws {
        loop = try EventLoop()
        connection = try Connection(address, loop: loop, timeout: connectTimeout)
    }

    /// Sends a declared call and runs the loop until its reply: the decoded reply, or the error.
    package func call<Reply>(_ call: MethodCall<Reply>, timeout: Duration = callTimeout) throws(DBusError) -> Reply {
        try call.decodeReply(self.call(call.message, timeout: timeout))
    }

    /// Sends `message` and runs the loop until its reply (or error) arrives.
    package func call(_ message: Message, timeout: Duration = callTimeout) throws(DBusError) -> Message {
        var result: Result<Message, DBusError>?
        connection.call(message, timeout: timeout) { [loop] reply in
            result = reply
            loop.stop()
        }
        while true {
            if let result { return try result.get() }
            do {
                try loop.run()
            } catch {
                throw DBusError.failed("the call's event loop failed: \(error)")
            }
        }
    }
}
