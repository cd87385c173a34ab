import BrowserHistoryFixtures
import DBusTestSupport
import DesktopTestSupport
import EndToEndSupport
import Foundation
import SiteTestSupport
import Testing
import TestingTraits

/// `dbmultiverse import-history` storing what it finds (docs/browser-extension.md, "Without the extension"): the
/// built binary in a temporary home with browser profiles in the real layouts, the service started
/// by D-Bus activation on a private bus, the fixture site's small comic. The newest visit is stored
/// as `update --page` stores it; the browsers' files stay byte-identical.
@Suite(.timeLimit(.minutes(10)), .holds(.privateBuses), .offThePool, .enabled(if: FileManager.default.isExecutableFile(atPath: Binary.dbmultiverse)))
struct ImportHistoryStoringTests {
    /// 2026-11-18 11:06 UTC, and the fixture visits a little later.
    static let t0: Int64 = 1_795_000_000

    static func visit(_ setup: PageSession, _ page: Int, after offset: Int64) -> PageVisit {
        PageVisit("\(setup.site.origin)/en/page-\(page).html", atUnixSeconds: t0 + offset)
    }

    /// Runs `import-history` in `home` as a client of the setup's bus and site; checks the
    /// browsers' files are unchanged.
    static func importHistory(_ setup: PageSession, in home: ProfileHome, bus: String? = nil, command: String = "import-history",
                              sourceLocation: SourceLocation = #_sourceLocation) throws -> CommandResult {
        let before = try FolderSnapshot(of: home.home)
        let environment = home.environment([
            "DBUS_SESSION_BUS_ADDRESS": bus ?? setup.service.bus.address, "DBMULTIVERSE_DATA_DIR": setup.service.folder,
            "DBMULTIVERSE_SITE_URL": setup.site.origin,
        ])
        let result = try runCommand([Binary.dbmultiverse, command], environment: environment, timeout: 60)
        #expect(try FolderSnapshot(of: home.home).differences(from: before) == [], "the browsers' files changed", sourceLocation: sourceLocation)
        return result
    }

