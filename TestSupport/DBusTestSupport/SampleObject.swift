package import DBus

/// A struct argument `(is)`, to show user types conforming to `DBusStructure`.
package struct Pair: DBusStructure, Hashable {
    package var number: Int32
    package var text: String
    package init(number: Int32, text: String) { self.number = number; self.text = text }
    package static let fields: [DBusField<Pair>] = [.field(\.number), .field(\.text)]
    package static var empty: Pair { Pair(number: 0, text: "") }
}

/// `org.example.Sample1`, the sample object's interface: one method per type family, errors,
/// properties of each change-emission mode, and a signal.
package enum Sample1: DBusInterface {
    package static let name: InterfaceName = "org.example.Sample1"
    package static let doc: String? = "A sample object for the binding's tests."

    package static let echoBasics = method(
        "EchoBasics",
        inputs: (Arg<UInt8>("y"), Arg<Bool>("b"), Arg<Int16>("n"), Arg<UInt16>("q"), Arg<Int32>("i"), Arg<UInt32>("u"),
                 Arg<Int64>("x"), Arg<UInt64>("t"), Arg<Double>("d"), Arg<String>("s"), Arg<ObjectPath>("o"), Arg<Signature>("g")),
        outputs: (Arg<UInt8>("y"), Arg<Bool>("b"), Arg<Int16>("n"), Arg<UInt16>("q"), Arg<Int32>("i"), Arg<UInt32>("u"),
                  Arg<Int64>("x"), Arg<UInt64>("t"), Arg<Double>("d"), Arg<String>("s"), Arg<ObjectPath>("o"), Arg<Signature>("g")),
        doc: "Returns its arguments.")
    package static let echoString = method("EchoString", inputs: Arg<String>("text"), outputs: Arg<String>("text"))
    package static let echoVariant = method("EchoVariant", inputs: Arg<Variant>("value"), outputs: Arg<Variant>("value"))
    package static let echoDict = method("EchoDict", inputs: Arg<[String: Variant]>("dict"), outputs: Arg<[String: Variant]>("dict"))
    package static let echoStruct = method("EchoStruct", inputs: Arg<Pair>("pair"), outputs: Arg<Pair>("pair"))
    package static let echoBytes = method("EchoBytes", inputs: Arg<[UInt8]>("bytes"), outputs: Arg<[UInt8]>("bytes"))
    package static let echoNested = method(
        "EchoNested", inputs: Arg<[[String: [Int32]]]>("nested"), outputs: Arg<[[String: [Int32]]]>("nested"))
    package static let add = method("Add", inputs: (Arg<Int32>("a"), Arg<Int32>("b")), outputs: Arg<Int32>("sum"))
    package static let fail = method(
        "Fail", inputs: (Arg<String>("name"), Arg<String>("message")), outputs: (), doc: "Replies with the error named.")
    package static let setCounter = method("SetCounter", inputs: Arg<Int32>("value"), outputs: ())
    package static let emit = method("Emit", inputs: Arg<String>("text"), outputs: ())

    package static let counter = property("Counter", Int32.self, doc: "Set by SetCounter.")
    package static let label = property("Label", String.self, access: .readwrite)
    package static let version = property("Version", String.self, emits: .const)
    package static let secret = property("Secret", String.self, emits: .invalidates)

    package static let pinged = signal("Pinged", Arg<String>("text"), Arg<Int32>("count"), doc: "Emitted by Emit.")
}

/// The sample object exercising every feature of the binding. Used by the binding's tests
/// in-process and by the `dbus-sample-service` executable (for activation and idle measurements).
package final class SampleObject {
    package static let busName: BusName = "org.example.Sample"
    package static let path: ObjectPath = "/org/example/Sample"

    package private(set) var counter: Int32 = 0
    package private(set) var label = "initial"
    private var exported: ExportedInterface<Sample1>?

    package init(server: ObjectServer) throws(DBusError) {
        exported = try server.export(interface, at: Self.path)
    }

    /// Stops serving the object.
    package func unexport() { exported = nil }

    private var interface: Interface<Sample1> {
        Interface(
            methods: [
                Method(Sample1.echoBasics) { y, b, n, q, i, u, x, t, d, s, o, g in (y, b, n, q, i, u, x, t, d, s, o, g) },
                Method(Sample1.echoString) { text in text },
                Method(Sample1.echoVariant) { value in value },
                Method(Sample1.echoDict) { dict in dict },
                Method(Sample1.echoStruct) { pair in pair },
                Method(Sample1.echoBytes) { bytes in bytes },
                Method(Sample1.echoNested) { nested in nested },
                Method(Sample1.add) { a, b in
                    let (sum, overflow) = a.addingReportingOverflow(b)
                    if overflow { throw DBusError(name: "org.example.Sample.Error.Overflow", message: "\(a) + \(b) overflows int32") }
                    return sum
                },
                Method(Sample1.fail) { name, message in throw DBusError(name: name, message: message) },
                Method(Sample1.setCounter) { [unowned self] value in
                    counter = value
                    exported?.emitPropertiesChanged(PropertyChanges(Sample1.counter))
                },
                Method(Sample1.emit) { [unowned self] text in
                    counter += 1
                    exported?.emit(Sample1.pinged, text, counter)
                },
            ],
            properties: [
                Property(Sample1.counter) { [unowned self] in counter },
                Property(Sample1.label, get: { [unowned self] in label }, set: { [unowned self] value in
                    guard !value.isEmpty else { throw DBusError.invalidArgs("Label must not be empty") }
                    label = value
                }),
                Property(Sample1.version) { "1.0" },
                Property(Sample1.secret) { "hidden" },
            ],
            signals: Sample1.pinged
        )
    }
}
