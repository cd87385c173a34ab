import BrowserHistory
import BrowserHistoryFixtures
import ComicDomain
import Glibc

// `make bench-history`: how long `import-history` takes to find the reading position in a
// realistic 100 000-visit history (Firefox, Chromium, both), end to end as the command does it:
// find the profiles, copy each database privately, open the copy, query. Also times the copy
// alone, to give its share. Usage: dbmultiverse-history-bench [--runs N] [--visits N]

var runs = 100
var visitCount = 100_000
var arguments = CommandLine.arguments.dropFirst()
while let flag = arguments.popFirst() {
    guard let value = arguments.popFirst().flatMap({ Int($0) }), value > 0 else {
        print("usage: dbmultiverse-history-bench [--runs N] [--visits N]")
        exit(2)
    }
    switch flag {
    case "--runs": runs = value
    case "--visits": visitCount = value
    default:
        print("unknown option \(flag)")
        exit(2)
    }
}

/// Seconds taken by `body`.
func seconds(_ body: () throws -> Void) rethrows -> Double {
    var start = timespec(), end = timespec()
    clock_gettime(CLOCK_MONOTONIC, &start)
    try body()
    clock_gettime(CLOCK_MONOTONIC, &end)
    return Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) / 1e9
}

/// The `fraction` quantile of `samples` (nearest rank).
func quantile(_ samples: [Double], _ fraction: Double) -> Double {
    let sorted = samples.sorted()
    return sorted[min(sorted.count - 1, max(0, Int((fraction * Double(sorted.count)).rounded(.up)) - 1))]
}

func milliseconds(_ value: Double) -> String {
    let tenths = Int((value * 10_000).rounded())
    return "\(tenths / 10).\(tenths % 10)"
}

func fail(_ message: String) -> Never {
    print("dbmultiverse-history-bench: \(message)")
    exit(1)
}

let home: ProfileHome
let firefoxNewest: PageVisit, chromiumNewest: PageVisit
let firefoxDatabase: String, chromiumDatabase: String
do {
    home = try ProfileHome()
    firefoxDatabase = home.home + "/.mozilla/firefox/bench.default-release/places.sqlite"
    chromiumDatabase = home.home + "/.config/chromium/Default/History"
    try home.addFirefoxProfile("bench.default-release", visits: [])
    try home.addChromiumProfile("Default", userData: ".config/chromium", visits: [])
    // The generated histories replace the empty ones; Chromium's is an hour older, so that with
    // both browsers Firefox's page wins.
    for path in [firefoxDatabase, chromiumDatabase] { unlink(path) }
    let now: Int64 = 1_795_000_000 * 1_000_000
    firefoxNewest = try LargeHistory.write(.firefox, at: firefoxDatabase, visitCount: visitCount, newest: now)
    chromiumNewest = try LargeHistory.write(.chromium, at: chromiumDatabase, visitCount: visitCount, newest: now - 3_600_000_000)
} catch {
    fail("cannot build the histories: \(error)")
}
defer { home.remove() }

let environment = home.environment()
let temporaryRoot = HistoryLookup.temporaryRoot(environment: environment)
func fileSize(_ path: String) -> Int {
    var status = stat()
    return stat(path, &status) == 0 ? Int(status.st_size) : 0
}
print("history-bench: \(visitCount) visits per browser; places.sqlite \(fileSize(firefoxDatabase) >> 10) KiB, History \(fileSize(chromiumDatabase) >> 10) KiB; \(runs) runs each (after 3 warm-up runs)")
print("scenario    p50 ms   p99 ms   copy p50 ms   copy share")

for (label, browsers, databases, expected) in [
    ("firefox", [Browser.firefox], [firefoxDatabase], firefoxNewest),
    ("chromium", [Browser.chromium], [chromiumDatabase], chromiumNewest),
    ("all", Browser.allCases, [firefoxDatabase, chromiumDatabase], firefoxNewest),
] {
    var lookups: [Double] = [], copies: [Double] = []
    for run in 0..<(runs + 3) {
        var found: HistoryVisit?
        let lookup = seconds {
            let profiles = ProfileFinder(environment: environment).profiles(of: browsers).profiles
            found = HistoryLookup.newestPageVisit(in: profiles, temporaryRoot: temporaryRoot).newest
        }
        guard let found, found.url == expected.url, found.time == expected.time else {
            fail("\(label): found \(found.map(String.init(describing:)) ?? "nothing"), expected \(expected.url) at \(expected.time)")
        }
        let copy: Double
        do {
            copy = try seconds {
                for database in databases { _ = try DatabaseCopy(of: database, in: temporaryRoot) }
            }
        } catch {
            fail("\(label): cannot copy: \(error)")
        }
        if run >= 3 {
            lookups.append(lookup)
            copies.append(copy)
        }
    }
    let share = Int((quantile(copies, 0.5) / quantile(lookups, 0.5) * 100).rounded())
    let columns = [label + String(repeating: " ", count: 10 - label.count),
                   milliseconds(quantile(lookups, 0.5)).leftPadded(7), milliseconds(quantile(lookups, 0.99)).leftPadded(8),
                   milliseconds(quantile(copies, 0.5)).leftPadded(13), "\(share)%".leftPadded(12)]
    print(columns.joined(separator: " "))
}

extension String {
    func leftPadded(_ width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
