/// A D-Bus interface, declared once as a type: its name, its documentation, and — as static
/// members built with `method`, `property` and `signal` — its members with their argument names
/// and Swift types.
///
/// The same declarations serve both sides: a service binds handlers to them (`Method`,
/// `Property`, `Interface`), so a handler must take and return the declared types; a client calls
/// them (`MethodDeclaration.call(on:)`, `Connection.subscribe`, `PropertyDeclaration.get(from:)`),
/// so a call must pass and expect the declared types. A changed declaration is a compile error on
/// both sides. The introspection XML is derived from them too.
///
/// ```swift
/// enum Sample1: DBusInterface {
///     static let name: InterfaceName = "org.example.Sample1"
///     static let add = method("Add", inputs: (Arg<Int32>("a"), Arg<Int32>("b")), outputs: Arg<Int32>("sum"))
///     static let counter = property("Counter", Int32.self, doc: "How many times Emit ran.")
///     static let pinged = signal("Pinged", Arg<String>("text"), Arg<Int32>("count"))
/// }
/// ```
package protocol DBusInterface {
    /// The interface name, e.g. `org.example.Sample1`.
    static var name: InterfaceName { get }
    /// Shown as the interface's `org.gtk.GDBus.DocString` annotation; nil by default.
    static var doc: String? { get }
}

extension DBusInterface {
    package static var doc: String? { nil }

    /// Declares a method of this interface.
    /// - Parameters:
    ///   - inputs: the arguments' names and types, e.g. `(Arg<Int32>("chapter"), Arg<String>("name"))`; `()` for none.
    ///   - outputs: the results' names and types, likewise.
    package static func method<each In: DBusArgument, each Out: DBusArgument>(
        _ name: MemberName, inputs: (repeat Arg<each In>), outputs: (repeat Arg<each Out>), doc: String? = nil
    ) -> MethodDeclaration<Self, Arguments<repeat each In>, Arguments<repeat each Out>> {
        MethodDeclaration(name: name, inputs: argumentInfos(repeat each inputs), outputs: argumentInfos(repeat each outputs), doc: doc)
    }

    /// Declares a signal of this interface.
    package static func signal<each Argument: DBusArgument>(
        _ name: MemberName, _ arguments: repeat Arg<each Argument>, doc: String? = nil
    ) -> SignalDeclaration<Self, Arguments<repeat each Argument>> {
        SignalDeclaration(name: name, arguments: argumentInfos(repeat each arguments), doc: doc)
    }

    /// Declares a property of this interface: read-only and signalled with its value by default.
    package static func property<Value: DBusArgument>(
        _ name: String, _ type: Value.Type, access: PropertyAccess = .read, emits: ChangeEmission = .emitsValue, doc: String? = nil
    ) -> PropertyDeclaration<Self, Value> {
        PropertyDeclaration(name: name, access: access, emits: emits, doc: doc)
    }
}

private func argumentInfos<each Value: DBusArgument>(_ arguments: repeat Arg<each Value>) -> [ArgumentInfo] {
    var infos: [ArgumentInfo] = []
    repeat infos.append((each arguments).info)
    return infos
}

/// A named argument of a method or signal, typed by its Swift type: `Arg<String>("family")`.
package struct Arg<Value: DBusArgument>: Sendable {
    package let name: String
    package init(_ name: String, _ type: Value.Type = Value.self) { self.name = name }
    var info: ArgumentInfo { ArgumentInfo(name: name, signature: Value.dbusSignature) }
}

/// An argument as introspection shows it.
package struct ArgumentInfo: Sendable, Hashable {
    package let name: String
    package let signature: Signature
}

/// The Swift types of a member's arguments, in order: only a type, never a value. (A generic type
/// can have one parameter pack, and a method has two lists.)
package struct Arguments<each Value: DBusArgument>: Sendable {}

/// A method of the interface `Owner`, taking `Inputs` and returning `Outputs` (both
/// `Arguments<…>`). Made by `DBusInterface.method`.
package struct MethodDeclaration<Owner: DBusInterface, Inputs, Outputs>: Sendable {
    package let name: MemberName
    package let inputs: [ArgumentInfo]
    package let outputs: [ArgumentInfo]
    package let doc: String?

    var info: MethodInfo { MethodInfo(name: name, inputs: inputs, outputs: outputs, doc: doc) }
}

/// A signal of the interface `Owner` carrying `Payload` (an `Arguments<…>`). Made by
/// `DBusInterface.signal`.
package struct SignalDeclaration<Owner: DBusInterface, Payload>: Sendable {
    package let name: MemberName
    package let arguments: [ArgumentInfo]
    package let doc: String?

    var info: SignalInfo { SignalInfo(name: name, arguments: arguments, doc: doc) }
}

/// A property of the interface `Owner` holding a `Value`. Made by `DBusInterface.property`.
package struct PropertyDeclaration<Owner: DBusInterface, Value: DBusArgument>: Sendable {
    package let name: String
    package let access: PropertyAccess
    package let emits: ChangeEmission
    package let doc: String?

    var info: PropertyInfo { PropertyInfo(name: name, signature: Value.dbusSignature, access: access, emits: emits, doc: doc) }
}

/// Whether clients may write a property.
package enum PropertyAccess: String, Sendable {
    case read, readwrite
}

/// How clients learn of a property's changes (the `org.freedesktop.DBus.Property.EmitsChangedSignal` annotation).
package enum ChangeEmission: String, Sendable {
    /// `PropertiesChanged` carries the new value.
    case emitsValue = "true"
    /// `PropertiesChanged` lists the property as invalidated, without a value.
    case invalidates
    /// Never changes.
    case const
    /// Changes are not signalled.
    case none = "false"
}

/// The members as introspection shows them.
struct MethodInfo: Sendable {
    let name: MemberName
    let inputs: [ArgumentInfo]
    let outputs: [ArgumentInfo]
    let doc: String?

    /// The inputs' signature, e.g. `ss`.
    var inputSignature: String { inputs.map(\.signature.rawValue).joined() }
}

struct SignalInfo: Sendable {
    let name: MemberName
    let arguments: [ArgumentInfo]
    let doc: String?
}

struct PropertyInfo: Sendable {
    let name: String
    let signature: Signature
    let access: PropertyAccess
    let emits: ChangeEmission
    let doc: String?
}

/// An error that knows the D-Bus error it should be sent as (domain errors adopt this).
package protocol DBusErrorConvertible: Error {
    var dbusError: DBusError { get }
}

extension DBusError: DBusErrorConvertible {
    package var dbusError: DBusError { self }
}
