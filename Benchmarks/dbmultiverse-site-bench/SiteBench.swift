import ComicDomain
import Foundation
import Glibc
import Site
import SiteTestSupport

/// `make bench-site`: the site code's figures, each from one run.
/// - chapter list parse + extract per page, on a full-size list (≈100 chapters and specials),
///   beside Python's lxml (the same libxml2) and BeautifulSoup with html.parser (Komikku's);
/// - `dbmultiverse sync` answered by a 304: requests, wall time and peak RSS of the process.
///
/// usage: dbmultiverse-site-bench PATH-TO-dbmultiverse [--rounds N] [--json FILE]
///        dbmultiverse-site-bench --serve [small|full]
/// `--serve` runs the fixture site by hand (for trying the commands): it prints the
/// `DBMULTIVERSE_SITE_URL=…` to use, then reads commands on stdin — `publish N` (N new pages),
/// `status CODE [RETRY-AFTER]` (the feed answers that), `reset` — until end of input.
@main
enum SiteBench {
    static func main() throws {
        var arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == "--serve" {
            try serve(arguments.dropFirst().first == "full" ? .fullSize : .small)
            return
        }
        guard let binary = arguments.first else {
            print("usage: dbmultiverse-site-bench PATH-TO-dbmultiverse [--rounds N] [--json FILE]")
            exit(2)
        }
        arguments.removeFirst()
        var rounds = 200
        var jsonPath: String?
        while let option = arguments.first {
            arguments.removeFirst()
            switch option {
            case "--rounds": rounds = Int(arguments.removeFirst()) ?? rounds
            case "--json": jsonPath = arguments.removeFirst()
            default: print("unknown option \(option)"); exit(2)
            }
        }
        let parse = try parseFigures(rounds: rounds)
        let sync = try syncFigures(binary: binary, rounds: 15)

        func ms(_ seconds: Double) -> String { String(format: "%.2f ms", seconds * 1000) }
        print("")
        print("| figure | value | target |")
        print("| --- | --- | --- |")
        print("| chapter list: size, chapters | \(parse.bytes / 1024) KiB, \(parse.chapters) chapters | |")
        print("| parse + extract per page (median of \(rounds)): ours | \(ms(parse.ours)) | |")
        print("| same, Python lxml | \(ms(parse.lxml)) (ours = \(String(format: "%.2f", parse.ours / parse.lxml))×) | ≤ 1.2× \(parse.ours <= 1.2 * parse.lxml ? "✓" : "✗") |")
        print("| same, BeautifulSoup html.parser | \(ms(parse.bs4)) (\(String(format: "%.1f", parse.bs4 / parse.ours))× slower than ours) | ≥ 10× \(parse.bs4 >= 10 * parse.ours ? "✓" : "✗") |")
        print("| `sync` against a 304: requests per run | \(sync.requests) | 1 \(sync.requests == 1 ? "✓" : "✗") |")
        print("| `sync` against a 304: wall time p50 / max (\(sync.wall.count) runs) | \(ms(percentile(sync.wall, 0.5))) / \(ms(sync.wall.max() ?? 0)) | ≤ 50 ms \(percentile(sync.wall, 0.5) <= 0.05 ? "✓" : "✗") |")
        print("| `sync` against a 304: peak RSS p50 / max | \(String(format: "%.2f / %.2f MiB", percentile(sync.rss, 0.5), sync.rss.max() ?? 0)) | ≤ 15 MiB \(percentile(sync.rss, 0.5) <= 15 ? "✓" : "✗") |")

        if let jsonPath {
            let figures: [String: Any] = [
                "listBytes": parse.bytes, "chapters": parse.chapters,
                "parseSecondsOurs": parse.ours, "parseSecondsLxml": parse.lxml, "parseSecondsBeautifulSoup": parse.bs4,
                "syncRequests": sync.requests, "syncWallSeconds": sync.wall, "syncPeakRSSMiB": sync.rss,
            ]
            try FileManager.default.createDirectory(atPath: (jsonPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try JSONSerialization.data(withJSONObject: figures, options: [.prettyPrinted, .sortedKeys]).write(to: URL(fileURLWithPath: jsonPath))
        }
    }

    static func serve(_ comic: FixtureComic) throws {
        let site = try FixtureSite()
        defer { site.stop() }
        var published = comic
        site.publish(published)
        print("DBMULTIVERSE_SITE_URL=\(site.origin)")
        fflush(nil)
        while let line = readLine() {
            let words = line.split(separator: " ").map(String.init)
            switch words.first {
            case "publish":
                published = published.publishing(Int(words.dropFirst().first ?? "") ?? 1)
                site.publish(published)
                print("published: latest page \(published.latestPage)")
            case "status":
                site.serve("/flux.rss.php?lang=en", .status(Int(words.dropFirst().first ?? "") ?? 503, retryAfter: words.count > 2 ? words[2] : nil))
                print("the feed answers \(words.dropFirst().joined(separator: " "))")
            case "reset":
                site.publish(published)
                print("serving the comic again")
            default:
                print("commands: publish N, status CODE [RETRY-AFTER], reset")
            }
            print("requests so far: \(site.requests.map { "\($0.target)" + ($0.headers["if-none-match"].map { " [If-None-Match: \($0)]" } ?? "") }.joined(separator: ", "))")
            fflush(nil)
        }
    }

    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        return sorted[min(sorted.count - 1, Int(Double(sorted.count - 1) * fraction))]
    }

    // MARK: Parsing

    static func parseFigures(rounds: Int) throws -> (bytes: Int, chapters: Int, ours: Double, lxml: Double, bs4: Double) {
        let html = Array(FixtureComic.fullSize.chapterListHTML().utf8)
        let url = "https://www.dragonball-multiverse.com/en/chapters.html?comic=page&chaptersmode=1"
        var chapters = try ChapterListExtractor.chapters(in: html, pageURL: url) // warm-up: loads libxml2
        var times: [Double] = []
        for _ in 0..<rounds {
            let start = DispatchTime.now().uptimeNanoseconds
            chapters = try ChapterListExtractor.chapters(in: html, pageURL: url)
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9)
        }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("dbm-bench-chapters-\(getpid()).html")
        try Data(html).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) } // best effort: a temporary file
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("scripts/dev/site-parsers-bench.py").path
        let python = try run(["python3", script, file.path, String(rounds)])
        var python_: [String: (Double, Int)] = [:]
        for line in python.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count == 3, let seconds = Double(fields[1]), let count = Int(fields[2]) { python_[String(fields[0])] = (seconds, count) }
        }
        guard let lxml = python_["lxml"], let bs4 = python_["bs4"] else { throw BenchError("the Python parsers printed: \(python)") }
        guard lxml.1 == chapters.count, bs4.1 == chapters.count else {
            throw BenchError("chapters found differ: ours \(chapters.count), lxml \(lxml.1), BeautifulSoup \(bs4.1)")
        }
        print("chapter list: \(html.count) bytes, \(chapters.count) chapters (the same in lxml and BeautifulSoup)")
        return (html.count, chapters.count, percentile(times, 0.5), lxml.0, bs4.0)
    }

    // MARK: sync against a 304

    static func syncFigures(binary: String, rounds: Int) throws -> (requests: Int, wall: [Double], rss: [Double]) {
        let site = try FixtureSite()
        defer { site.stop() }
        site.publish(.fullSize)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dbm-bench-sync-\(getpid())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) } // best effort: a temporary folder
        let environment = ["DBMULTIVERSE_DATA_DIR": folder, "DBMULTIVERSE_SITE_URL": site.origin, "HOME": folder, "PATH": "/usr/bin:/bin"]
        let first = try spawn(binary, ["sync"], environment: environment)
        guard first.status == 0 else { throw BenchError("the first sync failed: \(first.output)") }
        let feed = "/flux.rss.php?lang=en", list = "/en/chapters.html?comic=page&chaptersmode=1"
        var wall: [Double] = [], rss: [Double] = [], requests: [Int] = []
        for _ in 0..<rounds {
            try ageRequestLog(folder + "/siteRequests.json") // as if the last sync was 16 minutes ago
            let before = site.requests.count, feedBefore = site.count(feed), listBefore = site.count(list)
            let run = try spawn(binary, ["sync"], environment: environment)
            guard run.status == 0, run.output.contains("(unchanged)"), site.count(feed) == feedBefore + 1, site.count(list) == listBefore else {
                throw BenchError("a 304 sync did not go as expected: \(run.output)")
            }
            wall.append(run.seconds)
            rss.append(Double(run.maxRSSKiB) / 1024)
            requests.append(site.requests.count - before)
        }
        print("sync against a 304: \(rounds) runs, output: \(try spawn(binary, ["chapters"], environment: environment).output.split(separator: "\n").first ?? "")")
        return (requests.max() ?? 0, wall, rss)
    }

    /// Moves every request in the log 16 minutes into the past.
    static func ageRequestLog(_ path: String) throws {
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        guard var object = try JSONSerialization.jsonObject(with: data) as? [String: Any], var urls = object["urls"] as? [String: [String: Any]] else {
            throw BenchError("unexpected request log: \(String(decoding: data, as: UTF8.self))")
        }
        for (url, var entry) in urls {
            entry["lastRequest"] = ((entry["lastRequest"] as? Int) ?? 0) - 16 * 60
            urls[url] = entry
        }
        object["urls"] = urls
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: path))
    }

    /// Runs `binary` under GNU time, output to a file, for its exit status, wall time and peak
    /// RSS. Not wait4's rusage: a child started by posix_spawn (vfork) inherits this process's
    /// high-water RSS, which would be reported as its own; GNU time's child inherits only time's.
    static func spawn(_ binary: String, _ arguments: [String], environment: [String: String]) throws -> (status: Int32, output: String, seconds: Double, maxRSSKiB: Int) {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("dbm-bench-\(getpid())").path
        let outputPath = base + ".out", rssPath = base + ".rss"
        defer { unlink(outputPath); unlink(rssPath) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = (["/usr/bin/time", "-f", "%M", "-o", rssPath, binary] + arguments).map { strdup($0) } + [nil]
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        var pid = pid_t()
        let start = DispatchTime.now().uptimeNanoseconds
        guard posix_spawn(&pid, "/usr/bin/time", &actions, nil, argv, envp) == 0 else { throw BenchError("cannot start /usr/bin/time (install the time package)") }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        // Both made by the spawn (its open, time's -o): a missing one is a broken run, said.
        let output = try String(contentsOfFile: outputPath, encoding: .utf8)
        let rss = Int(try String(contentsOfFile: rssPath, encoding: .utf8).split(separator: "\n").last ?? "") ?? 0
        return ((status & 0x7F) == 0 ? (status >> 8) & 0xFF : 128 + (status & 0x7F), output, seconds, rss)
    }

    static func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw BenchError("\(arguments.joined(separator: " ")) exited \(process.terminationStatus)") }
        return String(decoding: data, as: UTF8.self)
    }
}

struct BenchError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
