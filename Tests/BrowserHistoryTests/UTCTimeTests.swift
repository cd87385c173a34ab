@testable import ComicDomain
import Testing

/// When a page was read, as the command prints it.
@Suite(.timeLimit(.minutes(1))) struct UTCTimeTests {
    @Test(arguments: [
        (0, "1970-01-01 00:00 UTC"),
        (-1, "1969-12-31 23:59 UTC"),
        (59, "1970-01-01 00:00 UTC"),
        (1_709_208_000, "2024-02-29 12:00 UTC"), // a leap day
        (1_795_000_000, "2026-11-18 11:06 UTC"),
        (951_782_400, "2000-02-29 00:00 UTC"), // 2000 is a leap year, 1900 and 2100 are not
        (4_107_542_400, "2100-03-01 00:00 UTC"),
        (-2_208_988_800, "1900-01-01 00:00 UTC"),
        (-62_135_596_800, "0001-01-01 00:00 UTC"),
        (253_402_300_799, "9999-12-31 23:59 UTC"),
        (253_402_300_800, "10000-01-01 00:00 UTC"),
    ] as [(Int64, String)])
    func writesTheMomentInUTC(_ seconds: Int64, _ text: String) {
        #expect(UTCTime(unixSeconds: seconds).description == text)
    }

    @Test func anyValueIsWrittenWithoutTrapping() {
        // A history can hold any integer; the extremes must print, whatever they say.
        let latest = UTCTime(unixSeconds: .max), earliest = UTCTime(unixSeconds: .min)
        #expect((latest.hour, latest.minute) == (15, 30)) // Int64.max % 86 400 = 55 807 s
        #expect((earliest.hour, earliest.minute) == (8, 29))
        #expect(latest.year > 292_000_000_000 && earliest.year < -292_000_000_000)
    }
}
