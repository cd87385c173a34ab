import DBusTestSupport
import Foundation
import Testing

/// Faults, bad input and load against the real `dbmultiverse service` on a private bus,
/// with small counts so `make test` stays fast. `make soak` runs the same scenarios with big
/// counts (SoakTests). Serialized: each case runs a service with an inotify instance, and running
/// them all at once beside the rest of the suite exhausts root's 128 (fs.inotify.max_user_instances),
/// which leaves other tests' services unwatched.
@Suite(.serialized, .timeLimit(.minutes(5)), .enabled(if: FileManager.default.isExecutableFile(atPath: Binary.dbmultiverse)))
struct FaultTests {
    @Test func sigkillDuringUpdatesLosesNothingAccepted() async throws {
        try await FaultScenarios.expectNothingAcceptedLost(cycles: 10, in: "FaultTests")
    }

    @Test func manyClientsGetNoErrors() async throws {
        try await FaultScenarios.expectNoErrors(clients: 8, calls: 200, in: "FaultTests")
    }

    @Test func malformedCallsGetInvalidArgs() async throws {
        let (methods, calls) = try await FaultScenarios.malformedCalls()
        print("FaultTests: \(methods) methods × \(calls) malformed calls, all InvalidArgs")
    }

    @Test(arguments: BadFile.allCases)
    func aBadFileIsLoggedOnceAndServedAround(_ bad: BadFile) async throws {
        try await FaultScenarios.badFile(bad)
    }

    @Test func theServiceExitsWhenTheBusGoesAway() throws {
        try FaultScenarios.serviceLosesTheBus()
    }
}

/// `make soak`: the fault scenarios with big counts. Skipped unless DBMULTIVERSE_SOAK is set.
@Suite(.timeLimit(.minutes(20)), .enabled(if: ProcessInfo.processInfo.environment["DBMULTIVERSE_SOAK"] != nil),
       .enabled(if: FileManager.default.isExecutableFile(atPath: Binary.dbmultiverse)))
struct SoakTests {
    static var cycles: Int { Int(ProcessInfo.processInfo.environment["SOAK_KILL_CYCLES"] ?? "") ?? 200 }

    @Test func sigkillDuringUpdates() async throws {
        try await FaultScenarios.expectNothingAcceptedLost(cycles: Self.cycles, in: "SoakTests")
    }

    @Test func thirtyTwoClientsTimesAThousandCalls() async throws {
        try await FaultScenarios.expectNoErrors(clients: 32, calls: 1000, in: "SoakTests")
    }
}
