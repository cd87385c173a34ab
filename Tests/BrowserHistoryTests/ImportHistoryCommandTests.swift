import BrowserHistoryFixtures
import DBusTestSupport
import Foundation
import Testing

/// `dbmultiverse import-history --dry-run`, run as the built binary in a temporary home: every
/// profile layout, the browser and profile options, the exit statuses and the one-line errors of
/// the lookup. Storing what it finds (a bus and the site) is `ImportHistoryStoringTests`'s.
@Suite(.timeLimit(.minutes(10))) struct ImportHistoryCommandTests {
    static let binary = builtProduct("dbmultiverse")

    /// Runs the command (`--dry-run`: the lookup only) in `home` and checks that it wrote nothing there and left no copy.
    func importHistory(_ arguments: String..., in home: ProfileHome, environment extra: [String: String] = [:],
                       sourceLocation: SourceLocation = #_sourceLocation) async throws -> CommandResult {
        let check = try UntouchedCheck(home)
        let environment = home.environment(extra)
        let result = try await offThePool { try runCommand([Self.binary, "import-history", "--dry-run"] + arguments, environment: environment) }
        try check.verify(sourceLocation: sourceLocation)
        return result
    }

    /// Where one browser keeps one profile.
    struct Layout: Sendable, CustomTestStringConvertible {
        let label: String
        let add: @Sendable (ProfileHome, PageVisit) throws -> Void

        static func firefox(_ label: String, _ folder: String, home: String = ".mozilla/firefox", at location: String? = nil) -> Layout {
            Layout(label: label) { try $0.addFirefoxProfile(folder, firefoxHome: home, at: location, visits: [$1]) }
        }

        static func chromium(_ label: String, _ profile: String, _ userData: String) -> Layout {
            Layout(label: label) { try $0.addChromiumProfile(profile, userData: userData, visits: [$1]) }
        }

        /// A Chromium-family browser's profile in its folder under ~/.config and in its flatpak's
        /// (`~/.var/app/APP/config/FOLDER`), the two places every one of them is looked for.
        static func nativeAndFlatpak(_ browser: String, _ profile: String, config folder: String, flatpak app: String) -> [Layout] {
            [chromium("\(browser) profile \(profile)", profile, ".config/" + folder),
             chromium("\(browser) (flatpak) profile \(profile)", profile, ".var/app/\(app)/config/\(folder)")]
        }

        var testDescription: String { label }
    }

    static let layouts: [Layout] = [
        .firefox("firefox profile abcd.default-release", "abcd.default-release"),
        .firefox("firefox profile elsewhere", "elsewhere", at: "Documents/elsewhere"),
        .firefox("firefox profile xdg.default-release", "xdg.default-release", home: ".config/mozilla/firefox"),
        .firefox("firefox (snap) profile snap.default", "snap.default", home: "snap/firefox/common/.mozilla/firefox"),
        .firefox("firefox (flatpak) profile flat.default", "flat.default", home: ".var/app/org.mozilla.firefox/.mozilla/firefox"),
        .chromium("chromium profile Profile 2", "Profile 2", ".config/chromium"),
        .chromium("chromium (snap) profile Default", "Default", "snap/chromium/common/chromium"),
        .chromium("chrome (flatpak) profile Profile 1", "Profile 1", ".var/app/com.google.Chrome/config/google-chrome"),
    ] + Layout.nativeAndFlatpak("chromium", "Default", config: "chromium", flatpak: "org.chromium.Chromium")
      + Layout.nativeAndFlatpak("chrome", "Default", config: "google-chrome", flatpak: "com.google.Chrome")
      + Layout.nativeAndFlatpak("brave", "Default", config: "BraveSoftware/Brave-Browser", flatpak: "com.brave.Browser")
      + Layout.nativeAndFlatpak("vivaldi", "Default", config: "vivaldi", flatpak: "com.vivaldi.Vivaldi")
      + Layout.nativeAndFlatpak("edge", "Default", config: "microsoft-edge", flatpak: "com.microsoft.Edge")

    @Test(arguments: layouts)
    func findsThePageInEachLayout(_ layout: Layout) async throws {
        let home = try ProfileHome()
        defer { home.remove() }
        try await offThePool { try layout.add(home, comicPage(980, "fr", after: 3600)) }
        let result = try await importHistory(in: home)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "\(layout.label): fr page 980, read 2026-11-18 12:06 UTC\n")
        #expect(result.stderr == "")
    }

    @Test func theBrowserOptionChoosesWhoseHistoryIsRead() async throws {
        let home = try ProfileHome()
        defer { home.remove() }
        try await home.addFirefoxProfile("abcd.default-release", visits: [comicPage(10, after: 0)])
        try await home.addChromiumProfile("Default", userData: ".config/BraveSoftware/Brave-Browser", visits: [comicPage(20, after: 60)])
        #expect(try await importHistory(in: home).stdout == "brave profile Default: en page 20, read 2026-11-18 11:07 UTC\n")
        #expect(try await importHistory("--browser", "all", in: home).stdout == "brave profile Default: en page 20, read 2026-11-18 11:07 UTC\n")
        #expect(try await importHistory("--browser", "firefox", in: home).stdout == "firefox profile abcd.default-release: en page 10, read 2026-11-18 11:06 UTC\n")

        let chrome = try await importHistory("--browser", "chrome", in: home)
        #expect(chrome.status == 1)
        #expect(chrome.stdout == "")
        #expect(chrome.stderr == "dbmultiverse: no chrome profile with a history found under \"\(home.home)\" and \"\(home.home)/.config\"; give a profile folder with --profile\n")

        let unknown = try await importHistory("--browser", "opera", in: home)
        #expect(unknown.status == 2)
        #expect(unknown.stderr == "dbmultiverse: unknown browser \"opera\": the browsers are firefox, chromium, chrome, brave, vivaldi, edge and all\n")
    }

    @Test func aProfileFolderGivenByTheUser() async throws {
        let home = try ProfileHome()
        defer { home.remove() }
        let folder = home.home + "/portable/firefox-profile"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try await HistoryDatabases.write(.firefox, at: folder + "/places.sqlite", visits: [comicPage(5, after: 0)])
        try await home.addChromiumProfile("Default", userData: ".config/chromium", visits: [comicPage(6, after: 60)])

        let given = try await importHistory("--profile", folder, in: home)
        #expect(given.status == 0, "\(given)")
        #expect(given.stdout == "firefox profile \(folder): en page 5, read 2026-11-18 11:06 UTC\n")
        let both = try await importHistory("--profile", folder, "--profile", home.home + "/.config/chromium/Default", in: home)
        #expect(both.stdout == "chromium-family profile \(home.home)/.config/chromium/Default: en page 6, read 2026-11-18 11:07 UTC\n")

        let missing = try await importHistory("--profile", home.home + "/nowhere", in: home)
        #expect(missing.status == 2)
        #expect(missing.stderr == "dbmultiverse: profile folder \"\(home.home)/nowhere\": it does not exist\n")
        let withBrowser = try await importHistory("--profile", folder, "--browser", "firefox", in: home)
        #expect(withBrowser.status == 2)
        #expect(withBrowser.stderr == "dbmultiverse: give --browser or --profile, not both\n")
    }

    @Test func nothingToFindExitsOneWithOneLine() async throws {
        let home = try ProfileHome()
        defer { home.remove() }
        let none = try await importHistory(in: home)
        #expect(none.status == 1)
        #expect(none.stdout == "")
        #expect(none.stderr == "dbmultiverse: no firefox, chromium, chrome, brave, vivaldi or edge profile with a history found under \"\(home.home)\" and \"\(home.home)/.config\"; give a profile folder with --profile\n")

        try await home.addFirefoxProfile("abcd.default-release", visits: [otherPage("a")])
        let noPage = try await importHistory(in: home)
        #expect(noPage.status == 1)
        #expect(noPage.stderr == "dbmultiverse: no page of the comic in the history of firefox profile abcd.default-release\n")

        try await home.addChromiumProfile("Default", userData: ".config/chromium", visits: [])
        let noPageTwice = try await importHistory(in: home)
        #expect(noPageTwice.status == 1)
        #expect(noPageTwice.stderr == "dbmultiverse: no page of the comic in the history of 2 profiles: firefox profile abcd.default-release, chromium profile Default\n")
    }

    @Test func aBrokenDatabaseIsOneLineAloneAndSkippedBesideOthers() async throws {
        let home = try ProfileHome()
        defer { home.remove() }
        let path = try await BadDatabase.text.install(in: home)
        let alone = try await importHistory(in: home)
        #expect(alone.status == 1)
        #expect(alone.stdout == "")
        #expect(alone.stderr == "dbmultiverse: firefox profile bad.default: \"\(path)\" is not an SQLite database\n")

        try await home.addChromiumProfile("Default", userData: ".config/vivaldi", visits: [comicPage(77)])
        let beside = try await importHistory(in: home)
        #expect(beside.status == 0, "\(beside)")
        #expect(beside.stdout == "vivaldi profile Default: en page 77, read 2026-11-18 11:06 UTC\n")
        #expect(beside.stderr == "dbmultiverse: skipped firefox profile bad.default: \"\(path)\" is not an SQLite database\n")

        try FileManager.default.removeItem(atPath: home.home + "/.config/vivaldi/Default/History")
        try FileManager.default.createDirectory(atPath: home.home + "/.config/vivaldi/Default/History", withIntermediateDirectories: false)
        let bothBroken = try await importHistory(in: home)
        #expect(bothBroken.status == 1)
        #expect(bothBroken.stderr.split(separator: "\n") == [
            "dbmultiverse: skipped firefox profile bad.default: \"\(path)\" is not an SQLite database",
            "dbmultiverse: skipped vivaldi profile Default: cannot read \"\(home.home)/.config/vivaldi/Default/History\": it is not a regular file",
            "dbmultiverse: none of the 2 profiles' histories could be read",
        ])
    }

    @Test func aRunningFirefoxIsReadWithoutDisturbingIt() async throws {
        let home = try ProfileHome()
        defer { home.remove() }
        let database = try await home.addFirefoxProfile("abcd.default-release", firefoxHome: "snap/firefox/common/.mozilla/firefox", visits: [comicPage(979)])
        let firefox = try await SQLiteHolder.start(database: database, setup: """
            PRAGMA locking_mode = EXCLUSIVE;
            \(HistoryDatabases.insertion(of: comicPage(980, after: 3600), .firefox))
            """)
        defer { firefox.stop() }
        #expect(try await isLocked(database))
        let result = try await importHistory(in: home)
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == "firefox (snap) profile abcd.default-release: en page 980, read 2026-11-18 12:06 UTC\n")
    }

    @Test func aBadSiteOverrideIsBadUsage() async throws {
        let home = try ProfileHome()
        defer { home.remove() }
        let result = try await importHistory(in: home, environment: ["DBMULTIVERSE_SITE_URL": "ftp://mirror.example"])
        #expect(result.status == 2)
        #expect(result.stderr.hasPrefix("dbmultiverse: invalid site URL \"ftp://mirror.example\""), "\(result)")
    }
}
