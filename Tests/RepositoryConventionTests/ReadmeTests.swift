import ComicDomain
import DBusTestSupport
import DesktopTestSupport
import EndToEndSupport
import Foundation
import Testing
import TestingTraits

/// The README is a user's front page (issue 25), and what it shows must be true: every command in
/// its code blocks is run by a test — `dbmultiverse` commands here, with what the README says they
/// print; the others where this suite names them —, every command `--help` lists is in the
/// command reference (docs/usage.md, which the man page follows), and every link resolves.
@Suite(.timeLimit(.minutes(10)), .holds(.privateBuses), .offThePool,
       .enabled(if: FileManager.default.isExecutableFile(atPath: Binary.dbmultiverse)))
struct ReadmeTests {
    static let readme = (try? String(contentsOf: repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)) ?? ""

    /// A fenced code block: its language and lines.
    struct Block {
        let language: String
        let lines: [String]
    }

    static func blocks(of text: String) -> [Block] {
        var blocks: [Block] = [], current: (language: String, lines: [String])?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("```") {
                if let open = current {
                    blocks.append(Block(language: open.language, lines: open.lines))
                    current = nil
                } else {
                    current = (String(line.dropFirst(3)), [])
                }
            } else {
                current?.lines.append(line)
            }
        }
        return blocks
    }

    /// The commands a block shows: a `sh` block's lines without their comments, a `console`
    /// block's `$ ` lines.
    static func commands(in block: Block) -> [String] {
        switch block.language {
        case "sh":
            block.lines.map { line in
                let command = line.range(of: " #").map { String(line[..<$0.lowerBound]) } ?? line
                return command.trimmingCharacters(in: .whitespaces)
            }.filter { !$0.isEmpty && !$0.hasPrefix("#") }
        case "console":
            block.lines.filter { $0.hasPrefix("$ ") }.map { String($0.dropFirst(2)) }
        default:
            []
        }
    }

    /// What a `console` block shows `command` printing (the lines up to the next command).
    static func output(of command: String) -> [String]? {
        for block in blocks(of: readme) where block.language == "console" {
            guard let start = block.lines.firstIndex(of: "$ " + command) else { continue }
            return Array(block.lines[(start + 1)...].prefix { !$0.hasPrefix("$ ") })
        }
        return nil
    }

    /// The README's commands that other tests and scripts run, each with the file that runs it and
    /// what in that file runs it.
    static let runElsewhere: [String: (file: String, runs: String)] = [
        "make deb": ("Makefile", "deb-test: deb"), // make deb-test (scripts/packaging/deb-test.sh) builds the package first
        "sudo apt install ./dist/dbmultiverse_*_amd64.deb": ("scripts/packaging/deb-test.sh", "apt-get install"),
        // The repository's steps, in Debian 12, 13 and sid (AptRepositoryTests): the two files fetched
        // over HTTP from the repository (with Python's urllib: the chroots have no curl), apt update
        // and install; the downloaded .deb files installed with apt, then upgraded from the repository.
        "curl -fsSL https://nobadi.github.io/dbmultiverse-desktop/dbmultiverse-archive-keyring.pgp | sudo tee /usr/share/keyrings/dbmultiverse-archive-keyring.pgp >/dev/null":
            ("scripts/real-hosts/apt-repository-check.sh", "fetch \"$url/good/dbmultiverse-archive-keyring.pgp\" >/usr/share/keyrings/dbmultiverse-archive-keyring.pgp"),
        "curl -fsSL https://nobadi.github.io/dbmultiverse-desktop/dbmultiverse.sources | sudo tee /etc/apt/sources.list.d/dbmultiverse.sources >/dev/null":
            ("scripts/real-hosts/apt-repository-check.sh", ">/etc/apt/sources.list.d/dbmultiverse.sources"),
        "sudo apt update && sudo apt install dbmultiverse": ("scripts/real-hosts/apt-repository-check.sh", "apt_get install dbmultiverse >"),
        "sudo apt install ./dbmultiverse_*_amd64.deb ./dbmultiverse-apt-source_*_all.deb ./dbmultiverse-archive-keyring_*_all.deb":
            ("scripts/real-hosts/apt-repository-check.sh",
             "apt_get install \"/srv/debs/dbmultiverse_${v1}_amd64.deb\" \"/srv/debs/dbmultiverse-apt-source_${v1}_all.deb\" \"/srv/debs/dbmultiverse-archive-keyring_${v1}_all.deb\""),
        "make run": ("Tests/CommandEndToEndTests/RunServiceScriptTests.swift", "scripts/dev/run-service.sh"),
        "make test": (".ci/run", "make test"),
    ]
    /// The `dbmultiverse` commands this suite runs.
    static let runHere: Set = ["dbmultiverse doctor"]

    @Test func everyCommandTheReadmeShowsIsRunByATest() throws {
        let shown = Self.blocks(of: Self.readme).flatMap(Self.commands)
        #expect(shown.count >= 5, "\(shown)")
        for command in shown {
            if command.hasPrefix("dbmultiverse ") {
                #expect(Self.runHere.contains(command), "the README shows \(command), which no test runs")
            } else if let (file, runs) = Self.runElsewhere[command] {
                let text = try String(contentsOf: repositoryRoot.appendingPathComponent(file), encoding: .utf8)
                #expect(text.contains(runs), "\(file) does not run \(command) (\(runs))")
            } else {
                Issue.record("the README shows `\(command)`, which no test runs (say which does in ReadmeTests.runElsewhere)")
            }
        }
    }

    /// Every subcommand `dbmultiverse --help` lists has its row in docs/usage.md's command table,
    /// and every row names a subcommand: the man page is made from the help, so the two agree.
    @Test func theCommandReferenceNamesEveryCommandTheHelpLists() throws {
        let help = try runCommand([Binary.dbmultiverse, "--help"], environment: testEnvironment())
        // A subcommand's line is indented by two spaces; its description's next lines by more.
        let listed = Set(help.stdout.split(separator: "\n", omittingEmptySubsequences: false)
            .drop { !$0.hasPrefix("SUBCOMMANDS:") }.dropFirst()
            .prefix { !$0.isEmpty }
            .filter { $0.hasPrefix("  ") && !$0.hasPrefix("   ") }
            .compactMap { $0.split(separator: " ").first.map(String.init) })
        #expect(listed.count >= 14, "\(help.stdout)")
        let usage = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/usage.md"), encoding: .utf8)
        let rows = Set(usage.split(separator: "\n").filter { $0.hasPrefix("| `") }
            .compactMap { $0.dropFirst(3).split(separator: " ").first.map { String($0.prefix { $0 != "`" }) } })
        #expect(listed.subtracting(rows).isEmpty, "commands --help lists without a row in docs/usage.md: \(listed.subtracting(rows).sorted())")
        #expect(rows.subtracting(listed).isEmpty, "rows in docs/usage.md for no command: \(rows.subtracting(listed).sorted())")
    }

    /// Every relative link of the README and the docs/ pages names a file that exists, and an
    /// anchor one of its headings (pictures are DocumentationImageTests').
    @Test func everyLinkResolves() throws {
        var broken: [String] = []
        for page in try DocumentationPages.all() + [repositoryRoot.appendingPathComponent("SECURITY.md")] {
            let text = try String(contentsOf: page, encoding: .utf8)
            for link in Self.links(in: Self.withoutCodeBlocks(text)) where !link.hasPrefix("http") && !link.hasPrefix("mailto:") && !link.hasSuffix(".png") {
                let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let target = parts[0].isEmpty ? page : page.deletingLastPathComponent().appendingPathComponent(parts[0]).standardizedFileURL
                guard FileManager.default.fileExists(atPath: target.path) else {
                    broken.append("\(page.lastPathComponent): \(link) (no \(target.path))")
                    continue
                }
                if parts.count == 2, target.pathExtension == "md" {
                    let headings = try Self.anchors(of: String(contentsOf: target, encoding: .utf8))
                    if !headings.contains(parts[1]) { broken.append("\(page.lastPathComponent): \(link) (no such heading in \(target.lastPathComponent))") }
                }
            }
        }
        #expect(broken.isEmpty, "\(broken.joined(separator: "\n"))")
    }

    static func withoutCodeBlocks(_ text: String) -> String {
        var inBlock = false
        return text.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
            if line.hasPrefix("```") { inBlock.toggle(); return false }
            return !inBlock
        }.joined(separator: "\n")
    }

    /// The targets of `[text](target)` and `![alt](target)`.
    static func links(in text: String) -> [String] {
        text.components(separatedBy: "](").dropFirst().compactMap { rest in
            rest.firstIndex(of: ")").map { String(rest[..<$0]) }
        }
    }

    /// GitHub's anchors for the headings of a Markdown page: lowercased, spaces as hyphens, other
    /// punctuation dropped.
    static func anchors(of text: String) -> Set<String> {
        Set(withoutCodeBlocks(text).split(separator: "\n").filter { $0.hasPrefix("#") }.map { heading in
            let title = heading.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces).lowercased()
            return String(title.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) || $0 == " " || $0 == "-" || $0 == "_" }
                .map { $0 == " " ? "-" : Character($0) })
        })
    }

    /// `dbmultiverse doctor` in a GNOME session just after installing, before the card is turned
    /// on: the README's example. Times, the pid and the binary's path are the run's own; the rest
    /// must read as the README says.
    @Test func doctorPrintsWhatTheReadmeShows() async throws {
        let shown = try #require(Self.output(of: "dbmultiverse doctor"), "the README shows no doctor run")
        let home = try DoctorHome(dataFolder: nil)
        defer { home.remove() }
        let service = try ActivatedService(folder: home.dataHome + "/dbmultiverse")
        defer { service.stop() }
        let bus = service.bus
        let now = Int64(Date().timeIntervalSince1970)
        // The reader: chapter 42 of 42 (23 pages each), on page 963 of 944–966: three pages after it.
        let folder = DataFolder(path: service.folder)
        try folder.writeChapterData(try ChapterData(validatingNumber: 42, name: "Vegeta & <Goku>", progress: 35, page: 963, language: "en"))
        let chapters = try (1...42).map { number in
            try Catalogue.Chapter(number: number, name: number == 42 ? "Vegeta & <Goku>" : "Chapter \(number)",
                                  startPage: (number - 1) * 23 + 1, endPage: number * 23, universe: nil, thumbnailURL: "")
        }
        try folder.writeCatalogue(try Catalogue(language: .english, chapters: chapters, latestPage: 966, fetch: .init(
            url: "https://www.dragonball-multiverse.com/en/chapters.html", etag: nil, lastModified: nil, fetchedAt: now - 5400)))
        try folder.writeBrowserContacts(BrowserContacts(contacts: [
            .firefox: .init(at: now - 1500, browser: "firefox-esr"), .chromium: .init(at: now - 9000, browser: "chromium"),
        ]))
        // GNOME's notification server (a peer that is not ours), no tray watcher: GNOME has none.
        let notifications = FakeNotificationServer(address: bus.address, information: ("gnome-shell", "GNOME", "43.9", "1.2"))
        try notifications.start()
        defer { notifications.stop() }
        // The desktop's tools and the browsers, as PATH finds them; the package's units enabled for
        // everyone, the extension installed in the system's folder but not turned on.
        for browser in ["firefox-esr", "chromium", "gnome-shell"] { try home.standIn(browser, "exit 0") }
        try home.standIn("systemctl", """
            printf 'Id=dbmultiverse-notifier.service\\nLoadState=loaded\\nUnitFileState=enabled\\nActiveState=active\\n\\n'
            printf 'Id=dbmultiverse-sync.timer\\nLoadState=loaded\\nUnitFileState=enabled\\nActiveState=active\\n'
            printf 'LastTriggerUSec=@\(now - 9000)\\nNextElapseUSecRealtime=@\(now + 19800)\\n'
            """)
        try home.standIn("gsettings", "case \"$3\" in enabled-extensions) echo \"@as []\";; *) echo false;; esac")
        try home.write("{\"uuid\": \"dbmultiverse@nobadi.com\"}\n", to: "system/share/gnome-shell/extensions/dbmultiverse@nobadi.com/metadata.json")
        // Installed from the project's apt repository: its .sources file where apt (the real
        // apt-config, told by APT_CONFIG) reads the sources.
        try FileManager.default.copyItem(atPath: repositoryRoot.appendingPathComponent("debian/archive-keyring/dbmultiverse.sources").path,
                                         toPath: home.aptSources + "/dbmultiverse.sources")
        try FileManager.default.createSymbolicLink(atPath: home.tools + "/apt-config", withDestinationPath: "/usr/bin/apt-config")
        let install = try runCommand([repositoryRoot.path + "/scripts/build/browser-hosts.sh", "install", Binary.dbmultiverse],
                                     environment: home.environment(bus: bus))
        try #require(install.status == 0, "\(install)")
        var environment = home.environment(bus: bus)
        // The stand-ins first, then only the folder of `sh` (which runs them and the notifier):
        // no browser or desktop of this machine's shows through.
        environment["PATH"] = home.tools + ":" + (try Self.shellOnlyFolder(in: home))
        environment["XDG_CURRENT_DESKTOP"] = "GNOME"
        environment["DBMULTIVERSE_DATA_DIR"] = nil // the data folder a user has: ~/.local/share/dbmultiverse
        let notifier = try StreamingCommand(["sh", "-c", "exec \"$0\" notifier 2>&1", Binary.dbmultiverse], environment: environment)
        defer { notifier.stop() }
        try notifier.waitForLine(timeout: 15, "the notifier's start") { $0.contains("following com.nobadi.DBMultiverse") }
        // The notifier's tray item has the service started by then, as a login does.
        let started = try runCommand(["gdbus", "wait", "--address", bus.address, "--timeout", "10", "com.nobadi.DBMultiverse"],
                                     environment: testEnvironment(), timeout: 15)
        try #require(started.status == 0, "\(started)")

        let run = try runCommand([Binary.dbmultiverse, "doctor"], environment: environment, timeout: 60)
        #expect(run.status == 0, "\(run)")
        // The test's stand-ins for the system's folders read as the system's.
        let printed = run.stdout.split(separator: "\n").map {
            $0.replacingOccurrences(of: Binary.service, with: "/usr/libexec/dbmultiverse/dbmultiverse-service")
                .replacingOccurrences(of: Binary.dbmultiverse, with: "/usr/bin/dbmultiverse").replacingOccurrences(of: "~/system/share/", with: "/usr/share/")
                .replacingOccurrences(of: home.aptSources + "/", with: "/etc/apt/sources.list.d/")
        }
        #expect(Self.normalized(printed) == Self.normalized(shown), "doctor printed:\n\(printed.joined(separator: "\n"))")
    }

    /// A folder holding only `sh`, a link to the system's.
    static func shellOnlyFolder(in home: DoctorHome) throws -> String {
        let folder = home.home + "/shell-only"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: folder + "/sh", withDestinationPath: "/bin/sh")
        return folder
    }

    /// What differs from run to run: times ("25 min ago", "in 5 h", dates in parentheses) and pids.
    static func normalized<Lines: Sequence<String>>(_ lines: Lines) -> [String] {
        lines.map { line in
            var text = line
            for pattern in [#"\d+ (s|min|h|days) ago"#, #"in \d+ (s|min|h|days)"#, #"pid \d+"#, #"\(\d{4}-\d\d-\d\d \d\d:\d\d[^)]*\)"#] {
                text = text.replacingOccurrences(of: pattern, with: "…", options: .regularExpression)
            }
            return text
        }
    }
}
