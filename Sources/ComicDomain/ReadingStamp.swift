/// What orders two readings made on different computers (docs/sync.md, "The rule"): a hybrid
/// logical clock's stamp — a time in Unix milliseconds that is at least the writer's clock and
/// at least every stamp the writer had seen, a count that orders readings within that
/// millisecond, and the writer's machine id, which breaks a tie the same way everywhere.
///
/// Compared as (time, count, machine): a reading made after seeing another always compares
/// greater, whatever the two computers' clocks say; readings made without seeing each other are
/// ordered by their clocks; two that tie are ordered by machine id, so every computer picks the
/// same one.
package struct ReadingStamp: Comparable, Hashable, Sendable, CustomStringConvertible {
    /// Unix milliseconds: `max(the writer's clock, every stamp it had seen)`.
    package var time: Int64
    /// 0 when `time` is the writer's clock; else one more than the count of the greatest stamp seen
    /// at `time`.
    package var count: Int64
    /// The writer's machine id (`ComputerIdentity`).
    package var machine: String

    /// The largest time and count a record may carry: 2⁵³ − 1, the largest integer every JSON
    /// reader keeps exactly (a time that far ahead is year 287 396).
    static let maxValue: Int64 = (1 << 53) - 1

    package init(time: Int64, count: Int64, machine: String) {
        self.time = time
        self.count = count
        self.machine = machine
    }

    package static func < (lhs: ReadingStamp, rhs: ReadingStamp) -> Bool {
        if lhs.time != rhs.time { return lhs.time < rhs.time }
        if lhs.count != rhs.count { return lhs.count < rhs.count }
        // Bytes, not characters: the same answer on every computer, whatever its Unicode tables.
        return lhs.machine.utf8.lexicographicallyPrecedes(rhs.machine.utf8)
    }

    package var description: String { "\(time).\(count)@\(machine)" }
}

/// The hybrid logical clock of one computer: the greatest (time, count) it has stamped or seen.
/// A new reading's stamp is greater than everything the clock holds, so a reading made after
/// another was seen always wins over it, even when this computer's clock is behind.
package struct ReadingClock: Sendable, Equatable {
    /// Unix milliseconds.
    package private(set) var time: Int64
    package private(set) var count: Int64

    package init(time: Int64 = 0, count: Int64 = 0) {
        self.time = time
        self.count = count
    }

    /// Takes `stamp` into account: the clock moves up to it when it is greater.
    package mutating func observe(_ stamp: ReadingStamp) {
        if (stamp.time, stamp.count) > (time, count) {
            time = stamp.time
            count = stamp.count
        }
    }

    /// A stamp for a reading made now (`now`: this computer's clock, Unix milliseconds): at
    /// `now` with count 0 when the clock is behind it, else at the clock's time with the count one
    /// up (a clock ahead of ours, or several readings in one millisecond).
    package mutating func stamp(now: Int64, machine: String) -> ReadingStamp {
        let now = min(now, ReadingStamp.maxValue)
        if now > time {
            time = now
            count = 0
        } else {
            count = min(count + 1, ReadingStamp.maxValue)
        }
        return ReadingStamp(time: time, count: count, machine: machine)
    }
}
