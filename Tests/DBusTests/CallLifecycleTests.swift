import DBus
import DBusTestSupport
import EventLoop
import Foundation
import Testing
import TestingTraits

/// What happens to calls and subscriptions around the edges: a peer that never answers, a task
/// cancelled mid-call, the bus going away, a signal stream dropped by its consumer.
@Suite(.timeLimit(.minutes(10)), .holds(.privateBuses)) struct CallLifecycleTests {
    let bus: PrivateBus
    let host: SampleHost
    init() throws { (bus, host) = try SampleHost.onPrivateBus() }

    /// The cancelled call ends, within 5 s, with CancellationError (not a reply, not another error).
    func expectCancelled(_ pending: Task<Message, any Error>) async throws {
        try await withTimeout(5, "the cancelled call to end") {
            do {
                let reply = try await pending.value
                Issue.record("expected CancellationError, got a reply with signature '\(reply.signature)'")
            } catch is CancellationError {
            } catch {
                Issue.record("expected CancellationError, got \(error)")
            }
        }
    }

    func call<each A: DBusArgument>(_ client: BusClient, _ member: MemberName, _ args: repeat each A) async throws -> Message {
        try await client.call(destination: SampleObject.busName, path: SampleObject.path, interface: Sample1.name,
                              member: member, repeat each args, timeout: .seconds(5))
    }

    func add(_ client: BusClient) async throws -> Int32 {
        try await call(client, "Add", Int32(2), Int32(3)).decode(Int32.self)
    }

    /// A call to `destination` that nobody will answer in time.
    func unanswered(_ client: BusClient, _ destination: BusName, timeout: Duration) async throws -> Message {
        try await client.call(destination: destination, path: "/org/example/Hole", interface: "org.example.Hole",
                              member: "Anything", "hello?", timeout: timeout)
    }

    /// A peer registered on the bus whose loop never runs: whatever it is sent stays unread.
    func blackHole() throws -> (loop: EventLoop, connection: Connection, name: BusName) {
        let loop = try EventLoop()
        let connection = try Connection(.address(bus.address), loop: loop)
        return (loop, connection, try BusName(connection.uniqueName))
    }

    /// The set-up calls to the bus itself (RequestName, AddMatch) have a deadline of their own, not
    /// libdbus's 25 s: a bus frozen after `Hello` fails a starting service within it, naming the bus.
    @Test func setUpCallsToAFrozenBusFailWithinTheirDeadline() throws {
        let (_, connection, _) = try blackHole()
        kill(bus.processIdentifier, SIGSTOP)
        defer { kill(bus.processIdentifier, SIGCONT) }
        let timeout = Duration.milliseconds(300)
        let steps: [(String, () throws -> Void)] = [
            ("RequestName", { _ = try connection.requestNameBlocking("org.example.Frozen", timeout: timeout) }),
            ("AddMatch", { try connection.addMatchBlocking(MatchRule(interface: "org.example.Frozen"), timeout: timeout) }),
        ]
        for (member, step) in steps {
            let start = ContinuousClock.now
            let error = #expect(throws: DBusError.self) { try step() }
            let elapsed = ContinuousClock.now - start
            #expect(error?.name == DBusError.Name.noReply, "\(member): \(String(describing: error))")
            #expect(error?.message.contains(member) == true && error?.message.contains(bus.address) == true,
                    "\(member): \(String(describing: error?.message))")
            #expect(elapsed >= timeout && elapsed < .seconds(3), "\(member) took \(elapsed)")
        }
    }

    @Test func aPeerThatNeverAnswersTimesOutWithNoReply() async throws {
        let hole = try blackHole()
        let client = try await bus.client()
        let start = ContinuousClock.now
        let error = await expectDBusError(DBusError.Name.noReply) {
            try await unanswered(client, hole.name, timeout: .milliseconds(200))
        }
        let elapsed = ContinuousClock.now - start
        #expect(error?.message.isEmpty == false)
        #expect(elapsed >= .milliseconds(200) && elapsed < .seconds(5), "took \(elapsed)")
        // The client is unaffected.
        #expect(try await add(client) == 5)
        withExtendedLifetime(hole) {}
    }

    @Test func cancellingTheTaskEndsTheCallPromptly() async throws {
        let hole = try blackHole()
        let client = try await bus.client()
        let destination = hole.name
        let start = ContinuousClock.now
        let pending = Task { try await unanswered(client, destination, timeout: .seconds(30)) }
        pending.cancel()
        try await expectCancelled(pending)
        // Ended by the cancellation, not the 30 s timeout. Half of that: the suite's parallel load
        // (and sanitizers) has stalled this task for seconds at a time.
        #expect(ContinuousClock.now - start < .seconds(15))
        #expect(try await add(client) == 5)
        withExtendedLifetime(hole) {}
    }

    @Test func cancellingACallThePeerIsHandlingEndsItPromptly() async throws {
        // A peer whose handler signals that the call arrived and then stalls its loop until
        // released: the cancellation is certain to hit a call in flight.
        let (arrived, arrival) = AsyncStream<Void>.makeStream()
        let release = DispatchSemaphore(value: 0)
        let peer = try await BusClient.connect(.address(bus.address))
        let exported = try await peer.withConnection { connection in
            let server = try ObjectServer(connection: connection)
            let exported = try server.export(Interface<Stall>(methods: [
                Method(Stall.hang) {
                    arrival.yield(())
                    release.wait()
                    return "too late"
                },
            ]), at: "/org/example/Stall")
            return Retained((server, exported))
        }
        let peerName = try BusName(await peer.uniqueName())
        let client = try await bus.client()
        let pending = Task {
            try await client.call(destination: peerName, path: "/org/example/Stall", interface: "org.example.Stall",
                                  member: "Hang", timeout: .seconds(30))
        }
        do {
            defer { release.signal() }
            try await next(arrived, within: 5, "the call to reach the peer")
            pending.cancel()
            try await expectCancelled(pending)
        }
        // The late reply arrives for a call nobody awaits any more; the client carries on.
        #expect(try await add(client) == 5)
        #expect(try await call(client, "EchoString", "still here").decode(String.self) == "still here")
        try await peer.withConnection { _ in exported.value = nil }
    }

    @Test func losingTheBusIsReportedAndLaterCallsFail() async throws {
        let client = try await bus.client()
        let (disconnects, disconnected) = AsyncStream<Void>.makeStream()
        try await client.withConnection { connection in
            connection.onDisconnect = {
                disconnected.yield(())
                disconnected.finish()
            }
        }
        #expect(try await add(client) == 5)

        bus.stop()
        try await next(disconnects, within: 5, "onDisconnect")
        #expect(try await client.withConnection { $0.isConnected } == false)
        // A call after the bus died fails at once, with a D-Bus error rather than a hang or a crash.
        _ = try await withTimeout(5, "a call on a dead connection") {
            await expectDBusError(DBusError.Name.disconnected) { try await add(client) }
        }
        // So does a subscription (its AddMatch can't be confirmed).
        _ = try await withTimeout(5, "a subscription on a dead connection") {
            await expectDBusError(DBusError.Name.disconnected) {
                try await client.signals(MatchRule(interface: Sample1.name))
            }
        }
    }

    @Test func droppingASignalStreamRemovesItsMatch() async throws {
        let client = try await bus.client()
        let uniqueName = await client.uniqueName()
        /// How many match rules the bus holds for the client (dbus-daemon's Debug.Stats interface).
        func matchRules() async throws -> UInt32 {
            let stats = try await client.call(destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
                                              interface: "org.freedesktop.DBus.Debug.Stats", member: "GetConnectionStats",
                                              uniqueName, timeout: .seconds(5)).decode([String: Variant].self)
            return try #require(stats["MatchRules"]).get(UInt32.self)
        }
        #expect(try await matchRules() == 0)

        let pinged = try await client.signals(MatchRule(path: SampleObject.path, interface: Sample1.name, member: "Pinged"))
        let everything = try await client.signals(MatchRule(interface: Sample1.name))
        #expect(try await matchRules() == 2)

        let (received, receiver) = AsyncStream<String>.makeStream()
        let consumer = Task {
            for await signal in pinged {
                receiver.yield((try? signal.decode(String.self, Int32.self).0) ?? "undecodable")
            }
        }
        _ = try await call(client, "Emit", "first")
        #expect(try await next(received, "the first Pinged") == "first")

        consumer.cancel()
        await consumer.value
        // The stream's termination queued the RemoveMatch before this call, so the bus has seen it.
        #expect(try await matchRules() == 1)

        // Pinged still reaches the client through the other subscription; the dropped one is gone.
        _ = try await call(client, "Emit", "second")
        let signal = try await next(everything, "Pinged through the remaining subscription")
        #expect(signal.member == "Pinged")
        #expect(try signal.decode(String.self, Int32.self) == ("first", Int32(1)))
        let second = try await next(everything, "the second Pinged")
        #expect(try second.decode(String.self, Int32.self) == ("second", Int32(2)))
        #expect(try await add(client) == 5)
    }
}

/// A peer whose method stalls its loop.
enum Stall: DBusInterface {
    static let name: InterfaceName = "org.example.Stall"
    static let hang = method("Hang", inputs: (), outputs: Arg<String>("late"))
}

/// Keeps a loop-confined object alive between `withConnection` calls.
///
/// `@unchecked Sendable`: `value` is only read or written inside closures that run on the loop thread.
final class Retained<Value>: @unchecked Sendable {
    var value: Value?
    init(_ value: Value) { self.value = value }
}
