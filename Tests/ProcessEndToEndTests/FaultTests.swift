import DBusTestSupport
import DesktopTestSupport
import EndToEndSupport
import Foundation
import Testing
import TestingTraits

/// Faults, bad input and load against the real `dbmultiverse service` on a private bus,
/// with small counts so `make test` stays fast. `make soak` runs the same scenarios with big
/// counts (SoakTests).
@Suite(.timeLimit(.minutes(10)), .holds(.privateBuses), .enabled(if: FileManager.default.isExecutableFile(atPath: Binary.dbmultiverse)))
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
@Suite(.timeLimit(.minutes(20)), .holds(.privateBuses), .enabled(if: ProcessInfo.processInfo.environment["DBMULTIVERSE_SOAK"] != nil),
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
