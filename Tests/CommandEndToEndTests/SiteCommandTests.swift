import DBusTestSupport
import DesktopTestSupport
import Foundation
import SiteTestSupport
import Testing
import TestingTraits

/// `dbmultiverse sync` and `chapters` as built, against the fixture site (docs/usage.md, docs/usage.md#the-comics-site, docs/notifications.md).
@Suite(.timeLimit(.minutes(10)), .offThePool, .enabled(if: FileManager.default.isExecutableFile(atPath: Binary.dbmultiverse)))
struct SiteCommandTests {
    /// A data folder with a stored chapter, and the fixture site serving the small comic.
    final class Setup {
        let site: FixtureSite
        let folder: String
        var environment: [String: String]

        init() throws {
            site = try FixtureSite()
            site.publish(.small)
            folder = try makeTemporaryDirectory("dbm-site-cli")
            environment = ["DBMULTIVERSE_DATA_DIR": folder, "DBMULTIVERSE_SITE_URL": site.origin, "HOME": folder, "PATH": "/usr/bin:/bin"]
            try Data(#"{"number":2,"name":"Vegeta","progress":35,"coverImagePath":""}"#.utf8)
                .write(to: URL(fileURLWithPath: folder + "/currentChapterData.json"))
        }

        deinit {
            site.stop()
            try? FileManager.default.removeItem(atPath: folder)
        }

        func run(_ arguments: String...) throws -> CommandResult {
            try runCommand([Binary.dbmultiverse] + arguments, environment: environment, timeout: 60)
        }

        /// The folder's files and their bytes (the request log aside: it records the attempt).
        func storedFiles() throws -> [String: Data] {
            var files: [String: Data] = [:]
            for name in try FileManager.default.contentsOfDirectory(atPath: folder) where name != "siteRequests.json" {
                files[name] = FileManager.default.contents(atPath: folder + "/" + name)
            }
            return files
        }
    }

    @Test func syncThenChaptersAgainstTheFixtureSite() throws {
        let setup = try Setup()
        let none = try setup.run("chapters")
        #expect(none.status == 1 && none.stderr == "dbmultiverse: no catalogue yet: run dbmultiverse sync\n", "\(none)")

        let first = try setup.run("sync")
        #expect(first.status == 0, "\(first)")
        #expect(first.stdout == "en: 8 chapters, pages 1–152, latest page 152 (new catalogue)\n")
        let again = try setup.run("sync")
        #expect(again.stdout.hasPrefix("en: 8 chapters, pages 1–152, latest page 152 (checked 0 min ago"), "\(again)")
        #expect(setup.site.count("/flux.rss.php?lang=en") == 1, "the 15-minute rule, across runs")

        let text = try setup.run("chapters")
        #expect(text.status == 0, "\(text)")
        let lines = text.stdout.split(separator: "\n")
        #expect(lines.first == "en: 8 chapters, pages 1–152, latest page 152")
        #expect(lines.contains("Chapter 2: Vegeta & <Goku> — pages 25–48"))
        #expect(lines.contains("Special Universe 3 · Chapter 1: The Special Begins — pages 97–106"))
        #expect(lines.contains("Special Universe 20 · Chapter 1: Broly's Return — pages 117–128"))

        let json = try setup.run("chapters", "--format", "json")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(object["latestPage"] as? Int == 152)
        #expect((object["chapters"] as? [Any])?.count == 8)
    }

    @Test func theConfigFileSetsTheLanguage() throws {
        let setup = try Setup()
        setup.site.publish(.small, language: "fr")
        try FileManager.default.createDirectory(atPath: setup.folder + "/.config/dbmultiverse", withIntermediateDirectories: true)
        try Data("# settings\nlanguage = fr\n".utf8).write(to: URL(fileURLWithPath: setup.folder + "/.config/dbmultiverse/config"))
        let sync = try setup.run("sync")
        #expect(sync.stdout.hasPrefix("fr: 8 chapters"), "\(sync)")
        #expect(setup.site.count("/flux.rss.php?lang=fr") == 1)
        try Data("language = klingon\n".utf8).write(to: URL(fileURLWithPath: setup.folder + "/.config/dbmultiverse/config"))
        let bad = try setup.run("chapters")
        #expect(bad.status == 2 && bad.stderr.contains("klingon") && bad.stderr.contains("pt_BR"), "\(bad)")
    }

