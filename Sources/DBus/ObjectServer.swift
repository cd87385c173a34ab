import CDBus
import Glibc

/// Exports objects on a connection: routes method calls to declared interfaces, checks argument
/// signatures, answers the standard errors itself, and provides `org.freedesktop.DBus.Properties`
/// and `org.freedesktop.DBus.Introspectable` for every object (libdbus answers
/// `org.freedesktop.DBus.Peer`).
///
/// Confined to the connection's loop thread. Export objects *before* requesting a well-known
/// name, so a call that activated the service finds them.
package final class ObjectServer {
    package let connection: Connection
    private var objects: [ObjectPath: [InterfaceName: InterfaceEntry]] = [:]
    /// Told of a programming error: emitting a signal or a property change the exported interface
    /// does not have (it is not sent). By default an assertion failure in debug builds and a line
    /// on stderr in release builds; tests replace it to check that such a mistake is caught.
    package var onMisuse: (String) -> Void = ObjectServer.reportMisuse
    private var registered = false
    /// The methods of the last few calls served, found again with libdbus's own string compares
    /// before any name in the call becomes a Swift String: widgets ask the same few methods again
    /// and again, and the names, hashes and lookups cost more than the rest of a cached reply.
    private var recentRoutes: [Route] = []
    private static var recentRouteLimit: Int { 8 }

    private final class Route { // a class: finding one retains it once instead of copying its fields
        let method: BoundMethod
        // As C strings once, not at every call (a short Swift string is copied to pass it to C).
        let path: [CChar], interface: [CChar], member: [CChar]

        init(path: ObjectPath, interface: InterfaceName, method: BoundMethod) {
            self.method = method
            self.path = Array(path.rawValue.utf8CString)
            self.interface = Array(interface.rawValue.utf8CString)
            member = Array(method.info.name.rawValue.utf8CString)
        }

        func matches(_ call: Message) -> Bool {
            dbus_message_has_member(call.raw, member) != 0
                && dbus_message_has_path(call.raw, path) != 0
                && dbus_message_has_interface(call.raw, interface) != 0
        }
    }

    package init(connection: Connection) throws(DBusError) {
        self.connection = connection
        var vtable = DBusObjectPathVTable()
        vtable.message_function = objectServerMessage
        let data = Unmanaged.passUnretained(self).toOpaque()
        // A fallback on "/" sees every path, so unknown objects get a proper UnknownObject.
        _ = try DBusError.check { dbus_connection_try_register_fallback(connection.raw, "/", &vtable, data, $0) != 0 ? true : nil }
        registered = true
    }

    deinit { unregister() }

    /// Stops serving all objects (the registration holds `self` unretained).
    package func unregister() {
        guard registered else { return }
        registered = false
        _ = dbus_connection_unregister_object_path(connection.raw, "/")
    }

    /// Serves `interface` at `path` until the returned handle is dropped or unexported. Throws
    /// `InvalidArgs` listing every problem of the interface (a member bound twice, a property
    /// whose access and setter disagree), or when the path already has it.
    package func export<Declaration>(_ interface: Interface<Declaration>, at path: ObjectPath) throws(DBusError) -> ExportedInterface<Declaration> {
        guard !Self.standardInterfaces.contains(Declaration.name) else {
            throw DBusError.invalidArgs("\(Declaration.name) is provided by the object server itself")
        }
        guard objects[path]?[Declaration.name] == nil else {
            throw DBusError.invalidArgs("\(Declaration.name) is already exported at \(path)")
        }
        objects[path, default: [:]][Declaration.name] = try interface.entry()
        recentRoutes.removeAll()
        return ExportedInterface(server: self, path: path)
    }

    func unexport(_ interface: InterfaceName, at path: ObjectPath) {
        recentRoutes.removeAll()
        objects[path]?[interface] = nil
        if objects[path]?.isEmpty == true { objects[path] = nil }
    }

    /// Sends a signal of an exported interface.
    func emit(_ message: Message, signal: MemberName, from path: ObjectPath, interface: InterfaceName) {
        guard let entry = objects[path]?[interface] else {
            return onMisuse("signal \(signal) emitted from \(path), where \(interface) is not exported")
        }
        guard entry.signals.contains(where: { $0.name == signal }) else {
            return onMisuse("signal \(signal) is not among the signals \(interface) is exported with at \(path)")
        }
        connection.send(message)
    }

    /// Emits `PropertiesChanged` for the named properties, reading their values through their
    /// getters, so the signal can't disagree with `Get`.
    func emitPropertiesChanged(_ names: [String], at path: ObjectPath, interface: InterfaceName) {
        guard let entry = objects[path]?[interface] else {
            return onMisuse("PropertiesChanged emitted from \(path), where \(interface) is not exported")
        }
        var changed: [BoundProperty] = []
        var invalidated: [String] = []
        for name in names {
            guard let property = entry.properties.first(where: { $0.info.name == name }) else {
                onMisuse("property \(name) is not among the properties \(interface) is exported with at \(path)")
                continue
            }
            switch property.info.emits {
            case .emitsValue: changed.append(property)
            case .invalidates: invalidated.append(name)
            case .const, .none: continue
            }
        }
        guard !changed.isEmpty || !invalidated.isEmpty else { return }
        let message = Message.signal(path: path, interface: Properties.name, member: Properties.propertiesChanged.name)
        var writer = message.writer()
        writer.append(interface.rawValue)
        Self.appendValues(of: changed, to: &writer)
        writer.append(invalidated)
        connection.send(message)
    }

    /// Appends the `a{sv}` of `properties`' names and current values.
    private static func appendValues(of properties: [BoundProperty], to writer: inout MessageWriter) {
        writer.withContainer(TypeCode.array, signature: "{sv}") { array in
            for property in properties {
                array.withContainer(TypeCode.dictEntry, signature: nil) { entry in
                    entry.append(property.info.name)
                    property.encode(&entry)
                }
            }
        }
    }

    private static func reportMisuse(_ problem: String) {
        assertionFailure(problem)
        let line = "DBus.ObjectServer: \(problem)\n"
        _ = line.withCString { write(2, $0, strlen($0)) }
    }

    // MARK: Dispatch

    static let standardInterfaces: Set<InterfaceName> = [Introspectable.name, Properties.name, Peer.name]

    fileprivate func handle(_ call: Message) -> Bool {
        guard call.kind == .methodCall else { return false }
        let reply: Message
        do {
            if let route = recentRoutes.first(where: { $0.matches(call) }) {
                reply = try invoke(route.method, call)
            } else {
                guard let member = call.member, let rawPath = call.path else { return false }
                reply = try respond(to: call, path: ObjectPath(unchecked: rawPath), member: member)
            }
        } catch let error as any DBusErrorConvertible {
            reply = call.makeErrorReply(error.dbusError)
        } catch {
            reply = call.makeErrorReply(.failed(String(describing: error)))
        }
        if !call.noReplyExpected { connection.send(reply) }
        return true
    }

    private func respond(to call: Message, path: ObjectPath, member: String) throws -> Message {
        let interfaceName = call.interface
        let introspectable = Introspectable.name.rawValue, introspect = Introspectable.introspect.name.rawValue
        guard let interfaces = objects[path] else {
            // Parents of exported objects can be introspected (so tools can walk the tree).
            if interfaceName ?? introspectable == introspectable, member == introspect, !children(of: path).isEmpty {
                return try self.introspect(call, path: path, interfaces: [:])
            }
            throw DBusError(name: DBusError.Name.unknownObject, message: "No such object path '\(path)'")
        }
        switch interfaceName {
        case introspectable?:
            guard member == introspect else { throw unknownMethod(call, member: member) }
            return try self.introspect(call, path: path, interfaces: interfaces)
        case Properties.name.rawValue?:
            return try properties(call, member: member, interfaces: interfaces)
        case let name?:
            // libdbus validated the header's names when it read the message.
            guard let interface = interfaces[InterfaceName(unchecked: name)] else {
                throw DBusError(name: DBusError.Name.unknownInterface,
                                message: "Object '\(path)' does not implement interface '\(name)'")
            }
            guard let method = interface.methods.first(where: { $0.info.name.rawValue == member }) else {
                throw unknownMethod(call, member: member)
            }
            remember(Route(path: path, interface: interface.name, method: method))
            return try invoke(method, call)
        case nil:
            // No interface given: the first interface with such a method (D-Bus specification).
            if member == introspect { return try self.introspect(call, path: path, interfaces: interfaces) }
            for interface in interfaces.values {
                if let method = interface.methods.first(where: { $0.info.name.rawValue == member }) {
                    return try invoke(method, call)
                }
            }
            throw unknownMethod(call, member: member)
        }
    }

    private func remember(_ route: Route) {
        if recentRoutes.count == Self.recentRouteLimit { recentRoutes.removeLast() }
        recentRoutes.insert(route, at: 0)
    }

    private func unknownMethod(_ call: Message, member: String) -> DBusError {
        DBusError(name: DBusError.Name.unknownMethod,
                  message: "No such method '\(member)' in interface '\(call.interface ?? "")' at object path '\(call.path ?? "")' (signature '\(call.signature)')")
    }

    private func invoke(_ method: BoundMethod, _ call: Message) throws -> Message {
        try expectSignature(call, method.inputSignature)
        return try method.respond(call)
    }

    /// The arguments of a call of a standard member, as its declaration has them.
    @discardableResult
    private func arguments<Owner, each In: DBusArgument, Outputs>(
        of call: Message, as declaration: MethodDeclaration<Owner, Arguments<repeat each In>, Outputs>
    ) throws(DBusError) -> (repeat each In) {
        try expectSignature(call, declaration.info.inputSignature)
        return try call.decode(repeat (each In).self)
    }

    private func expectSignature(_ call: Message, _ signature: String) throws(DBusError) {
        guard call.hasSignature(signature) else {
            throw DBusError.invalidArgs("Invalid arguments for method '\(call.member ?? "")': expected signature '\(signature)', got '\(call.signature)'")
        }
    }

    private func introspect(_ call: Message, path: ObjectPath, interfaces: [InterfaceName: InterfaceEntry]) throws -> Message {
        try arguments(of: call, as: Introspectable.introspect)
        var all: [InterfaceDescription] = [.peer, .introspectable]
        if !interfaces.isEmpty {
            all += [.properties] + interfaces.values.sorted { $0.name.rawValue < $1.name.rawValue }.map(\.description)
        }
        let reply = call.makeReply()
        reply.append(Introspection.document(interfaces: all, children: children(of: path)))
        return reply
    }

    /// The names of the direct children of `path` that lead to exported objects.
    private func children(of path: ObjectPath) -> [String] {
        let prefix = path.rawValue == "/" ? "/" : path.rawValue + "/"
        var names = Set<String>()
        for exported in objects.keys where exported.rawValue.hasPrefix(prefix) && exported != path {
            if let first = exported.rawValue.dropFirst(prefix.count).split(separator: "/").first {
                names.insert(String(first))
            }
        }
        return names.sorted()
    }

    private func properties(_ call: Message, member: String, interfaces: [InterfaceName: InterfaceEntry]) throws -> Message {
        func interface(named name: String) throws(DBusError) -> InterfaceEntry {
            // An invalid name names no interface here either: the same error.
            guard let found = (try? InterfaceName(name)).flatMap({ interfaces[$0] }) else {
                throw DBusError(name: DBusError.Name.unknownInterface, message: "No such interface '\(name)' at object path '\(call.path ?? "")'")
            }
            return found
        }
        func property(_ name: String, in interface: InterfaceEntry) throws(DBusError) -> BoundProperty {
            guard let found = interface.properties.first(where: { $0.info.name == name }) else {
                throw DBusError(name: DBusError.Name.unknownProperty, message: "No such property '\(name)' in interface '\(interface.name)'")
            }
            return found
        }
        let reply = call.makeReply()
        switch member {
        case Properties.get.name.rawValue:
            let (interfaceName, propertyName) = try arguments(of: call, as: Properties.get)
            var writer = reply.writer()
            try property(propertyName, in: interface(named: interfaceName)).encode(&writer)
        case Properties.getAll.name.rawValue:
            let interfaceName = try arguments(of: call, as: Properties.getAll)
            var writer = reply.writer()
            Self.appendValues(of: try interface(named: interfaceName).properties, to: &writer)
        case Properties.set.name.rawValue:
            let (interfaceName, propertyName, value) = try arguments(of: call, as: Properties.set)
            let target = try interface(named: interfaceName)
            let declared = try property(propertyName, in: target)
            guard let write = declared.write else {
                throw DBusError(name: DBusError.Name.propertyReadOnly, message: "Property '\(propertyName)' of interface '\(interfaceName)' is read-only")
            }
            guard value.value.signature == declared.info.signature else {
                throw DBusError.invalidArgs("Property '\(propertyName)' has type '\(declared.info.signature)', got a value of type '\(value.value.signature)'")
            }
            try write(value)
            if let path = try? ObjectPath(call.path ?? "") { // libdbus delivers calls with valid paths only
                emitPropertiesChanged([propertyName], at: path, interface: target.name)
            }
        default:
            throw unknownMethod(call, member: member)
        }
        return reply
    }
}

private let objectServerMessage: DBusObjectPathMessageFunction = { _, messageRaw, data in
    let server = Unmanaged<ObjectServer>.fromOpaque(data!).takeUnretainedValue()
    return server.handle(Message(retaining: messageRaw!)) ? DBUS_HANDLER_RESULT_HANDLED : DBUS_HANDLER_RESULT_NOT_YET_HANDLED
}
