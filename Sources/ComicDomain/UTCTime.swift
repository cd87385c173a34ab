/// A moment written as `2026-11-20 21:14 UTC` (ISO 8601's date and time, to the minute).
package struct UTCTime: Sendable, Equatable, CustomStringConvertible {
    let year: Int64, month: Int, day: Int, hour: Int, minute: Int

    /// The moment `unixSeconds` after 1970-01-01 00:00 UTC (negative before), in the proleptic
    /// Gregorian calendar.
    package init(unixSeconds: Int64) {
        let days = unixSeconds.floorDividing(by: 86_400)
        let secondOfDay = Int((unixSeconds % 86_400 + 86_400) % 86_400)
        (year, month, day) = Self.civilDate(daysSinceEpoch: days)
        hour = secondOfDay / 3600
        minute = secondOfDay % 3600 / 60
    }

    package var description: String {
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let yearText = year >= 0 && year < 1000 ? String(repeating: "0", count: 4 - String(year).count) + String(year) : String(year)
        return "\(yearText)-\(two(month))-\(two(day)) \(two(hour)):\(two(minute)) UTC"
    }

    /// Howard Hinnant's `civil_from_days`: the date `days` after 1970-01-01.
    private static func civilDate(daysSinceEpoch days: Int64) -> (Int64, Int, Int) {
        let shifted = days + 719_468 // days since 0000-03-01
        let era = shifted.floorDividing(by: 146_097)
        let dayOfEra = shifted - era * 146_097 // 0…146096
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153 // March = 0
        let day = Int(dayOfYear - (153 * monthIndex + 2) / 5 + 1)
        let month = Int(monthIndex < 10 ? monthIndex + 3 : monthIndex - 9)
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }
}

extension Int64 {
    /// Division rounding towards negative infinity.
    package func floorDividing(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}