    /// Issue 39, defect 6: `LC_ALL=C LANGUAGE=fr` showed an English interface (gettext ignores
    /// LANGUAGE under the C locale) and read the French comic (`sync` asked `lang=fr`). The comic's
    /// language follows the interface's rule: English there, and French under `LC_ALL=C.UTF-8
    /// LANGUAGE=fr`, which gettext does not take for C.
    @Test func theDesktopsLanguageFollowsTheInterfacesRule() throws {
        let setup = try Setup()
        setup.site.publish(.small, language: "fr")
        setup.environment.merge(["LC_ALL": "C", "LANGUAGE": "fr"]) { $1 }
        let english = try setup.run("sync")
        #expect(english.stdout.hasPrefix("en: 8 chapters"), "\(english)")
        #expect(setup.site.count("/flux.rss.php?lang=fr") == 0)
        setup.environment["LC_ALL"] = "C.UTF-8"
        let french = try setup.run("sync")
        #expect(french.stdout.hasPrefix("fr: 8 chapters"), "\(french)")
    }

    @Test func badUsageExitsTwoNamingWhatIsValid() throws {
        let setup = try Setup()
        let language = try setup.run("sync", "--language", "xx")
        #expect(language.status == 2 && language.stderr.contains("unknown site language \"xx\"") && language.stderr.contains("en fr it"), "\(language)")
        let format = try setup.run("chapters", "--format", "yaml")
        #expect(format.status == 2 && format.stderr.contains("text") && format.stderr.contains("json"), "\(format)")
        setup.environment["DBMULTIVERSE_SITE_URL"] = "ftp://example.com/path"
        let origin = try setup.run("sync")
        #expect(origin.status == 2 && origin.stderr.contains("http or https"), "\(origin)")
        #expect(setup.site.requests.isEmpty)
    }

    /// The site faults (docs/usage.md#the-comics-site), each through the real binary: one line on stderr, exit 1, the
    /// stored catalogue and entry byte for byte as they were.
    enum Fault: String, CaseIterable, CustomTestStringConvertible, Sendable {
        case siteDown, trickle, tooManyRequests, unavailable, serverError, garbageFeed, garbageList, hugeBody, gzipBomb
        case redirectToFile, redirectLoop, tooManyRedirects, zeroChapters, fewerChapters, notRSS

        var testDescription: String { rawValue }

        /// What the one line must say.
        var reason: String {
            switch self {
            case .siteDown: "cannot reach the site"
            case .trickle: "no complete answer within 1 s"
            case .tooManyRequests: "HTTP 429; the site asks to wait until"
            case .unavailable: "HTTP 503; the site asks to wait until"
            case .serverError: "HTTP 500"
            case .garbageFeed: "not an RSS feed"
            case .garbageList: "no chapters found"
            case .hugeBody, .gzipBomb: "larger than 4 MiB"
            case .redirectToFile: "redirected to a URL that is not http or https; refused"
            case .redirectLoop, .tooManyRedirects: "more than 5 redirects"
            case .zeroChapters: "no chapters found in the chapter list (the site's markup may have changed)"
            case .fewerChapters: "fewer than the 8 stored"
            case .notRSS: "not an RSS feed"
            }
        }
    }

