import DBus
import DBusTestSupport
import EventLoop
import Synchronization
import Testing
import TestingTraits

/// The declarations as both sides use them: typed calls, property reads and owner-checked signal
/// subscriptions on the client; export checks, and emitting only what was exported, on the server.
@Suite(.timeLimit(.minutes(10)), .holds(.privateBuses))
struct DeclarationTests {
    let bus: PrivateBus
    let host: SampleHost
    let sample = RemoteObject(destination: SampleObject.busName, path: SampleObject.path)

    init() throws { (bus, host) = try SampleHost.onPrivateBus() }

    @Test func callsAndPropertyReadsAreTypedByTheDeclaration() async throws {
        let client = try await bus.client()
        let sum: Int32 = try await client.call(Sample1.add.call(on: sample, 2, 40))
        #expect(sum == 42)
        let pair = try await client.call(Sample1.echoStruct.call(on: sample, Pair(number: 9, text: "nine")))
        #expect(pair == Pair(number: 9, text: "nine"))
        let (y, b, n, q, i, u, x, t, d, text, o, g) = try await client.call(Sample1.echoBasics.call(
            on: sample, 255, true, -2, 3, -4, 5, -6, 7, 0.5, "ß", "/x", "a{sv}"))
        #expect(y == 255 && b && n == -2 && q == 3 && i == -4 && u == 5 && x == -6 && t == 7 && d == 0.5)
        #expect(text == "ß" && o == "/x" && g == "a{sv}")
        try await client.call(Sample1.setCounter.call(on: sample, 7))
        #expect(try await client.call(Sample1.counter.get(from: sample)) == 7)
        #expect(try await client.call(Sample1.version.get(from: sample)) == "1.0")
        // The remote error keeps its name and message.
        await #expect(throws: DBusError(name: "org.example.Sample.Error.Overflow", message: "2147483647 + 1 overflows int32")) {
            try await client.call(Sample1.add.call(on: sample, Int32.max, 1))
        }
    }

    @Test func aReplyOfAnotherSignatureIsInvalidArgsNotATrap() async throws {
        let client = try await bus.client()
        // A declaration that disagrees with the object: EchoString answers 's', not 'i'.
        let wrong = WrongSample.echoString.call(on: sample, "text")
        let error = await #expect(throws: DBusError.self) { try await client.call(wrong) }
        #expect(error?.name == DBusError.Name.invalidArgs)
    }

    @Test func aSubscriptionDecodesTheSignalAndTakesItOnlyFromTheOwner() async throws {
        let client = try await bus.client()
        let (received, receive) = AsyncStream<String>.makeStream()
        let sample = self.sample
        let subscription = try await client.withConnection { connection in
            LoopBound(try connection.subscribe(Sample1.pinged, from: sample) { text, count in receive.yield("\(text) \(count)") })
        }
        // Forged, straight to us, then the real one: the bus routes one sender's messages in
        // order, so the forged signal would arrive first. The owner was looked up at subscribing.
        let spoofer = try await BusClient.connect(.address(bus.address))
        let us = try BusName(await client.uniqueName())
        try await spoofer.emit(Sample1.pinged, from: SampleObject.path, to: us, "forged", -1)
        try await spoofer.call(Sample1.emit.call(on: sample, "real"))
        #expect(try await next(received, "Pinged") == "real 1")
        try await client.withConnection { _ in subscription.value.cancel() }
    }

    @Test func aSignalThatDoesNotDecodeGoesToOnMalformed() async throws {
        let client = try await bus.client()
        let (malformed, report) = AsyncStream<String>.makeStream()
        let peer = try await BusClient.connect(.address(bus.address))
        let peerName = try BusName(await peer.uniqueName())
        let subscription = try await client.withConnection { connection in
            LoopBound(try connection.subscribe(Sample1.pinged, sender: peerName, onMalformed: { report.yield($0.message) }) { _, _ in
                Issue.record("a Pinged of signature 'i' was decoded")
            })
        }
        try await peer.emit(path: SampleObject.path, interface: Sample1.name, member: Sample1.pinged.name, Int32(1))
        #expect(try await next(malformed, "the malformed report").contains("'si'"))
        try await client.withConnection { _ in subscription.value.cancel() }
    }

    @Test func ownerChangesAreReportedAndAForgedOneIsNot() async throws {
        let client = try await bus.client()
        let (owners, report) = AsyncStream<String?>.makeStream()
        let subscription = try await client.withConnection { connection in
            LoopBound(try connection.onOwnerChange(of: SampleObject.busName) { report.yield($0) })
        }
        // A peer forges the bus's NameOwnerChanged, straight to us; a round trip to the bus makes
        // sure it is routed before the real change below.
        let spoofer = try await BusClient.connect(.address(bus.address))
        let us = try BusName(await client.uniqueName())
        try await spoofer.emit(BusDriver.nameOwnerChanged, from: BusDriver.object.path, to: us,
                               SampleObject.busName.rawValue, host.uniqueName, ":1.9999")
        _ = try await spoofer.call(BusDriver.getID.call(on: BusDriver.object))
        host.stop()
        #expect(try await next(owners, "the owner leaving") == String?.none)
        let successor = try SampleHost(address: bus.address)
        defer { successor.stop() }
        #expect(try await next(owners, "the new owner") == successor.uniqueName)
        try await client.withConnection { _ in subscription.value.cancel() }
    }

    @Test func exportListsEveryProblemOfTheDeclaration() throws {
        let peer = try BusHost(address: bus.address)
        defer { peer.stop() }
        let broken = Interface<Sample1>(
            methods: [Method(Sample1.emit) { _ in }, Method(Sample1.emit) { _ in }],
            properties: [Property(Sample1.label) { "read-only binding" }, Property(Sample1.counter, get: { 1 }, set: { _ in })])
        let error = #expect(throws: DBusError.self) { _ = try peer.server.export(broken, at: "/broken") }
        #expect(error?.name == DBusError.Name.invalidArgs)
        #expect(error?.message == "org.example.Sample1: method 'Emit' is bound twice; "
            + "property 'Label' is declared read-write but bound without a setter; "
            + "property 'Counter' is declared read-only but bound with a setter")
    }

    @Test func emittingWhatTheExportLacksIsCaughtAndNotSent() async throws {
        let peer = try BusHost(address: bus.address)
        let problems = Mutex<[String]>([])
        peer.server.onMisuse = { problem in problems.withLock { $0.append(problem) } }
        // Sample1 exported without its signal, and with only the Counter property.
        let exported = LoopBound(try peer.server.export(Interface<Sample1>(properties: [Property(Sample1.counter) { 3 }]),
                                                        at: "/partial"))
        try peer.start()
        let client = try await bus.client()
        let fromPeer = try await client.signals(MatchRule(sender: BusName(peer.uniqueName)))
        try await peer.perform {
            exported.value.emit(Sample1.pinged, "not exported", 1)
            exported.value.emitPropertiesChanged(PropertyChanges(Sample1.label))
            // What it does export goes out: the first signal the client sees, since one sender's
            // messages arrive in order.
            exported.value.emitPropertiesChanged(PropertyChanges(Sample1.counter))
            exported.value.unexport()
            exported.value.emitPropertiesChanged(PropertyChanges(Sample1.counter))
        }
        let first = try await next(fromPeer, "the Counter change")
        #expect(first.member == "PropertiesChanged")
        #expect(try first.decode(String.self, [String: Variant].self, [String].self).1 == ["Counter": Variant(Int32(3))])
        #expect(problems.withLock { $0 } == [
            "signal Pinged is not among the signals org.example.Sample1 is exported with at /partial",
            "property Label is not among the properties org.example.Sample1 is exported with at /partial",
        ])
        peer.stop()
    }

    @Test func droppingTheExportedHandleUnexports() async throws {
        let client = try await bus.client()
        try await host.withSample { $0.unexport() }
        let error = await #expect(throws: DBusError.self) { try await client.call(Sample1.add.call(on: sample, 1, 2)) }
        #expect(error?.name == DBusError.Name.unknownObject)
    }
}

/// Sample1's EchoString declared with another reply type, as a client out of date would.
enum WrongSample: DBusInterface {
    static let name: InterfaceName = "org.example.Sample1"
    static let echoString = method("EchoString", inputs: Arg<String>("text"), outputs: Arg<Int32>("number"))
}