    @Test func theFirefoxThenTheChromiumLayoutMoveTheChapterAndProgress() async throws {
        let setup = try await PageSession()
        let home = try ProfileHome()
        defer { home.remove() }
        try await home.addFirefoxProfile("abcd.default-release", firefoxHome: "snap/firefox/common/.mozilla/firefox",
                                   visits: [Self.visit(setup, 129, after: 0), Self.visit(setup, 130, after: 3600)])
        let firefox = try Self.importHistory(setup, in: home)
        #expect(firefox.status == 0 && firefox.stderr.isEmpty, "\(firefox)")
        #expect(firefox.stdout == """
            firefox (snap) profile abcd.default-release: en page 130, read 2026-11-18 12:06 UTC
            stored en page 130: Chapter 5: The Tournament Goes On, 8% (another chapter, with its cover)

            """, "\(firefox)")
        var reload = try await setup.nextReload("the chapter-change")
        #expect(reload.reason == "chapter-change")
        try expectEntry(reload.entry, chapter: 5, name: "The Tournament Goes On", progress: 8,
                        imagePath: setup.service.folder + "/chapterCoverImage.jpg", latestPage: 152, newPages: 22)
        #expect(try setup.property("Chapter", "Progress") == "i 5\ni 8\n")

        // Later, in Chromium: the newest visit across both browsers wins, the same chapter.
        try await home.addChromiumProfile("Default", userData: ".config/chromium", visits: [Self.visit(setup, 140, after: 7200)])
        let chromium = try Self.importHistory(setup, in: home)
        #expect(chromium.status == 0 && chromium.stderr.isEmpty, "\(chromium)")
        #expect(chromium.stdout == """
            chromium profile Default: en page 140, read 2026-11-18 13:06 UTC
            stored en page 140: Chapter 5: The Tournament Goes On, 50% (same chapter)

            """, "\(chromium)")
        reload = try await setup.nextReload("the debounced progress-change")
        #expect(reload.reason == "progress-change")
        #expect(try setup.property("Chapter", "Progress") == "i 5\ni 50\n")
    }

    /// Nothing found, a page the catalogue does not hold, no bus: exit 1 with one line on stderr,
    /// and nothing the service stored changes.
    @Test func failuresExit1WithOneLineStoringNothing() async throws {
        let setup = try await PageSession()
        let home = try ProfileHome()
        defer { home.remove() }
        let none = try Self.importHistory(setup, in: home)
        #expect(none.status == 1 && none.stdout.isEmpty && none.stderr.split(separator: "\n").count == 1, "\(none)")
        #expect(try setup.storedFiles().isEmpty, "nothing stored")

        try await home.addChromiumProfile("Default", userData: ".config/chromium", visits: [Self.visit(setup, 140, after: 0)])
        #expect(try Self.importHistory(setup, in: home).status == 0)
        _ = try await setup.nextReload("the chapter-change")
        let stored = try setup.storedFiles()

        try await home.addFirefoxProfile("abcd.default-release", visits: [Self.visit(setup, 5000, after: 60)])
        let missing = try Self.importHistory(setup, in: home)
        #expect(missing.status == 1, "\(missing)")
        #expect(missing.stdout == "firefox profile abcd.default-release: en page 5000, read 2026-11-18 11:07 UTC\n", "\(missing)")
        #expect(missing.stderr == "dbmultiverse: en page 5000 was not stored: no chapter of the en catalogue holds page 5000 (its chapters hold pages 1–152)\n",
                "\(missing)")

        let noBus = try Self.importHistory(setup, in: home, bus: "unix:path=\(home.root)/no-bus")
        #expect(noBus.status == 1 && noBus.stderr.split(separator: "\n").count == 1, "\(noBus)")
        #expect(noBus.stderr.contains("org.freedesktop.DBus.Error."), "\(noBus)")
        #expect(try setup.storedFiles() == stored)
        #expect(try setup.property("Chapter", "Progress") == "i 5\ni 50\n")
    }

    /// `import-history = yes` in the config file: `sync` imports first (the reader's position
    /// before any newer latest page), and an import that fails does not fail the sync. Without the
    /// key, or with `no`, sync imports nothing.
    @Test func syncImportsFromHistoryWhenTheConfigFileSaysYes() async throws {
        let setup = try await PageSession()
        let home = try ProfileHome()
        defer { home.remove() }
        let config = home.home + "/.config/dbmultiverse/config"
        try FileManager.default.createDirectory(atPath: home.home + "/.config/dbmultiverse", withIntermediateDirectories: true)

        // Yes, but no browser profile: the import's one line, the sync still succeeds.
        try "import-history = yes\n".write(toFile: config, atomically: true, encoding: .utf8)
        let noProfile = try Self.importHistory(setup, in: home, command: "sync")
        #expect(noProfile.status == 0 && noProfile.stdout == "en: 8 chapters, pages 1–152, latest page 152 (new catalogue)\n", "\(noProfile)")
        #expect(noProfile.stderr.hasPrefix("dbmultiverse: import-history: no ") && noProfile.stderr.split(separator: "\n").count == 1, "\(noProfile)")

        try await home.addChromiumProfile("Default", userData: ".config/chromium", visits: [Self.visit(setup, 140, after: 0)])
        try "import-history = no\n".write(toFile: config, atomically: true, encoding: .utf8)
        let off = try Self.importHistory(setup, in: home, command: "sync")
        #expect(off.status == 0 && off.stderr.isEmpty, "\(off)")
        #expect(!off.stdout.contains("chromium"), "\(off)")
        #expect(try setup.storedFiles()["currentChapterData.json"] == nil, "nothing imported")

        try "# read in the browser\nimport-history = Yes\n".write(toFile: config, atomically: true, encoding: .utf8)
        let on = try Self.importHistory(setup, in: home, command: "sync")
        #expect(on.status == 0 && on.stderr.isEmpty, "\(on)")
        #expect(on.stdout.hasPrefix("""
            chromium profile Default: en page 140, read 2026-11-18 11:06 UTC
            stored en page 140: Chapter 5: The Tournament Goes On, 50% (another chapter, with its cover)

            """), "\(on)")
        let reload = try await setup.nextReload("the chapter-change")
        #expect(reload.reason == "chapter-change")
        #expect(try setup.property("Chapter", "Progress") == "i 5\ni 50\n")

        try "import-history = sometimes\n".write(toFile: config, atomically: true, encoding: .utf8)
        let unclear = try Self.importHistory(setup, in: home, command: "sync")
        #expect(unclear.status == 0 && !unclear.stdout.contains("chromium"), "\(unclear)")
        #expect(unclear.stderr == "dbmultiverse: warning: ignoring import-history = \"sometimes\" in the config file: use yes or no\n", "\(unclear)")
    }
}
