import DBus
import DBusTestSupport
import Foundation
import FoundationXML
import Testing
import TestingTraits

/// The sample object over a private dbus-daemon, driven by the stock clients (`dbus-send`,
/// `gdbus`, `busctl`, `dbus-monitor`): what other programs see is exactly what the declaration says.
@Suite(.timeLimit(.minutes(10)), .holds(.privateBuses), .offThePool) struct StockClientTests {
    let bus: PrivateBus
    let host: SampleHost
    init() throws {
        bus = try PrivateBus()
        host = try SampleHost(address: bus.address)
    }

    static let destination = SampleObject.busName.rawValue
    static let path = SampleObject.path.rawValue
    static let interface = Sample1.name.rawValue
    /// What SampleObject declares, in declaration order: name, input and output signatures (as
    /// gdbus introspect and busctl introspect both show them).
    static let methods: [(name: String, inputs: String, outputs: String)] = [
        ("EchoBasics", "ybnqiuxtdsog", "ybnqiuxtdsog"), ("EchoString", "s", "s"), ("EchoVariant", "v", "v"),
        ("EchoDict", "a{sv}", "a{sv}"), ("EchoStruct", "(is)", "(is)"), ("EchoBytes", "ay", "ay"),
        ("EchoNested", "aa{sai}", "aa{sai}"), ("Add", "ii", "i"), ("Fail", "ss", ""), ("SetCounter", "i", ""),
        ("Emit", "s", ""),
    ]

    // MARK: dbus-send

    func dbusSend(_ member: String, _ arguments: String..., path: String = Self.path) throws -> CommandResult {
        try runCommand(["dbus-send", "--print-reply", "--reply-timeout=5000", "--dest=\(Self.destination)", path, member] + arguments,
                       environment: bus.clientEnvironment, timeout: 10)
    }

    @Test func dbusSendEveryBasicType() throws {
        // dbus-send has no syntax for a signature argument, so EchoBasics (…og) is not callable with
        // it: each basic type goes through EchoVariant instead, and busctl calls EchoBasics below.
        let cases: [(argument: String, printed: String)] = [
            ("byte:255", "byte 255"),
            ("boolean:true", "boolean true"),
            ("int16:-32768", "int16 -32768"),
            ("uint16:65535", "uint16 65535"),
            ("int32:-2147483648", "int32 -2147483648"),
            ("uint32:4294967295", "uint32 4294967295"),
            ("int64:-9223372036854775808", "int64 -9223372036854775808"),
            ("uint64:18446744073709551615", "uint64 18446744073709551615"),
            ("double:3.25", "double 3.25"),
            ("string:ß ✓", "string \"ß ✓\""),
            ("objpath:/x/y", "object path \"/x/y\""),
        ]
        for (argument, printed) in cases {
            let reply = dbusSendReplyLines(try dbusSend("\(Self.interface).EchoVariant", "variant:\(argument)"), from: host.uniqueName)
            #expect(reply == ["   variant       \(printed)"], "for \(argument)")
        }
        #expect(dbusSendReplyLines(try dbusSend("\(Self.interface).EchoString", "string:hello world"), from: host.uniqueName)
                == [#"   string "hello world""#])
        #expect(dbusSendReplyLines(try dbusSend("\(Self.interface).EchoBytes", "array:byte:1,2,255"), from: host.uniqueName)
                == ["   array of bytes [", "      01 02 ff", "   ]"])
    }

    @Test func dbusSendCallsErrorsAndStandardInterfaces() throws {
        #expect(dbusSendReplyLines(try dbusSend("\(Self.interface).Add", "int32:40", "int32:2"), from: host.uniqueName)
                == ["   int32 42"])
        expectToolFailure(try dbusSend("\(Self.interface).Fail", "string:com.example.Custom.Error.Busy", "string:try later"),
                          stderr: "Error com.example.Custom.Error.Busy: try later\n")
        expectToolFailure(try dbusSend("\(Self.interface).Add", "int32:2147483647", "int32:1"),
                          stderr: "Error org.example.Sample.Error.Overflow: 2147483647 + 1 overflows int32\n")

        // Peer: answered by libdbus for every object.
        #expect(dbusSendReplyLines(try dbusSend("org.freedesktop.DBus.Peer.Ping"), from: host.uniqueName) == [])
        let machineID = ["/var/lib/dbus/machine-id", "/etc/machine-id"].lazy
            .compactMap { try? String(contentsOfFile: $0, encoding: .utf8) }.first?
            .trimmingCharacters(in: .whitespacesAndNewlines)
        if let machineID {
            #expect(dbusSendReplyLines(try dbusSend("org.freedesktop.DBus.Peer.GetMachineId"), from: host.uniqueName)
                    == ["   string \"\(machineID)\""])
        }

        // Properties.
        #expect(dbusSendReplyLines(try dbusSend("org.freedesktop.DBus.Properties.Get", "string:\(Self.interface)", "string:Label"),
                                   from: host.uniqueName) == [#"   variant       string "initial""#])
        #expect(dbusSendReplyLines(try dbusSend("org.freedesktop.DBus.Properties.Get", "string:\(Self.interface)", "string:Counter"),
                                   from: host.uniqueName) == ["   variant       int32 0"])
        expectToolFailure(try dbusSend("org.freedesktop.DBus.Properties.Get", "string:\(Self.interface)", "string:Missing"),
                          stderr: "Error org.freedesktop.DBus.Error.UnknownProperty: No such property 'Missing' in interface 'org.example.Sample1'\n")

        // Standard errors from the object server.
        expectToolFailure(try dbusSend("\(Self.interface).Add", "int32:1", "int32:2", path: "/org/example/Nothing"),
                          stderr: "Error org.freedesktop.DBus.Error.UnknownObject: No such object path '/org/example/Nothing'\n")
        expectToolFailure(try dbusSend("\(Self.interface).Nope"),
                          stderr: "Error org.freedesktop.DBus.Error.UnknownMethod: No such method 'Nope' in interface 'org.example.Sample1' at object path '/org/example/Sample' (signature '')\n")
        expectToolFailure(try dbusSend("\(Self.interface).Add", "string:two", "int32:2"),
                          stderr: "Error org.freedesktop.DBus.Error.InvalidArgs: Invalid arguments for method 'Add': expected signature 'ii', got 'si'\n")
        // Every basic type dbus-send can write, one short of EchoBasics's signature.
        expectToolFailure(try dbusSend("\(Self.interface).EchoBasics", "byte:255", "boolean:true", "int16:-1", "uint16:1", "int32:-1",
                                       "uint32:1", "int64:-1", "uint64:1", "double:0.5", "string:s", "objpath:/o"),
                          stderr: "Error org.freedesktop.DBus.Error.InvalidArgs: Invalid arguments for method 'EchoBasics': expected signature 'ybnqiuxtdsog', got 'ybnqiuxtdso'\n")
        // The object still answers after all that.
        #expect(dbusSendReplyLines(try dbusSend("\(Self.interface).Add", "int32:-5", "int32:2"), from: host.uniqueName)
                == ["   int32 -3"])
    }

    // MARK: gdbus

    func gdbusCall(_ method: String, _ arguments: String...) throws -> CommandResult {
        try runCommand(["gdbus", "call", "--session", "--timeout", "5", "--dest", Self.destination, "--object-path", Self.path,
                        "--method", method] + arguments, environment: bus.clientEnvironment, timeout: 10)
    }

    /// A successful `gdbus call`'s output, dictionaries sorted.
    func gdbusOutput(_ result: CommandResult, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        #expect(result.status == 0 && result.stderr.isEmpty, "gdbus failed: \(result)", sourceLocation: sourceLocation)
        return canonicalGVariantText(result.stdout)
    }

    @Test func gdbusContainersAndProperties() throws {
        let dict = "{'n': <int32 7>, 's': <'x'>, 'inner': <{'deep': <[1, 2]>, 'b': <true>, 'none': <@as []>}>}"
        #expect(gdbusOutput(try gdbusCall("\(Self.interface).EchoDict", dict))
                == canonicalGVariantText("({'n': <7>, 's': <'x'>, 'inner': <{'deep': <[1, 2]>, 'b': <true>, 'none': <@as []>}>},)\n"))
        #expect(try gdbusCall("\(Self.interface).EchoDict", "@a{sv} {}").stdout == "(@a{sv} {},)\n")
        #expect(try gdbusCall("\(Self.interface).EchoStruct", "(7, 'seven')").stdout == "((7, 'seven'),)\n")
        #expect(try gdbusCall("\(Self.interface).EchoVariant", "<(uint64 3, 'x')>").stdout == "(<(uint64 3, 'x')>,)\n")
        #expect(try gdbusCall("\(Self.interface).EchoVariant", "<<int16 -2>>").stdout == "(<<int16 -2>>,)\n")
        #expect(try gdbusCall("\(Self.interface).EchoNested", "[{'a': [1, 2]}, {}]").stdout == "([{'a': [1, 2]}, {}],)\n")

        #expect(gdbusOutput(try gdbusCall("org.freedesktop.DBus.Properties.GetAll", Self.interface))
                == canonicalGVariantText("({'Counter': <0>, 'Label': <'initial'>, 'Version': <'1.0'>, 'Secret': <'hidden'>},)\n"))
        #expect(try gdbusCall("org.freedesktop.DBus.Properties.Set", Self.interface, "Label", "<'renamed'>").stdout == "()\n")
        #expect(try gdbusCall("org.freedesktop.DBus.Properties.Get", Self.interface, "Label").stdout == "(<'renamed'>,)\n")
    }

    @Test func gdbusErrors() throws {
        expectToolFailure(try gdbusCall("\(Self.interface).Fail", "com.example.Custom.Error.Busy", "try later"),
                          stderr: "Error: GDBus.Error:com.example.Custom.Error.Busy: try later\n")
        expectToolFailure(try gdbusCall("org.freedesktop.DBus.Properties.Set", Self.interface, "Version", "<'2'>"),
                          stderr: "Error: GDBus.Error:org.freedesktop.DBus.Error.PropertyReadOnly: Property 'Version' of interface 'org.example.Sample1' is read-only\n")
        expectToolFailure(try gdbusCall("org.freedesktop.DBus.Properties.Set", Self.interface, "Label", "<''>"),
                          stderr: "Error: GDBus.Error:org.freedesktop.DBus.Error.InvalidArgs: Label must not be empty\n"
                              // gdbus adds this hint to every InvalidArgs, after introspecting the object.
                              + "(According to introspection data, you need to pass 'ssv')\n")
        #expect(try gdbusCall("org.freedesktop.DBus.Properties.Get", Self.interface, "Label").stdout == "(<'initial'>,)\n")
    }

    @Test func gdbusIntrospectionMatchesTheDeclaration() throws {
        let result = try runCommand(["gdbus", "introspect", "--session", "--dest", Self.destination, "--object-path", Self.path, "--xml"],
                                    environment: bus.clientEnvironment, timeout: 10)
        #expect(result.status == 0, "\(result)")
        let document = try IntrospectionDocument(xml: result.stdout)
        #expect(Set(document.interfaces.map(\.name))
                == ["org.freedesktop.DBus.Peer", "org.freedesktop.DBus.Introspectable", "org.freedesktop.DBus.Properties", Self.interface])
        #expect(document.children.isEmpty)
        let sample = try #require(document.interfaces.first { $0.name == Self.interface })

        #expect(sample.methods.map(\.name) == Self.methods.map(\.name))
        for (name, inputs, outputs) in Self.methods {
            let method = try #require(sample.methods.first { $0.name == name })
            #expect(method.signature(direction: "in") == inputs, "\(name) inputs")
            #expect(method.signature(direction: "out") == outputs, "\(name) outputs")
            #expect(method.arguments.allSatisfy { !$0.name.isEmpty }, "\(name) has unnamed arguments")
        }
        let add = try #require(sample.methods.first { $0.name == "Add" })
        #expect(add.arguments == [.init(name: "a", type: "i", direction: "in"), .init(name: "b", type: "i", direction: "in"),
                                  .init(name: "sum", type: "i", direction: "out")])
        #expect(sample.methods.first { $0.name == "Fail" }?.annotations == ["org.gtk.GDBus.DocString": "Replies with the error named."])

        let emits = "org.freedesktop.DBus.Property.EmitsChangedSignal"
        #expect(sample.properties == [
            .init(name: "Counter", type: "i", access: "read", annotations: ["org.gtk.GDBus.DocString": "Set by SetCounter."]),
            .init(name: "Label", type: "s", access: "readwrite", annotations: [:]),
            .init(name: "Version", type: "s", access: "read", annotations: [emits: "const"]),
            .init(name: "Secret", type: "s", access: "read", annotations: [emits: "invalidates"]),
        ])

        #expect(sample.signals.map(\.name) == ["Pinged"])
        #expect(sample.signals.first?.arguments == [.init(name: "text", type: "s", direction: nil),
                                                    .init(name: "count", type: "i", direction: nil)])
        #expect(sample.annotations == ["org.gtk.GDBus.DocString": "A sample object for the binding's tests."])

        let properties = try #require(document.interfaces.first { $0.name == "org.freedesktop.DBus.Properties" })
        #expect(properties.methods.map { "\($0.name)(\($0.signature(direction: "in")))→\($0.signature(direction: "out"))" }
                == ["Get(ss)→v", "GetAll(s)→a{sv}", "Set(ssv)→"])
        #expect(properties.signals.map { "\($0.name)(\($0.signature(direction: nil)))" } == ["PropertiesChanged(sa{sv}as)"])

        // The parent path lists the child, so tools can walk down to the object.
        let parent = try runCommand(["gdbus", "introspect", "--session", "--dest", Self.destination, "--object-path", "/org/example", "--xml"],
                                    environment: bus.clientEnvironment, timeout: 10)
        #expect(try IntrospectionDocument(xml: parent.stdout).children == ["Sample"])
    }

    // MARK: busctl

    func busctl(_ arguments: String...) throws -> CommandResult {
        try runCommand(["busctl", "--address=\(bus.address)", "--no-pager", "--timeout=5"] + arguments, timeout: 10)
    }

    @Test func busctlCallsAndProperties() throws {
        #expect(try busctl("call", Self.destination, Self.path, Self.interface, "EchoStruct", "(is)", "7", "seven").stdout
                == "(is) 7 \"seven\"\n")
        #expect(try busctl("call", Self.destination, Self.path, Self.interface, "EchoBytes", "ay", "4", "0", "1", "127", "255").stdout
                == "ay 4 0 1 127 255\n")
        // busctl can write a signature, so it calls EchoBasics; it prints strings' UTF-8 bytes in octal.
        let basics = try busctl("call", "--", Self.destination, Self.path, Self.interface, "EchoBasics", "ybnqiuxtdsog",
                                "255", "true", "-32768", "65535", "-2147483648", "4294967295", "-9223372036854775808",
                                "18446744073709551615", "3.25", "ß ✓", "/x/y", "a(iv)")
        #expect(basics.status == 0, "\(basics)")
        #expect(basics.stdout == #"ybnqiuxtdsog 255 true -32768 65535 -2147483648 4294967295 -9223372036854775808 18446744073709551615 3.25 "\303\237 \342\234\223" "/x/y" "a(iv)""# + "\n")

        #expect(try busctl("get-property", Self.destination, Self.path, Self.interface, "Label", "Version", "Counter", "Secret").stdout
                == "s \"initial\"\ns \"1.0\"\ni 0\ns \"hidden\"\n")
        let set = try busctl("set-property", Self.destination, Self.path, Self.interface, "Label", "s", "relabelled")
        #expect(set.status == 0 && set.stdout.isEmpty && set.stderr.isEmpty, "\(set)")
        #expect(try busctl("get-property", Self.destination, Self.path, Self.interface, "Label").stdout == "s \"relabelled\"\n")
        // busctl prints the error's message, not its name (gdbusErrors checks the name).
        expectToolFailure(try busctl("set-property", Self.destination, Self.path, Self.interface, "Version", "s", "2"),
                          stderr: "Failed to set property Version on interface org.example.Sample1: Property 'Version' of interface 'org.example.Sample1' is read-only\n")
        expectToolFailure(try busctl("call", Self.destination, Self.path, Self.interface, "Add", "ii", "2147483647", "1"),
                          stderr: "Call failed: 2147483647 + 1 overflows int32\n")
        #expect(try busctl("get-property", Self.destination, Self.path, Self.interface, "Version").stdout == "s \"1.0\"\n")
    }

    @Test func busctlIntrospectTable() throws {
        let result = try busctl("introspect", Self.destination, Self.path)
        #expect(result.status == 0, "\(result)")
        // The table is aligned to its widest cells; compare it cell by cell.
        let rows = result.stdout.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }
        #expect(rows.first == ["NAME", "TYPE", "SIGNATURE", "RESULT/VALUE", "FLAGS"])
        let start = try #require(rows.firstIndex { $0.first == Self.interface })
        let end = rows[(start + 1)...].firstIndex { $0.count > 1 && $0[1] == "interface" } ?? rows.endIndex
        // busctl lists the methods by name, "-" for no reply arguments.
        let methods = Self.methods.sorted { $0.name < $1.name }.map { [".\($0.name)", "method", $0.inputs, $0.outputs.isEmpty ? "-" : $0.outputs, "-"] }
        #expect(Array(rows[start..<end]) == [["org.example.Sample1", "interface", "-", "-", "-"]] + methods + [
            [".Counter", "property", "i", "0", "emits-change"],
            [".Label", "property", "s", "\"initial\"", "emits-change", "writable"],
            [".Secret", "property", "s", "\"hidden\"", "emits-invalidation"],
            [".Version", "property", "s", "\"1.0\"", "const"],
            [".Pinged", "signal", "si", "-", "-"],
        ])
        let interfaces = rows.filter { $0.count > 1 && $0[1] == "interface" }.map { $0[0] }
        #expect(interfaces == ["org.example.Sample1", "org.freedesktop.DBus.Introspectable", "org.freedesktop.DBus.Peer",
                               "org.freedesktop.DBus.Properties"])
        #expect(rows.contains([".PropertiesChanged", "signal", "sa{sv}as", "-", "-"]))
    }

    // MARK: dbus-monitor

    @Test func dbusMonitorSeesSignals() throws {
        let monitor = try StreamingCommand(
            ["dbus-monitor", "--address", bus.address,
             "type='signal',interface='org.example.Sample1'", "type='signal',interface='org.freedesktop.DBus.Properties'"],
            environment: bus.clientEnvironment)
        defer { monitor.stop() }
        // Becoming a monitor drops the connection's unique name: the bus has set the monitor up by
        // the time the NameLost signal arrives.
        try monitor.waitForLine("dbus-monitor's NameLost") { $0.hasSuffix("member=NameLost") }

        #expect(dbusSendReplyLines(try dbusSend("\(Self.interface).Emit", "string:hello"), from: host.uniqueName) == [])
        let pinged = try monitor.waitForLine("the Pinged signal") { $0.hasSuffix("member=Pinged") }
        try monitor.waitForLine(from: pinged.index + 2, "Pinged's arguments") { _ in true }
        #expect(pinged.line.hasPrefix("signal time="))
        #expect(pinged.line.contains(" sender=\(host.uniqueName) -> destination=(null destination) "))
        #expect(pinged.line.hasSuffix(" path=/org/example/Sample; interface=org.example.Sample1; member=Pinged"))
        #expect(Array(monitor.output[(pinged.index + 1)...(pinged.index + 2)]) == [#"   string "hello""#, "   int32 1"])

        #expect(dbusSendReplyLines(try dbusSend("\(Self.interface).SetCounter", "int32:42"), from: host.uniqueName) == [])
        let changed = try monitor.waitForLine(from: pinged.index + 3, "PropertiesChanged") { $0.hasSuffix("member=PropertiesChanged") }
        try monitor.waitForLine(from: changed.index + 9, "PropertiesChanged's arguments") { _ in true }
        #expect(changed.line.contains(" sender=\(host.uniqueName) -> "))
        #expect(changed.line.hasSuffix(" path=/org/example/Sample; interface=org.freedesktop.DBus.Properties; member=PropertiesChanged"))
        #expect(Array(monitor.output[(changed.index + 1)...(changed.index + 9)]) == [
            #"   string "org.example.Sample1""#,
            "   array [",
            "      dict entry(",
            #"         string "Counter""#,
            "         variant             int32 42",
            "      )",
            "   ]",
            "   array [",
            "   ]",
        ])
        // Nothing else was signalled in between (the method calls are not signals).
        #expect(monitor.output[(pinged.index + 3)..<changed.index].isEmpty)
    }
}

