import Testing
@testable import Widget

/// `RestartBackoff`, on an injected clock (issue 39, defect 1: `watch --next` started a dying
/// service again at once, without end).
@Suite(.timeLimit(.minutes(1))) struct RestartBackoffTests {
    static let second: Int64 = 1_000_000_000

    /// Left, started again after 1 s, left, after 2 s, left: given up.
    @Test func waitsLongerEachTimeThenGivesUp() {
        var backoff = RestartBackoff(now: 0)
        #expect(backoff.departed(at: Self.second / 2) == Self.second)
        backoff.started(at: 3 * Self.second / 2)
        #expect(backoff.departed(at: 2 * Self.second) == 2 * Self.second)
        backoff.started(at: 4 * Self.second)
        #expect(backoff.departed(at: 5 * Self.second) == nil)
    }

    /// A service that stayed up a minute is well again: its next departure counts from the start.
    @Test func aServiceThatStayedUpAMinuteStartsTheCountAgain() {
        var backoff = RestartBackoff(now: 0)
        #expect(backoff.departed(at: Self.second) == Self.second)
        backoff.started(at: 2 * Self.second)
        #expect(backoff.departed(at: 62 * Self.second) == Self.second)
        backoff.started(at: 63 * Self.second)
        #expect(backoff.departed(at: 64 * Self.second) == 2 * Self.second)
        #expect(backoff.departures == 2)
    }
}
