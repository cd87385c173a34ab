/// A named argument of a method or signal, typed by its Swift type: `Arg<String>("family")`.
public struct Arg<Value: DBusArgument>: Sendable {
    public let name: String
    public init(_ name: String, _ type: Value.Type = Value.self) { self.name = name }
    var info: ArgumentInfo { ArgumentInfo(name: name, signature: Value.dbusSignature) }
}

/// An argument as introspection shows it.
public struct ArgumentInfo: Sendable, Hashable {
    public let name: String
    public let signature: Signature
}

/// A method of an exported interface. Its signatures come from the handler's Swift types; the
/// handler runs only for a call whose arguments have exactly those types (else `InvalidArgs`).
public struct Method {
    public let name: MemberName
    public let inputs: [ArgumentInfo]
    public let outputs: [ArgumentInfo]
    public let doc: String?
    let inputSignature: String
    /// Decodes the call's arguments, runs the body, and builds the reply.
    let respond: (Message) throws -> Message

    /// - Parameters:
    ///   - inputs: the input argument names, e.g. `(Arg<Int32>("chapter"), Arg<String>("name"))`; `()` for none.
    ///   - outputs: the output argument names, likewise.
    ///   - body: receives the decoded inputs and returns the outputs. Throw a `DBusError` (or a
    ///     `DBusErrorConvertible`) to choose the error the caller sees.
    public init<each In: DBusArgument, each Out: DBusArgument>(
        _ name: MemberName,
        inputs: (repeat Arg<each In>),
        outputs: (repeat Arg<each Out>),
        doc: String? = nil,
        _ body: @escaping (repeat each In) throws -> (repeat each Out)
    ) {
        self.init(name, doc: doc, inputs: Self.infos(repeat each inputs), outputs: Self.infos(repeat each outputs)) { call in
            var reader = call.reader()
            let results = try body(repeat try (each In)(from: &reader))
            let reply = call.makeReply()
            var writer = reply.writer()
            repeat (each results).encode(to: &writer)
            return reply
        }
    }

    /// A method answered from an `EncodedReply`: for results read far more often than they
    /// change, marshalled once by the owner and copied into each reply.
    public static func encoded<each In: DBusArgument, each Out: DBusArgument>(
        _ name: MemberName,
        inputs: (repeat Arg<each In>),
        outputs: (repeat Arg<each Out>),
        doc: String? = nil,
        _ body: @escaping (repeat each In) throws -> EncodedReply<repeat each Out>
    ) -> Method {
        Method(name, doc: doc, inputs: infos(repeat each inputs), outputs: infos(repeat each outputs)) { call in
            var reader = call.reader()
            return try body(repeat try (each In)(from: &reader)).reply(to: call)
        }
    }

    private init(_ name: MemberName, doc: String?, inputs: [ArgumentInfo], outputs: [ArgumentInfo],
                 respond: @escaping (Message) throws -> Message) {
        self.name = name
        self.doc = doc
        self.inputs = inputs
        self.outputs = outputs
        inputSignature = inputs.map(\.signature.rawValue).joined()
        self.respond = respond
    }

    private static func infos<each Value: DBusArgument>(_ arguments: repeat Arg<each Value>) -> [ArgumentInfo] {
        var infos: [ArgumentInfo] = []
        repeat infos.append((each arguments).info)
        return infos
    }
}

/// A property of an exported interface.
public struct Property {
    public enum Access: String, Sendable { case read, readwrite }

    /// How clients learn of changes (the `org.freedesktop.DBus.Property.EmitsChangedSignal` annotation).
    public enum ChangeEmission: String, Sendable {
        /// `PropertiesChanged` carries the new value.
        case emitsValue = "true"
        /// `PropertiesChanged` lists the property as invalidated, without a value.
        case invalidates
        /// Never changes.
        case const
        /// Changes are not signalled.
        case none = "false"
    }

    public let name: String
    public let signature: Signature
    public let access: Access
    public let emits: ChangeEmission
    public let doc: String?
    let read: () -> Variant
    let write: ((Variant) throws -> Void)?

    /// A read-only property whose value `get` returns when asked.
    public static func readOnly<Value: DBusArgument>(
        _ name: String, _ type: Value.Type, emits: ChangeEmission = .emitsValue, doc: String? = nil,
        get: @escaping () -> Value
    ) -> Property {
        Property(name: name, signature: Value.dbusSignature, access: .read, emits: emits, doc: doc,
                 read: { Variant(get()) }, write: nil)
    }

    /// A read-write property; `set` may throw to reject a value.
    public static func readWrite<Value: DBusArgument>(
        _ name: String, _ type: Value.Type, emits: ChangeEmission = .emitsValue, doc: String? = nil,
        get: @escaping () -> Value, set: @escaping (Value) throws -> Void
    ) -> Property {
        Property(name: name, signature: Value.dbusSignature, access: .readwrite, emits: emits, doc: doc,
                 read: { Variant(get()) }, write: { variant in try set(try variant.get(Value.self)) })
    }
}

/// A signal declaration, typed by its arguments: emitting it takes exactly those types.
public struct SignalDefinition<each Argument: DBusArgument>: Sendable {
    public let name: MemberName
    public let arguments: [ArgumentInfo]
    public let doc: String?

    public init(_ name: MemberName, _ arguments: repeat Arg<each Argument>, doc: String? = nil) {
        self.name = name
        var infos: [ArgumentInfo] = []
        repeat infos.append((each arguments).info)
        self.arguments = infos
        self.doc = doc
    }

    public var info: SignalInfo { SignalInfo(name: name, arguments: arguments, doc: doc) }
}

/// A signal as introspection shows it.
public struct SignalInfo: Sendable {
    public let name: MemberName
    public let arguments: [ArgumentInfo]
    public let doc: String?
}

/// An interface declared once: dispatch, argument checking, Properties and the introspection XML
/// all come from this value.
public struct Interface {
    public let name: InterfaceName
    public let doc: String?
    public let methods: [Method]
    public let properties: [Property]
    public let signals: [SignalInfo]

    public init(_ name: InterfaceName, doc: String? = nil, methods: [Method] = [], properties: [Property] = [], signals: [SignalInfo] = []) {
        self.name = name
        self.doc = doc
        self.methods = methods
        self.properties = properties
        self.signals = signals
    }
}

/// An error that knows the D-Bus error it should be sent as (domain errors adopt this).
public protocol DBusErrorConvertible: Error {
    var dbusError: DBusError { get }
}

extension DBusError: DBusErrorConvertible {
    public var dbusError: DBusError { self }
}
