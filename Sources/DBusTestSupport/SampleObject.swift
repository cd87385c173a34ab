public import DBus

/// A struct argument `(is)`, to show user types conforming to `DBusArgument`.
public struct Pair: DBusArgument, Hashable {
    public var number: Int32
    public var text: String
    public init(number: Int32, text: String) { self.number = number; self.text = text }
    public static var dbusSignature: Signature { "(is)" }
    public var dbusValue: DBusValue { .structure([.int32(number), .string(text)]) }
    public init(dbusValue: DBusValue) throws(DBusError) {
        guard case .structure(let fields) = dbusValue, fields.count == 2,
              case .int32(let number) = fields[0], case .string(let text) = fields[1] else {
            throw DBusError.invalidArgs("expected (is), got \(dbusValue.signature)")
        }
        self.init(number: number, text: text)
    }
}

/// A sample object exercising every feature of the binding: one method per type family, errors,
/// properties of each change-emission mode, and a signal. Used by the binding's tests in-process
/// and by the `dbus-sample-service` executable (for activation and idle measurements).
public final class SampleObject {
    public static let busName: BusName = "org.example.Sample"
    public static let path: ObjectPath = "/org/example/Sample"
    public static let interfaceName: InterfaceName = "org.example.Sample1"
    public static let pinged = SignalDefinition<String, Int32>("Pinged", Arg("text"), Arg("count"), doc: "Emitted by Emit.")

    public private(set) var counter: Int32 = 0
    public private(set) var label = "initial"
    private let server: ObjectServer

    public init(server: ObjectServer) throws(DBusError) {
        self.server = server
        try server.export(interface, at: Self.path)
    }

    private var interface: Interface {
        Interface(
            Self.interfaceName,
            doc: "A sample object for the binding's tests.",
            methods: [
                Method("EchoBasics",
                       inputs: (Arg<UInt8>("y"), Arg<Bool>("b"), Arg<Int16>("n"), Arg<UInt16>("q"), Arg<Int32>("i"),
                                Arg<UInt32>("u"), Arg<Int64>("x"), Arg<UInt64>("t"), Arg<Double>("d"), Arg<String>("s"),
                                Arg<ObjectPath>("o"), Arg<Signature>("g")),
                       outputs: (Arg<UInt8>("y"), Arg<Bool>("b"), Arg<Int16>("n"), Arg<UInt16>("q"), Arg<Int32>("i"),
                                 Arg<UInt32>("u"), Arg<Int64>("x"), Arg<UInt64>("t"), Arg<Double>("d"), Arg<String>("s"),
                                 Arg<ObjectPath>("o"), Arg<Signature>("g")),
                       doc: "Returns its arguments.") { y, b, n, q, i, u, x, t, d, s, o, g in
                    (y, b, n, q, i, u, x, t, d, s, o, g)
                },
                Method("EchoString", inputs: Arg<String>("text"), outputs: Arg<String>("text")) { (text: String) in text },
                Method("EchoVariant", inputs: Arg<Variant>("value"), outputs: Arg<Variant>("value")) { (value: Variant) in value },
                Method("EchoDict", inputs: Arg<[String: Variant]>("dict"), outputs: Arg<[String: Variant]>("dict")) { (dict: [String: Variant]) in dict },
                Method("EchoStruct", inputs: Arg<Pair>("pair"), outputs: Arg<Pair>("pair")) { (pair: Pair) in pair },
                Method("EchoBytes", inputs: Arg<[UInt8]>("bytes"), outputs: Arg<[UInt8]>("bytes")) { (bytes: [UInt8]) in bytes },
                Method("EchoNested", inputs: Arg<[[String: [Int32]]]>("nested"), outputs: Arg<[[String: [Int32]]]>("nested")) { (nested: [[String: [Int32]]]) in nested },
                Method("Add", inputs: (Arg<Int32>("a"), Arg<Int32>("b")), outputs: Arg<Int32>("sum")) { a, b in
                    let (sum, overflow) = a.addingReportingOverflow(b)
                    if overflow { throw DBusError(name: "org.example.Sample.Error.Overflow", message: "\(a) + \(b) overflows int32") }
                    return sum
                },
                Method("Fail", inputs: (Arg<String>("name"), Arg<String>("message")), outputs: (),
                       doc: "Replies with the error named.") { name, message in
                    throw DBusError(name: name, message: message)
                },
                Method("SetCounter", inputs: Arg<Int32>("value"), outputs: ()) { [unowned self] (value: Int32) in
                    counter = value
                    server.emitPropertiesChanged(["Counter"], at: Self.path, interface: Self.interfaceName)
                },
                Method("Emit", inputs: Arg<String>("text"), outputs: ()) { [unowned self] (text: String) in
                    counter += 1
                    server.emit(Self.pinged, from: Self.path, interface: Self.interfaceName, text, counter)
                },
            ],
            properties: [
                .readOnly("Counter", Int32.self, doc: "Set by SetCounter.") { [unowned self] in counter },
                .readWrite("Label", String.self, get: { [unowned self] in label }, set: { [unowned self] value in
                    guard !value.isEmpty else { throw DBusError.invalidArgs("Label must not be empty") }
                    label = value
                }),
                .readOnly("Version", String.self, emits: .const) { "1.0" },
                .readOnly("Secret", String.self, emits: .invalidates) { "hidden" },
            ],
            signals: [Self.pinged.info]
        )
    }
}
