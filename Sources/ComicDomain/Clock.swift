/// A point on the monotonic clock, in nanoseconds since an arbitrary origin.
///
/// The sync rules take instants as arguments instead of reading a clock, so tests drive them
/// with made-up instants; the desktop layer passes the loop's `CLOCK_MONOTONIC` time.
package struct MonotonicInstant: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// Nanoseconds since the clock's origin.
    package var nanoseconds: Int64

    /// The instant `nanoseconds` after the origin.
    package init(nanoseconds: Int64) {
        self.nanoseconds = nanoseconds
    }

    package static func < (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Bool {
        lhs.nanoseconds < rhs.nanoseconds
    }

    /// `instant` moved by `duration` (saturating at the ends of the range).
    package static func + (instant: MonotonicInstant, duration: Duration) -> MonotonicInstant {
        let (sum, overflow) = instant.nanoseconds.addingReportingOverflow(duration.totalNanoseconds)
        if overflow { return MonotonicInstant(nanoseconds: duration < .zero ? .min : .max) }
        return MonotonicInstant(nanoseconds: sum)
    }

    /// The time from `rhs` to `lhs` (negative when `lhs` is earlier).
    package static func - (lhs: MonotonicInstant, rhs: MonotonicInstant) -> Duration {
        let (difference, overflow) = lhs.nanoseconds.subtractingReportingOverflow(rhs.nanoseconds)
        if overflow { return .nanoseconds(lhs < rhs ? Int64.min : Int64.max) }
        return .nanoseconds(difference)
    }

    package var description: String { "\(nanoseconds) ns" }
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
