import CDBus

/// An error as D-Bus carries it: a name (`org.freedesktop.DBus.Error.InvalidArgs`,
/// `com.example.Error.Busy`, …) and a human-readable message.
///
/// Handlers throw it to choose the error name their caller sees; remote errors arrive as it with
/// both name and message intact.
package struct DBusError: Error, Sendable, Hashable, CustomStringConvertible {
    package var name: String
    package var message: String

    package init(name: String, message: String) {
        self.name = name
        self.message = message
    }

    package var description: String { "\(name): \(message)" }
}

extension DBusError {
    /// The standard error names of the D-Bus specification that this binding produces or reports.
    package enum Name {
        package static let failed = "org.freedesktop.DBus.Error.Failed"
        package static let serviceUnknown = "org.freedesktop.DBus.Error.ServiceUnknown"
        package static let nameHasNoOwner = "org.freedesktop.DBus.Error.NameHasNoOwner"
        package static let noReply = "org.freedesktop.DBus.Error.NoReply"
        package static let timeout = "org.freedesktop.DBus.Error.Timeout"
        package static let disconnected = "org.freedesktop.DBus.Error.Disconnected"
        package static let noServer = "org.freedesktop.DBus.Error.NoServer"
        package static let invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
        package static let unknownMethod = "org.freedesktop.DBus.Error.UnknownMethod"
        package static let unknownObject = "org.freedesktop.DBus.Error.UnknownObject"
        package static let unknownInterface = "org.freedesktop.DBus.Error.UnknownInterface"
        package static let unknownProperty = "org.freedesktop.DBus.Error.UnknownProperty"
        package static let propertyReadOnly = "org.freedesktop.DBus.Error.PropertyReadOnly"
        /// Not a wire name: a call given up by its caller (task cancellation).
        package static let cancelled = "org.freedesktop.DBus.Error.Cancelled"
        /// The binding's own: the loop could not watch or time the connection.
        static let noMemory = "org.freedesktop.DBus.Error.NoMemory"
    }

    package static func failed(_ message: String) -> DBusError { DBusError(name: Name.failed, message: message) }
    package static func invalidArgs(_ message: String) -> DBusError { DBusError(name: Name.invalidArgs, message: message) }
    package static func disconnected(_ message: String) -> DBusError { DBusError(name: Name.disconnected, message: message) }

    /// Runs `body` with an initialised libdbus error and turns a set error into a `DBusError`.
    static func check<T>(_ body: (UnsafeMutablePointer<CDBus.DBusError>) -> T?) throws(DBusError) -> T {
        var cError = CDBus.DBusError()
        dbus_error_init(&cError)
        defer { dbus_error_free(&cError) }
        let result = body(&cError)
        if dbus_error_is_set(&cError) != 0 {
            throw DBusError(cError)
        }
        guard let result else { throw DBusError(name: Name.failed, message: "libdbus reported failure without an error") }
        return result
    }

    init(_ cError: CDBus.DBusError) {
        name = cError.name.map { String(cString: $0) } ?? Name.failed
        // Some libdbus messages end in a newline ("Socket name too long\n"): a message is one line.
        message = cError.message.map { String(cString: $0).trimmingTrailingNewlines() } ?? ""
    }
}

private extension String {
    func trimmingTrailingNewlines() -> String {
        var text = Substring(self)
        while let last = text.last, last == "\n" || last == "\r\n" || last == "\r" { text = text.dropLast() }
        return String(text)
    }
}
