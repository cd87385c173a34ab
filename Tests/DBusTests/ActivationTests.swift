import DBus
import DBusTestSupport
import Foundation
import Glibc
import Testing
import TestingTraits

/// Bus activation of the built `dbus-sample-service` from a private bus's service directory.
@Suite(.timeLimit(.minutes(10)), .holds(.privateBuses)) struct ActivationTests {
    let bus: PrivateBus
    init() throws {
        bus = try PrivateBus()
        try bus.installActivationFile(name: SampleObject.busName.rawValue, exec: try requireBuiltProduct("dbus-sample-service"))
    }

    // The bus itself (GetNameOwner, GetConnectionUnixProcessID, NameOwnerChanged).
    static let driver: BusName = "org.freedesktop.DBus"
    static let driverPath: ObjectPath = "/org/freedesktop/DBus"
    static let driverInterface: InterfaceName = "org.freedesktop.DBus"

    func add(_ client: BusClient, _ a: Int32, _ b: Int32) async throws -> Int32 {
        try await client.call(destination: SampleObject.busName, path: SampleObject.path, interface: Sample1.name,
                              member: "Add", a, b, timeout: .seconds(10)).decode(Int32.self)
    }

    func owner(_ client: BusClient) async throws -> String {
        try await client.call(destination: Self.driver, path: Self.driverPath, interface: Self.driverInterface, member: "GetNameOwner",
                              SampleObject.busName.rawValue, timeout: .seconds(5)).decode(String.self)
    }

    func pid(_ client: BusClient) async throws -> pid_t {
        pid_t(bitPattern: try await client.call(destination: Self.driver, path: Self.driverPath, interface: Self.driverInterface,
                                               member: "GetConnectionUnixProcessID", SampleObject.busName.rawValue,
                                               timeout: .seconds(5)).decode(UInt32.self))
    }

    @Test func dbusSendActivatesTheService() async throws {
        let client = try await BusClient.connect(.address(bus.address))
        await expectDBusError(DBusError.Name.nameHasNoOwner) { try await owner(client) }

        let result = try runCommand(["dbus-send", "--print-reply", "--reply-timeout=10000", "--dest=\(SampleObject.busName)",
                                     SampleObject.path.rawValue, "\(Sample1.name).Add", "int32:1", "int32:2"],
                                    environment: bus.clientEnvironment, timeout: 20)
        let activated = try await owner(client)
        #expect(dbusSendReplyLines(result, from: activated) == ["   int32 3"])
        // It is our binary that answered, started by the bus (not by us).
        let pid = try await pid(client)
        let executable = try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/\(pid)/exe")
        #expect(executable == (try requireBuiltProduct("dbus-sample-service")))
    }

    @Test func theBindingActivatesTheServiceToo() async throws {
        let client = try await BusClient.connect(.address(bus.address))
        #expect(try await add(client, 20, 22) == 42)
        let activated = try await owner(client)
        #expect(try await add(client, -1, -2) == -3)
        await expectDBusError("org.example.Sample.Error.Overflow") { try await add(client, .max, 1) }
        // Properties and signals work against the activated instance as they do in-process.
        #expect(try await client.property(String.self, destination: SampleObject.busName, path: SampleObject.path,
                                          interface: Sample1.name, name: "Version") == "1.0")
        let pinged = try await client.signals(MatchRule(sender: SampleObject.busName, path: SampleObject.path,
                                                        interface: Sample1.name, member: "Pinged"))
        _ = try await client.call(destination: SampleObject.busName, path: SampleObject.path, interface: Sample1.name,
                                  member: "Emit", "activated", timeout: .seconds(5))
        let signal = try await next(pinged, within: 10, "Pinged from the activated service")
        #expect(signal.sender == activated)
        #expect(try signal.decode(String.self, Int32.self) == ("activated", Int32(1)))
        #expect(try await owner(client) == activated, "a single instance served all the calls")
    }

    @Test func sigtermStopsTheServiceAndTheNextCallStartsItAgain() async throws {
        let client = try await BusClient.connect(.address(bus.address))
        #expect(try await add(client, 1, 2) == 3)
        let firstOwner = try await owner(client)
        let firstPID = try await pid(client)

        let ownerChanges = try await client.signals(MatchRule(sender: Self.driver, path: Self.driverPath, interface: Self.driverInterface,
                                                              member: "NameOwnerChanged", arg0: SampleObject.busName.rawValue))
        // The service blocks SIGTERM and reads it from a signalfd, so it sees it whatever mask it inherited.
        #expect(kill(firstPID, SIGTERM) == 0)
        let change = try await next(ownerChanges, within: 10, "NameOwnerChanged after SIGTERM")
        #expect(try change.decode(String.self, String.self, String.self) == (SampleObject.busName.rawValue, firstOwner, ""))
        await expectDBusError(DBusError.Name.nameHasNoOwner) { try await owner(client) }

        // The next call activates a new instance.
        #expect(try await add(client, 3, 4) == 7)
        let secondOwner = try await owner(client)
        let secondPID = try await pid(client)
        #expect(secondOwner != firstOwner)
        #expect(secondPID != firstPID)
        let appeared = try await next(ownerChanges, within: 10, "NameOwnerChanged for the new instance")
        #expect(try appeared.decode(String.self, String.self, String.self) == (SampleObject.busName.rawValue, "", secondOwner))
    }

    @Test func activatingANameWithoutAServiceFileFails() async throws {
        let result = try runCommand(["dbus-send", "--print-reply", "--reply-timeout=5000", "--dest=org.example.Absent",
                                     "/org/example/Absent", "org.example.Absent.Call"],
                                    environment: bus.clientEnvironment, timeout: 10)
        expectToolFailure(result, stderr: "Error org.freedesktop.DBus.Error.ServiceUnknown: The name org.example.Absent was not provided by any .service files\n")

        let client = try await BusClient.connect(.address(bus.address))
        let error = await expectDBusError(DBusError.Name.serviceUnknown) {
            try await client.call(destination: "org.example.Absent", path: "/org/example/Absent", interface: "org.example.Absent",
                                  member: "Call", timeout: .seconds(5))
        }
        #expect(error?.message == "The name org.example.Absent was not provided by any .service files")

        // A service file whose program exits without taking the name: the bus reports the exit.
        try bus.installActivationFile(name: "org.example.Quits", exec: "/bin/false")
        await expectDBusError("org.freedesktop.DBus.Error.Spawn.ChildExited") {
            try await client.call(destination: "org.example.Quits", path: "/", interface: "org.example.Quits",
                                  member: "Call", timeout: .seconds(10))
        }
        // The activatable sample service is listed, the others are not running.
        let activatable = try await client.call(destination: Self.driver, path: Self.driverPath, interface: Self.driverInterface,
                                                member: "ListActivatableNames", timeout: .seconds(5)).decode([String].self)
        #expect(activatable.contains(SampleObject.busName.rawValue) && activatable.contains("org.example.Quits"))
        #expect(try await add(client, 2, 2) == 4)
    }
}
