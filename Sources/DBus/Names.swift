import CDBus

/// A name checked once against the D-Bus specification (by libdbus's own validators), so code
/// holding one never has to check it again.
package protocol ValidatedName: Hashable, Sendable, CustomStringConvertible, ExpressibleByStringLiteral {
    var rawValue: String { get }
    /// Throws `InvalidArgs` naming the bad value when `string` is not valid.
    init(_ string: String) throws(DBusError)
}

extension ValidatedName {
    package var description: String { rawValue }

    /// Literals are checked too: an invalid literal is a programming error, caught on first use.
    /// Note that `ObjectPath("/a")` with a literal argument is this literal form (SE-0213); names
    /// from data always go through the throwing `init(_:)` with a `String` value.
    package init(stringLiteral value: String) {
        do { try self.init(value) } catch { preconditionFailure("invalid \(Self.self) literal: \(error.message)") }
    }
}

typealias CValidator = (UnsafePointer<CChar>?, UnsafeMutablePointer<CDBus.DBusError>?) -> dbus_bool_t

func validate(_ string: String, what: String, with validator: CValidator) throws(DBusError) {
    var cError = CDBus.DBusError()
    dbus_error_init(&cError)
    defer { dbus_error_free(&cError) }
    // libdbus treats the argument as a C string; an embedded NUL would truncate it.
    let ok = !string.utf8.contains(0) && string.withCString { validator($0, &cError) } != 0
    if !ok {
        let reason = cError.message.map { String(cString: $0) } ?? "contains a NUL byte"
        throw DBusError.invalidArgs("'\(string)' is not a valid \(what): \(reason)")
    }
}

/// A bus name: unique (`:1.42`) or well-known (`com.example.App`).
/// Invalid: `""`, `com`, `.com.example`, `com..example`, `1com.example`, names over 255 bytes.
package struct BusName: ValidatedName {
    package let rawValue: String
    package init(_ string: String) throws(DBusError) {
        try validate(string, what: "bus name", with: dbus_validate_bus_name)
        rawValue = string
    }
    init(unchecked: String) { rawValue = unchecked }
    var isUnique: Bool { rawValue.hasPrefix(":") }
}

/// An object path: `/`, `/com/example/App`. Invalid: `""`, `com`, `/com/`, `//com`, `/com-example`.
package struct ObjectPath: ValidatedName, Comparable {
    package let rawValue: String
    package init(_ string: String) throws(DBusError) {
        try validate(string, what: "object path", with: dbus_validate_path)
        rawValue = string
    }
    init(unchecked: String) { rawValue = unchecked }
    package static let root = ObjectPath(unchecked: "/")
    package static func < (lhs: ObjectPath, rhs: ObjectPath) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// An interface name: `org.freedesktop.DBus.Properties`. Invalid: `Properties`, `org..x`, `org.1x`.
package struct InterfaceName: ValidatedName {
    package let rawValue: String
    package init(_ string: String) throws(DBusError) {
        try validate(string, what: "interface name", with: dbus_validate_interface)
        rawValue = string
    }
    init(unchecked: String) { rawValue = unchecked }
}

/// A member (method or signal) name: `GetAll`. Invalid: `""`, `Get.All`, `1Get`, `Get-All`.
package struct MemberName: ValidatedName {
    package let rawValue: String
    package init(_ string: String) throws(DBusError) {
        try validate(string, what: "member name", with: dbus_validate_member)
        rawValue = string
    }
    init(unchecked: String) { rawValue = unchecked }
}

/// An error name, shaped like an interface name: `org.freedesktop.DBus.Error.Failed`.
package struct ErrorName: ValidatedName {
    package let rawValue: String
    package init(_ string: String) throws(DBusError) {
        try validate(string, what: "error name", with: dbus_validate_error_name)
        rawValue = string
    }
}

/// A type signature: zero or more complete types, e.g. `""`, `s`, `a{sv}`, `(ii)as`.
/// Invalid: `a`, `{sv}`, `a{vs}`, `(`, `z`.
package struct Signature: ValidatedName {
    package let rawValue: String
    package init(_ string: String) throws(DBusError) {
        try validate(string, what: "signature", with: dbus_signature_validate)
        rawValue = string
    }
    init(unchecked: String) { rawValue = unchecked }

    /// True when the signature is exactly one complete type (what a variant may hold).
    package var isSingleCompleteType: Bool {
        rawValue.withCString { dbus_signature_validate_single($0, nil) } != 0
    }

    package static let empty = Signature(unchecked: "")
}
