import DBus
import DBusTestSupport
import EventLoop
import Testing
import TestingTraits

/// The sample object over a private dbus-daemon, driven by the binding's own async client.
@Suite(.timeLimit(.minutes(10)), .holds(.privateBuses)) struct ExportedObjectTests {
    let bus: PrivateBus
    let host: SampleHost
    init() throws { (bus, host) = try SampleHost.onPrivateBus() }

    func call<each A: DBusArgument>(_ client: BusClient, _ member: MemberName, _ args: repeat each A,
                                    interface: InterfaceName = Sample1.name,
                                    path: ObjectPath = SampleObject.path) async throws -> Message {
        try await client.call(destination: SampleObject.busName, path: path, interface: interface, member: member,
                              repeat each args, timeout: .seconds(5))
    }

    func expectError(_ name: String, containing text: String, _ body: () async throws -> Message) async {
        do {
            let reply = try await body()
            Issue.record("expected \(name), got a reply with signature '\(reply.signature)'")
        } catch let error as DBusError {
            #expect(error.name == name)
            #expect(error.message.contains(text), "message was: \(error.message)")
        } catch {
            Issue.record("expected a DBusError, got \(error)")
        }
    }

    @Test func everyTypeRoundTrips() async throws {
        let client = try await bus.client()
        let reply = try await call(client, "EchoBasics", UInt8(255), true, Int16.min, UInt16.max, Int32.min, UInt32.max,
                                   Int64.max, UInt64.max, 3.25, "ß ✓", ObjectPath("/x/y"), Signature("a(iv)"))
        let v = try reply.decode(UInt8.self, Bool.self, Int16.self, UInt16.self, Int32.self, UInt32.self, Int64.self,
                                 UInt64.self, Double.self, String.self, ObjectPath.self, Signature.self)
        #expect(v.0 == 255 && v.1 && v.2 == Int16.min && v.3 == UInt16.max && v.4 == Int32.min && v.5 == UInt32.max)
        #expect(v.6 == Int64.max && v.7 == UInt64.max && v.8 == 3.25 && v.9 == "ß ✓" && v.10.rawValue == "/x/y" && v.11.rawValue == "a(iv)")

        let dict: [String: Variant] = ["n": Variant(Int32(7)), "s": Variant("x"), "a": Variant([Int64(1), 2])]
        #expect(try await call(client, "EchoDict", dict).decode([String: Variant].self) == dict)
        let pair = Pair(number: 9, text: "nine")
        #expect(try await call(client, "EchoStruct", pair).decode(Pair.self) == pair)
        let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0) }
        #expect(try await call(client, "EchoBytes", bytes).decode([UInt8].self) == bytes)
        let nested: [[String: [Int32]]] = [["a": [1, 2]], [:]]
        #expect(try await call(client, "EchoNested", nested).decode([[String: [Int32]]].self) == nested)
        let variant = Variant(.structure([.string("s"), .variant(.uint64(3))]))
        #expect(try await call(client, "EchoVariant", variant).decode(Variant.self) == variant)
    }

    @Test func errorsKeepTheirNamesAndMessages() async throws {
        let client = try await bus.client()
        await expectError("com.example.Custom.Error.Busy", containing: "try later") {
            try await call(client, "Fail", "com.example.Custom.Error.Busy", "try later")
        }
        await expectError("org.example.Sample.Error.Overflow", containing: "overflows int32") {
            try await call(client, "Add", Int32.max, Int32(1))
        }
        await expectError(DBusError.Name.invalidArgs, containing: "expected signature 'ii', got 's'") {
            try await call(client, "Add", "two")
        }
        await expectError(DBusError.Name.invalidArgs, containing: "got ''") {
            try await call(client, "Add")
        }
        await expectError(DBusError.Name.unknownMethod, containing: "No such method 'Nope'") {
            try await call(client, "Nope")
        }
        await expectError(DBusError.Name.unknownInterface, containing: "org.example.Other") {
            try await call(client, "Add", Int32(1), Int32(2), interface: "org.example.Other")
        }
        await expectError(DBusError.Name.unknownObject, containing: "/org/example/Nothing") {
            try await call(client, "Add", Int32(1), Int32(2), path: "/org/example/Nothing")
        }
        await expectError(DBusError.Name.serviceUnknown, containing: "org.example.Absent") {
            try await client.call(destination: "org.example.Absent", path: "/", interface: "org.example.X", member: "Y")
        }
        // A handler's invalid error name still produces a well-formed error.
        await expectError(DBusError.Name.failed, containing: "bad name") {
            try await call(client, "Fail", "not a name", "bad name")
        }
    }

    /// The server remembers the routes of recent calls; a remembered route must serve exactly its
    /// own path, interface and member, and be forgotten when its interface is unexported.
    @Test func rememberedRoutesServeOnlyTheirOwnCalls() async throws {
        let client = try await bus.client()
        for _ in 0..<3 { #expect(try await call(client, "Add", Int32(2), Int32(40)).decode(Int32.self) == 42) }
        await expectError(DBusError.Name.unknownInterface, containing: "does not implement interface 'org.example.Other1'") {
            try await call(client, "Add", Int32(2), Int32(40), interface: "org.example.Other1")
        }
        await expectError(DBusError.Name.unknownObject, containing: "'/org/example/Sample/Elsewhere'") {
            try await call(client, "Add", Int32(2), Int32(40), path: "/org/example/Sample/Elsewhere")
        }
        await expectError(DBusError.Name.invalidArgs, containing: "expected signature 'ii'") {
            try await call(client, "Add", "two", "forty")
        }
        try await host.withSample { $0.unexport() }
        await expectError(DBusError.Name.unknownObject, containing: "'/org/example/Sample'") {
            try await call(client, "Add", Int32(2), Int32(40))
        }
    }

    @Test func properties() async throws {
        let client = try await bus.client()
        func get<T: DBusArgument>(_ name: String, _ type: T.Type) async throws -> T {
            try await client.property(T.self, destination: SampleObject.busName, path: SampleObject.path,
                                      interface: Sample1.name, name: name)
        }
        #expect(try await get("Version", String.self) == "1.0")
        #expect(try await get("Label", String.self) == "initial")
        let all = try await call(client, "GetAll", Sample1.name.rawValue, interface: "org.freedesktop.DBus.Properties")
            .decode([String: Variant].self)
        #expect(Set(all.keys) == ["Counter", "Label", "Version", "Secret"])

        let properties: InterfaceName = "org.freedesktop.DBus.Properties"
        _ = try await call(client, "Set", Sample1.name.rawValue, "Label", Variant("renamed"), interface: properties)
        #expect(try await get("Label", String.self) == "renamed")
        await expectError(DBusError.Name.propertyReadOnly, containing: "'Version'") {
            try await call(client, "Set", Sample1.name.rawValue, "Version", Variant("2"), interface: properties)
        }
        await expectError(DBusError.Name.invalidArgs, containing: "has type 's'") {
            try await call(client, "Set", Sample1.name.rawValue, "Label", Variant(Int32(1)), interface: properties)
        }
        await expectError(DBusError.Name.invalidArgs, containing: "must not be empty") {
            try await call(client, "Set", Sample1.name.rawValue, "Label", Variant(""), interface: properties)
        }
        await expectError(DBusError.Name.unknownProperty, containing: "'Missing'") {
            try await call(client, "Get", Sample1.name.rawValue, "Missing", interface: properties)
        }
        await expectError(DBusError.Name.unknownInterface, containing: "org.example.None") {
            try await call(client, "GetAll", "org.example.None", interface: properties)
        }
        #expect(try await get("Label", String.self) == "renamed")
    }

    @Test func signalsAndPropertiesChanged() async throws {
        let client = try await bus.client()
        let pinged = try await client.signals(MatchRule(path: SampleObject.path, interface: Sample1.name, member: "Pinged"))
        _ = try await call(client, "Emit", "hello")
        let signal = try await next(pinged, "Pinged")
        let (text, count) = try signal.decode(String.self, Int32.self)
        #expect(text == "hello" && count == 1)
        #expect(signal.sender == host.uniqueName)

        let changes = try await client.signals(MatchRule(path: SampleObject.path, interface: "org.freedesktop.DBus.Properties",
                                                         member: "PropertiesChanged", arg0: Sample1.name.rawValue))
        _ = try await call(client, "SetCounter", Int32(7))
        let (interface, changed, invalidated) = try await next(changes, "PropertiesChanged")
            .decode(String.self, [String: Variant].self, [String].self)
        #expect(interface == Sample1.name.rawValue)
        #expect(changed == ["Counter": Variant(Int32(7))])
        #expect(invalidated.isEmpty)
    }

    /// libdbus hands a connection every signal sent straight to it, whatever its match rules say:
    /// a subscription to a well-known sender must only see signals from that name's owner, and
    /// follow the owner when it changes.
    @Test func aSignalSentStraightToUsByAnotherPeerIsNotFromAWellKnownName() async throws {
        let client = try await bus.client()
        let pinged = try await client.signals(MatchRule(sender: SampleObject.busName, path: SampleObject.path,
                                                        interface: Sample1.name, member: "Pinged"))
        // A round trip: the owner lookup made at subscribing has been answered by now.
        #expect(try await call(client, "Add", Int32(2), Int32(40)).decode(Int32.self) == 42)

        // The spoofer sends its signal to us, then asks the real owner to emit: the bus routes the
        // spoofer's messages in order, so the forged one arrives first.
        let spoofer = try await BusClient.connect(.address(bus.address))
        let us = try BusName(await client.uniqueName())
        try await spoofer.emit(path: SampleObject.path, interface: Sample1.name, member: "Pinged",
                               destination: us, "forged", Int32(-1))
        _ = try await call(spoofer, "Emit", "real")
        let first = try await next(pinged, "Pinged")
        #expect(try first.decode(String.self, Int32.self).0 == "real")
        #expect(first.sender == host.uniqueName)

        // A new owner of the name: its signals are the name's now.
        host.stop()
        let successor = try SampleHost(address: bus.address)
        defer { successor.stop() }
        _ = try await call(spoofer, "Emit", "successor")
        let fromSuccessor = try await next(pinged, "Pinged")
        #expect(try fromSuccessor.decode(String.self, Int32.self).0 == "successor")
        #expect(fromSuccessor.sender == successor.uniqueName)
    }

    @Test func introspectionListsTheDeclaration() async throws {
        let client = try await bus.client()
        let xml = try await call(client, "Introspect", interface: "org.freedesktop.DBus.Introspectable").decode(String.self)
        #expect(xml.contains(#"<method name="EchoBasics">"#))
        #expect(xml.contains(#"<arg name="pair" type="(is)" direction="in"/>"#))
        #expect(xml.contains(#"<property name="Version" type="s" access="read">"#))
        #expect(xml.contains(#"<annotation name="org.freedesktop.DBus.Property.EmitsChangedSignal" value="const"/>"#))
        #expect(xml.contains(#"<signal name="Pinged">"#))
        #expect(xml.contains(#"<interface name="org.freedesktop.DBus.Properties">"#))
        // Parents can be walked down to the object.
        let root = try await call(client, "Introspect", interface: "org.freedesktop.DBus.Introspectable", path: "/").decode(String.self)
        #expect(root.contains(#"<node name="org"/>"#))
    }

    @Test func aTakenNameIsReported() async throws {
        let loop = try EventLoop()
        let second = try Connection(.address(bus.address), loop: loop)
        #expect(try second.requestNameBlocking(SampleObject.busName) == .exists)
        #expect(try second.requestNameBlocking("org.example.Free") == .primaryOwner)
        #expect(try second.requestNameBlocking("org.example.Free") == .alreadyOwner)
    }
}
