/// A method of the interface `Owner` bound to its handler. The handler takes and returns exactly
/// the declared types, and runs only for a call whose arguments have them (else `InvalidArgs`).
package struct Method<Owner: DBusInterface> {
    let bound: BoundMethod

    /// - Parameter body: receives the decoded inputs and returns the outputs. Throw a `DBusError`
    ///   (or a `DBusErrorConvertible`) to choose the error the caller sees.
    package init<each In: DBusArgument, each Out: DBusArgument>(
        _ declaration: MethodDeclaration<Owner, Arguments<repeat each In>, Arguments<repeat each Out>>,
        _ body: @escaping (repeat each In) throws -> (repeat each Out)
    ) {
        bound = BoundMethod(declaration.info) { call in
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
    package static func encoded<each In: DBusArgument, each Out: DBusArgument>(
        _ declaration: MethodDeclaration<Owner, Arguments<repeat each In>, Arguments<repeat each Out>>,
        _ body: @escaping (repeat each In) throws -> EncodedReply<repeat each Out>
    ) -> Method {
        Method(bound: BoundMethod(declaration.info) { call in
            var reader = call.reader()
            return try body(repeat try (each In)(from: &reader)).reply(to: call)
        })
    }

    private init(bound: BoundMethod) { self.bound = bound }
}

/// A property of the interface `Owner` bound to its getter (and, for a read-write property, its
/// setter). The getter is also what `PropertiesChanged` reads, so the signal can't disagree with `Get`.
package struct Property<Owner: DBusInterface> {
    let bound: BoundProperty

    /// A property whose value `get` returns when asked.
    package init<Value>(_ declaration: PropertyDeclaration<Owner, Value>, get: @escaping () -> Value) {
        bound = BoundProperty(info: declaration.info, encode: { $0.appendVariant(get()) }, write: nil)
    }

    /// A read-write property; `set` may throw to reject a value.
    package init<Value>(_ declaration: PropertyDeclaration<Owner, Value>, get: @escaping () -> Value, set: @escaping (Value) throws -> Void) {
        bound = BoundProperty(info: declaration.info, encode: { $0.appendVariant(get()) }, write: { variant in try set(try variant.get(Value.self)) })
    }
}

/// The implementation of the declared interface `Declaration`, ready to export with
/// `ObjectServer.export`: a handler for each method, a getter for each property, and the signals
/// it emits. Dispatch, argument checks, `Properties` and the introspection XML all come from it.
package struct Interface<Declaration: DBusInterface> {
    let methods: [BoundMethod]
    let properties: [BoundProperty]
    let signals: [SignalInfo]

    package init<each Payload>(
        methods: [Method<Declaration>] = [], properties: [Property<Declaration>] = [],
        signals: repeat SignalDeclaration<Declaration, each Payload>
    ) {
        // Closures, not key paths: a key path formed in a function generic over a pack fails to
        // resolve at run time (Swift 6.3).
        self.methods = methods.map { $0.bound }
        self.properties = properties.map { $0.bound }
        var signalInfos: [SignalInfo] = []
        repeat signalInfos.append((each signals).info)
        self.signals = signalInfos
    }

    /// The interface as the object server keeps it, once its declaration is checked: every
    /// problem is reported at once.
    func entry() throws(DBusError) -> InterfaceEntry {
        var problems: [String] = []
        func duplicates(_ names: [String], _ kind: String) {
            var seen = Set<String>()
            for name in names where !seen.insert(name).inserted { problems.append("\(kind) '\(name)' is bound twice") }
        }
        duplicates(methods.map(\.info.name.rawValue), "method")
        duplicates(properties.map(\.info.name), "property")
        duplicates(signals.map(\.name.rawValue), "signal")
        for property in properties {
            switch (property.info.access, property.write) {
            case (.read, _?): problems.append("property '\(property.info.name)' is declared read-only but bound with a setter")
            case (.readwrite, nil): problems.append("property '\(property.info.name)' is declared read-write but bound without a setter")
            default: break
            }
        }
        guard problems.isEmpty else {
            throw DBusError.invalidArgs("\(Declaration.name): " + problems.joined(separator: "; "))
        }
        return InterfaceEntry(name: Declaration.name, doc: Declaration.doc, methods: methods, properties: properties, signals: signals)
    }
}

/// An interface exported at a path: what emits its signals and `PropertiesChanged`, through its
/// declarations (a signal or property of another interface does not compile).
///
/// Like an sd-bus slot, it keeps the export alive: `unexport()`, or dropping the last reference,
/// ends it. Confined to the connection's loop thread.
package final class ExportedInterface<Declaration: DBusInterface> {
    package let path: ObjectPath
    private weak var server: ObjectServer?

    init(server: ObjectServer, path: ObjectPath) {
        self.server = server
        self.path = path
    }

    deinit { unexport() }

    /// Emits `signal` from this object, to every subscriber.
    package func emit<each Argument: DBusArgument>(
        _ signal: SignalDeclaration<Declaration, Arguments<repeat each Argument>>, _ arguments: repeat each Argument
    ) {
        guard let server else { return }
        let message = Message.signal(path: path, interface: Declaration.name, member: signal.name)
        message.append(repeat each arguments)
        server.emit(message, signal: signal.name, from: path, interface: Declaration.name)
    }

    /// Emits `PropertiesChanged` for `changes`, reading the values through the getters.
    package func emitPropertiesChanged(_ changes: PropertyChanges<Declaration>) {
        server?.emitPropertiesChanged(changes.names, at: path, interface: Declaration.name)
    }

    /// Stops serving the interface at `path`. Later calls do nothing.
    package func unexport() {
        server?.unexport(Declaration.name, at: path)
        server = nil
    }
}

/// The properties of `Declaration` that changed, for one `PropertiesChanged`.
package struct PropertyChanges<Declaration: DBusInterface>: Sendable {
    private(set) var names: [String] = []

    package init() {}

    package init<each Value>(_ properties: repeat PropertyDeclaration<Declaration, each Value>) {
        repeat insert(each properties)
    }

    package mutating func insert<Value>(_ property: PropertyDeclaration<Declaration, Value>) {
        if !names.contains(property.name) { names.append(property.name) }
    }

    package var isEmpty: Bool { names.isEmpty }
}

// MARK: - What the object server keeps

struct BoundMethod {
    let info: MethodInfo
    /// The inputs' signature, compared without building a Swift string per call.
    let inputSignature: String
    /// Decodes the call's arguments, runs the handler, and builds the reply.
    let respond: (Message) throws -> Message

    init(_ info: MethodInfo, respond: @escaping (Message) throws -> Message) {
        self.info = info
        inputSignature = info.inputSignature
        self.respond = respond
    }
}

struct BoundProperty {
    let info: PropertyInfo
    /// Appends the current value inside a variant, straight from its Swift type (a pixmap's bytes
    /// are copied in one step, never as one dynamically typed value per byte).
    let encode: (inout MessageWriter) -> Void
    let write: ((Variant) throws -> Void)?
}

struct InterfaceEntry {
    let name: InterfaceName
    let doc: String?
    let methods: [BoundMethod]
    let properties: [BoundProperty]
    let signals: [SignalInfo]

    var description: InterfaceDescription {
        InterfaceDescription(name: name, doc: doc, methods: methods.map(\.info), properties: properties.map(\.info), signals: signals)
    }
}

/// An interface as introspection shows it.
struct InterfaceDescription: Sendable {
    let name: InterfaceName
    let doc: String?
    let methods: [MethodInfo]
    let properties: [PropertyInfo]
    let signals: [SignalInfo]

    init<Declaration: DBusInterface>(
        _ declaration: Declaration.Type, methods: [MethodInfo] = [], properties: [PropertyInfo] = [], signals: [SignalInfo] = []
    ) {
        self.init(name: Declaration.name, doc: Declaration.doc, methods: methods, properties: properties, signals: signals)
    }

    init(name: InterfaceName, doc: String?, methods: [MethodInfo], properties: [PropertyInfo], signals: [SignalInfo]) {
        self.name = name
        self.doc = doc
        self.methods = methods
        self.properties = properties
        self.signals = signals
    }
}
