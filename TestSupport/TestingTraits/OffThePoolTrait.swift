import DBusTestSupport
package import Testing

/// Runs each test of a suite (or one test) off Swift's cooperative pool, on threads of its own
/// (`offThePool`): for tests that block on processes, browsers or sockets, so that they do not
/// stall the other tests' tasks. `@Suite(.timeLimit(.minutes(10)), .offThePool)`.
package struct OffThePoolTrait: SuiteTrait, TestTrait, TestScoping {
    package var isRecursive: Bool { true }

    package func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // The suite's own scope passes through: each test case gets its scope.
        guard testCase != nil else { return try await function() }
        try await DBusTestSupport.offThePool { try await function() }
    }
}

extension Trait where Self == OffThePoolTrait {
    /// Runs the tests off the cooperative pool (see `OffThePoolTrait`).
    package static var offThePool: Self { Self() }
}
