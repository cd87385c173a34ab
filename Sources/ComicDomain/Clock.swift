import Glibc

/// A point on the monotonic clock, in nanoseconds since an arbitrary origin.
///
/// The sync rules take instants as arguments instead of reading a clock, so tests drive them
/// with made-up instants; the desktop layer passes `MonotonicInstant.now()`.
public struct MonotonicInstant: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// Nanoseconds since the clock's origin.
    public var nanoseconds: Int64

    /// The instant `nanoseconds` after the origin.
    public init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    /// The current `CLOCK_MONOTONIC` time (the clock `timerfd` and `poll` timeouts use).
    public static func now() -> MonotonicInstant {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return MonotonicInstant(nanoseconds: Int64(ts.tv_sec) &* 1_000_000_000 &+ Int64(ts.tv_nsec))
    }

    public static func < (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }

    /// `instant` moved by `duration` (saturating at the ends of the range).
    public static func + (instant: MonotonicInstant, duration: Duration) -> MonotonicInstant {
        let (sum, overflow) = instant.nanoseconds.addingReportingOverflow(duration.totalNanoseconds)
        if overflow { return MonotonicInstant(nanoseconds: duration < .zero ? .min : .max) }
        return MonotonicInstant(nanoseconds: sum)
    }

    /// The time from `rhs` to `lhs` (negative when `lhs` is earlier).
    public static func - (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Duration {
        let (difference, overflow) = lhs.nanoseconds.subtractingReportingOverflow(rhs.nanoseconds)
        if overflow { return .nanoseconds(lhs < rhs ? Int64.min : Int64.max) }
        return .nanoseconds(difference)
    }

    /// A `poll` timeout until `deadline`: milliseconds rounded up (so the loop never wakes just
    /// before it), 0 when already due, capped at `Int32.max`.
    public func millisecondsUntil(_ deadline: MonotonicInstant) -> Int32 {
        let (remaining, overflow) = deadline.nanoseconds.subtractingReportingOverflow(nanoseconds)
        if overflow { return deadline > self ? .max : 0 }
        guard remaining > 0 else { return 0 }
        let milliseconds = remaining / 1_000_000 + (remaining % 1_000_000 == 0 ? 0 : 1)
        return Int32(clamping: milliseconds)
    }

    public var description: String { "\(nanoseconds) ns" }
}

extension Duration {
    /// The whole duration in nanoseconds, saturating at the ends of `Int64`.
    var totalNanoseconds: Int64 {
        let (seconds, attoseconds) = components
        let (scaled, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        if overflow { return seconds < 0 ? .min : .max }
        let (sum, overflow2) = scaled.addingReportingOverflow(attoseconds / 1_000_000_000)
        if overflow2 { return seconds < 0 ? .min : .max }
        return sum
    }
}

/// Where the desktop layer reads time; tests substitute a fixed or stepping source.
public protocol TimeSource: Sendable {
    /// The monotonic clock, for the sync rules' deadlines.
    func monotonicNow() -> MonotonicInstant
    /// The wall clock in Unix seconds, for entry dates and `LastReload`.
    func unixSeconds() -> Int64
}

/// The system clocks: `CLOCK_MONOTONIC` and `CLOCK_REALTIME`.
public struct SystemTimeSource: TimeSource {
    /// The system clocks.
    public init() {}

    public func monotonicNow() -> MonotonicInstant { .now() }

    public func unixSeconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec)
    }
}