// MARK: Introspection XML

/// An introspection document read back with `XMLParser`: interfaces with their members, and child nodes.
struct IntrospectionDocument {
    struct Argument: Equatable, CustomStringConvertible {
        var name: String
        var type: String
        var direction: String?
        var description: String { "\(name):\(type)\(direction.map { " \($0)" } ?? "")" }
    }
    struct Member {
        var name: String
        var arguments: [Argument] = []
        var annotations: [String: String] = [:]
        /// The concatenated types of the arguments going `direction` (nil: a signal's arguments).
        func signature(direction: String?) -> String {
            arguments.filter { $0.direction == direction }.map(\.type).joined()
        }
    }
    struct Property: Equatable {
        var name: String
        var type: String
        var access: String
        var annotations: [String: String] = [:]
    }
    struct InterfaceInfo {
        var name: String
        var methods: [Member] = []
        var signals: [Member] = []
        var properties: [Property] = []
        var annotations: [String: String] = [:]
    }

    var interfaces: [InterfaceInfo] = []
    var children: [String] = []

    init(xml: String) throws {
        let reader = Reader()
        let parser = XMLParser(data: Data(xml.utf8))
        parser.delegate = reader
        guard parser.parse() else {
            throw FixtureError("introspection XML does not parse: \(parser.parserError.map { "\($0)" } ?? "?")\n\(xml)")
        }
        if let problem = reader.problem { throw FixtureError(problem) }
        interfaces = reader.interfaces
        children = reader.children
    }

