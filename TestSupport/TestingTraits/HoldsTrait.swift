package import DBusTestSupport
package import Testing

/// Runs tests holding a place of `resource` (see `TestResource`), for each test case or once
/// around a whole suite: `@Suite(.timeLimit(.minutes(10)), .holds(.privateBuses))`.
///
/// Each test case waits for its place inside its time limit; with places freed every second or
/// so the wait is short, but at the start of a run on a loaded machine it can pass three minutes, so
/// such suites give themselves at least 10 (SuiteConventionTests checks). A suite that runs its tests one after another (`.serialized`) holds one
/// place for all of them (`.holds(.privateBuses, .wholeSuite)`): taking a place per test would
/// send each of them to the back of the queue again. A suite's wait runs outside any time limit,
/// which is what a desktop session needs: one suite may wait minutes for the others.
/// Declare `.desktopSession` before `.privateBuses`, so no suite holds a bus place while it waits
/// for the desktop.
package struct HoldsTrait: SuiteTrait, TestTrait, TestScoping {
    /// How long a place is held.
    package enum Span: Sendable {
        /// By each test case while it runs.
        case eachTestCase
        /// Once, around the whole suite (or test) the trait is declared on.
        case wholeSuite
    }

    package let resource: TestResource
    package let span: Span

    package var isRecursive: Bool { span == .eachTestCase }

    package func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        let outermost = testCase == nil
        guard outermost == (span == .wholeSuite), !TestResource.held.contains(resource) else { return try await function() }
        try await resource.slots.holding { try await function() }
    }
}

extension Trait where Self == HoldsTrait {
    /// Holds a place of `resource` while the tests run: for each test case, except for a desktop
    /// session, which a suite holds once for all its tests (see `HoldsTrait`).
    package static func holds(_ resource: TestResource) -> Self {
        Self(resource: resource, span: resource == .desktopSession ? .wholeSuite : .eachTestCase)
    }

    /// Holds a place of `resource` for `span`.
    package static func holds(_ resource: TestResource, _ span: HoldsTrait.Span) -> Self {
        Self(resource: resource, span: span)
    }
}