    @Test(arguments: Fault.allCases)
    func aFaultIsOneLineExitOneAndNothingChanges(_ fault: Fault) throws {
        let setup = try Setup()
        #expect(try setup.run("sync").status == 0)
        let before = try setup.storedFiles()
        #expect(before.keys.contains("chapters-en.json") && before.keys.contains("currentChapterData.json"))

        let feed = "/flux.rss.php?lang=en", list = "/en/chapters.html?comic=page&chaptersmode=1"
        let site = setup.site
        switch fault {
        case .siteDown: setup.environment["DBMULTIVERSE_SITE_URL"] = "http://127.0.0.1:\(try FixtureSite.closedPort())"
        case .trickle:
            site.serve(feed, .trickle(interval: 1))
            setup.environment["DBMULTIVERSE_SITE_TIMEOUT_MS"] = "1000"
        case .tooManyRequests: site.serve(feed, .status(429, retryAfter: "120"))
        case .unavailable: site.serve(feed, .status(503, retryAfter: "Wed, 21 Oct 2099 07:28:00 GMT"))
        case .serverError: site.serve(feed, .status(500))
        case .garbageFeed: site.serve(feed, .content(body: (0..<4096).map { _ in UInt8.random(in: 0...255) }, contentType: "application/rss+xml"))
        case .garbageList: site.serve(list, .content(body: (0..<4096).map { _ in UInt8.random(in: 1...255) }, contentType: "text/html"))
        case .hugeBody: site.serve(feed, .huge(count: 50 * 1024 * 1024, gzip: false))
        case .gzipBomb: site.serve(feed, .huge(count: 50 * 1024 * 1024, gzip: true))
        case .redirectToFile: site.serve(feed, .redirect("file:///etc/passwd"))
        case .redirectLoop: site.serve(feed, .redirect(feed))
        case .tooManyRedirects:
            for hop in 0..<7 { site.serve("/hop\(hop)", .redirect("/hop\(hop + 1)")) }
            site.serve(feed, .redirect("/hop0"))
        case .zeroChapters: site.serve(list, .content(body: Array("<html><body><h1>A new design</h1></body></html>".utf8), contentType: "text/html"))
        case .fewerChapters:
            var shorter = FixtureComic.small
            shorter.chapters.removeLast(3)
            site.publish(shorter.publishing(1))
        case .notRSS: site.serve(feed, .content(body: Array("<html><body>Maintenance</body></html>".utf8), contentType: "text/html"))
        }
        let result = try setup.run("sync", "--force")
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        let lines = result.stderr.split(separator: "\n")
        #expect(lines.count == 1, "one line: \(result.stderr)")
        #expect(result.stderr.hasPrefix("dbmultiverse: ") && result.stderr.contains(fault.reason), "\(result.stderr)")
        #expect(try setup.storedFiles() == before, "the catalogue and the entry are untouched")
        print("SiteCommandTests: \(fault): exit \(result.status): \(result.stderr)", terminator: "")
        if fault == .redirectLoop || fault == .tooManyRedirects {
            #expect(site.count(feed) + site.requests.filter { $0.target.hasPrefix("/hop") }.count <= 7, "at most 5 redirects followed")
        }
        if fault == .tooManyRequests || fault == .unavailable {
            // Remembered across runs: even --force does not ask before the deadline.
            let count = site.count(feed)
            let held = try setup.run("sync", "--force")
            #expect(held.status == 1 && held.stderr.contains("(Retry-After); not asking before then"), "\(held)")
            #expect(site.count(feed) == count)
        }
    }

    /// The sync timer's calendar: release evenings (Wednesday, Friday, Sunday, UTC) and a daily
    /// catch-up, as `systemd-analyze calendar` reads them. (`systemd-analyze verify` of the
    /// installed units: InstallTests.)
    @Test func theSyncTimerFiresOnReleaseEveningsAndDaily() throws {
        let timer = try String(contentsOf: repositoryRoot.appendingPathComponent("desktop/dbmultiverse-sync.timer"), encoding: .utf8)
        let calendars = timer.split(separator: "\n").filter { $0.hasPrefix("OnCalendar=") }.map { String($0.dropFirst("OnCalendar=".count)) }
        #expect(calendars == ["Wed,Fri,Sun *-*-* 19:30:00 UTC", "*-*-* 12:00:00 UTC"])
        #expect(timer.contains("\nPersistent=true\n") && timer.contains("\nRandomizedDelaySec="))
        let release = try runCommand(["systemd-analyze", "calendar", "--iterations=6", calendars[0]])
        #expect(release.status == 0, "\(release)")
        let elapses = release.stdout.split(separator: "\n").filter { $0.contains("Next elapse:") || $0.contains("Iter. #") }
        #expect(elapses.count == 6, "\(release.stdout)")
        for line in elapses {
            let day = line.split(separator: ":", maxSplits: 1)[1].split(separator: " ").first
            #expect(["Wed", "Fri", "Sun"].contains(day ?? ""), "\(line)")
            #expect(line.hasSuffix("19:30:00 UTC"), "\(line)")
        }
        let daily = try runCommand(["systemd-analyze", "calendar", calendars[1]])
        #expect(daily.status == 0 && daily.stdout.contains("12:00:00 UTC"), "\(daily)")
    }

    @Test func aFirstSyncThatFailsCreatesNothing() throws {
        let setup = try Setup()
        setup.environment["DBMULTIVERSE_SITE_URL"] = "http://127.0.0.1:\(try FixtureSite.closedPort())"
        let result = try setup.run("sync")
        #expect(result.status == 1 && result.stderr.contains("cannot reach the site"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: setup.folder + "/chapters-en.json"))
    }
}
