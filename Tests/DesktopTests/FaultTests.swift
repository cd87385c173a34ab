import DBusTestSupport
import Foundation
import Testing
import TestingTraits

/// Faults, bad input and load against the real `dbmultiverse service` on a private bus,
/// with small counts so `make test` stays fast. `make soak` runs the same scenarios with big
/// counts (SoakTests).
@Suite(.timeLimit(.minutes(5)), .holds(.privateBuses), .enabled(if: FileManager.default.isExecutableFile(atPath: Binary.dbmultiverse)))
struct FaultTests {
    @Test func sigkillDuringUpdatesLosesNothingAccepted() async throws {
        let figures = try await FaultScenarios.killDuringUpdates(cycles: 10)
        #expect(figures.survived == 10)
        print("FaultTests: SIGKILL ×10: \(figures)")
    }

    @Test func manyClientsGetNoErrors() async throws {
        let (calls, errors) = try await FaultScenarios.manyClients(clients: 8, calls: 200)
        #expect(calls == 8 * 200)
        #expect(errors.isEmpty, "\(errors.count) errors, e.g. \(errors.prefix(5))")
        print("FaultTests: 8 clients × 200 calls, \(errors.count) errors")
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
        let figures = try await FaultScenarios.killDuringUpdates(cycles: Self.cycles)
        #expect(figures.survived == Self.cycles)
        print("SoakTests: SIGKILL ×\(Self.cycles): \(figures)")
    }

    @Test func thirtyTwoClientsTimesAThousandCalls() async throws {
        let (calls, errors) = try await FaultScenarios.manyClients(clients: 32, calls: 1000)
        #expect(calls == 32 * 1000)
        #expect(errors.isEmpty, "\(errors.count) errors, e.g. \(errors.prefix(5))")
        print("SoakTests: 32 clients × 1000 calls = \(calls), \(errors.count) errors")
    }
}