    private final class Reader: NSObject, XMLParserDelegate {
        var interfaces: [InterfaceInfo] = []
        var children: [String] = []
        var problem: String?
        private var depth = 0
        private var current: InterfaceInfo?
        private var member: (kind: String, value: Member)?
        private var property: Property?

        func parser(_ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            let name = attributes["name"] ?? ""
            switch element {
            case "node":
                depth += 1
                if depth == 2 { children.append(name) }
            case "interface": current = InterfaceInfo(name: name)
            case "method", "signal": member = (element, Member(name: name))
            case "property":
                property = Property(name: name, type: attributes["type"] ?? "", access: attributes["access"] ?? "")
            case "arg":
                member?.value.arguments.append(Argument(name: name, type: attributes["type"] ?? "", direction: attributes["direction"]))
            case "annotation":
                let value = attributes["value"] ?? ""
                if property != nil { property?.annotations[name] = value }
                else if member != nil { member?.value.annotations[name] = value }
                else { current?.annotations[name] = value }
            default: problem = "unexpected element <\(element)>"
            }
        }

        func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
            switch element {
            case "node": depth -= 1
            case "interface":
                if let current { interfaces.append(current) }
                current = nil
            case "method", "signal":
                if let member {
                    if member.kind == "method" { current?.methods.append(member.value) } else { current?.signals.append(member.value) }
                }
                member = nil
            case "property":
                if let property { current?.properties.append(property) }
                property = nil
            default: break
            }
        }
    }
}
