/// When a client that keeps the service running starts it again after it left the bus, and when it
/// stops trying: `watch --next` (the Plasma widget's long poll), which reads the entry again, by bus
/// activation, after the service crashed or was stopped. A service that dies at each start would
/// otherwise be started again at once, without end (measured: 93–95 starts in 30 s). So each start
/// again waits, 1 s then twice as long, and when the second of those starts has failed too — the
/// service left again — the client ends with an error, so that its own caller's
/// back-off applies (the widget's: 1 s doubled up to a minute). A service that stayed up a minute is
/// well again: its next departure counts from the start. Times are monotonic nanoseconds
/// (`EventLoop.now()`), passed in.
package struct RestartBackoff: Sendable {
    /// The first wait before starting the service again.
    static let firstDelay: Int64 = 1_000_000_000
    /// How long a started service must stay up to be well again.
    static let healthyAfter: Int64 = 60_000_000_000
    /// The starts again that may fail before the client gives up.
    static let failedStartsAllowed = 2

    /// The service's departures since it was last well: the first is an ordinary stop (an upgrade,
    /// a restart), each later one a start of this client's that failed.
    package private(set) var departures = 0
    private var startedAt: Int64

    /// The service is read (and started, when needed) at `now`.
    package init(now: Int64) { startedAt = now }

    /// The service left the bus at `now`: the wait before starting it again, or nil to give up.
    package mutating func departed(at now: Int64) -> Int64? {
        if now - startedAt >= Self.healthyAfter { departures = 0 }
        departures += 1
        guard departures <= Self.failedStartsAllowed else { return nil }
        return Self.firstDelay << (departures - 1)
    }

    /// The service is started again (or came back by itself) at `now`.
    package mutating func started(at now: Int64) { startedAt = now }
}
