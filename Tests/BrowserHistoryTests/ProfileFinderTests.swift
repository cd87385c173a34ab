import ComicDomain
import BrowserHistory
import BrowserHistoryFixtures
import Foundation
import Testing

/// Where the browsers keep their profiles: every layout `import-history` reads.
@Suite(.timeLimit(.minutes(10))) struct ProfileFinderTests {
    @Test func firefoxProfilesInEveryHome() async throws {
        let home = try ProfileHome()
        defer { home.remove() }
        try await home.addFirefoxProfile("abcd.default-release", visits: [])
        try await home.addFirefoxProfile("elsewhere", at: "Profiles/elsewhere", visits: []) // absolute Path=
        try await home.addFirefoxProfile("xdg1.default-release", firefoxHome: ".config/mozilla/firefox", visits: [])
        try await home.addFirefoxProfile("snap1.default", firefoxHome: "snap/firefox/common/.mozilla/firefox", visits: [])
        try await home.addFirefoxProfile("flat1.default", firefoxHome: ".var/app/org.mozilla.firefox/.mozilla/firefox", visits: [])
        // Listed but never used: no places.sqlite, so no history to read.
        try home.writeFile(".mozilla/firefox/profiles.ini", Array((try String(contentsOfFile: home.home + "/.mozilla/firefox/profiles.ini", encoding: .utf8)
            + "\n[Profile9]\nName=unused\nIsRelative=1\nPath=unused.profile\n").utf8))
        try FileManager.default.createDirectory(atPath: home.home + "/.mozilla/firefox/unused.profile", withIntermediateDirectories: true)

        let search = ProfileFinder(environment: home.environment()).profiles(of: [.firefox])
        #expect(search.problems.isEmpty)
        #expect(search.profiles.map(\.description) == [
            "firefox profile abcd.default-release", "firefox profile elsewhere", "firefox profile xdg1.default-release",
            "firefox (snap) profile snap1.default", "firefox (flatpak) profile flat1.default",
        ])
        #expect(search.profiles[1].databasePath == home.home + "/Profiles/elsewhere/places.sqlite")
        #expect(search.profiles.allSatisfy { $0.format == .firefox })
    }

    @Test func chromiumFamilyProfilesInEveryHome() async throws {
        let home = try ProfileHome()
        defer { home.remove() }
        for (userData, profile) in [
            (".config/chromium", "Profile 2"), (".config/chromium", "Default"), (".config/chromium", "Profile 10"),
            ("snap/chromium/common/chromium", "Default"),
            (".var/app/org.chromium.Chromium/config/chromium", "Default"),
            (".config/google-chrome", "Default"), (".var/app/com.google.Chrome/config/google-chrome", "Profile 1"),
            (".config/BraveSoftware/Brave-Browser", "Default"),
            (".var/app/com.brave.Browser/config/BraveSoftware/Brave-Browser", "Default"),
            (".config/vivaldi", "Default"), (".var/app/com.vivaldi.Vivaldi/config/vivaldi", "Default"),
            (".config/microsoft-edge", "Default"), (".var/app/com.microsoft.Edge/config/microsoft-edge", "Default"),
            // Not the user's browsing: never read.
            (".config/chromium", "System Profile"), (".config/chromium", "Guest Profile"), (".config/chromium", "Profile x"),
        ] {
            try await home.addChromiumProfile(profile, userData: userData, visits: [])
        }
        // A profile folder without History (never used) is no profile to read.
        try FileManager.default.createDirectory(atPath: home.home + "/.config/chromium/Profile 3", withIntermediateDirectories: true)

        let search = ProfileFinder(environment: home.environment()).profiles(of: Browser.allCases)
        #expect(search.problems.isEmpty)
        #expect(search.profiles.map(\.description) == [
            "chromium profile Default", "chromium profile Profile 2", "chromium profile Profile 10",
            "chromium (snap) profile Default", "chromium (flatpak) profile Default",
            "chrome profile Default", "chrome (flatpak) profile Profile 1",
            "brave profile Default", "brave (flatpak) profile Default",
            "vivaldi profile Default", "vivaldi (flatpak) profile Default",
            "edge profile Default", "edge (flatpak) profile Default",
        ])
        #expect(search.profiles.allSatisfy { $0.format == .chromium })

        let brave = ProfileFinder(environment: home.environment()).profiles(of: [.brave]).profiles
        #expect(brave.map(\.description) == ["brave profile Default", "brave (flatpak) profile Default"])
    }

    @Test func homeAndConfigHomeComeFromTheEnvironment() async throws {
        let home = try ProfileHome()
        defer { home.remove() }
        try await home.addChromiumProfile("Default", userData: "elsewhere/config/chromium", visits: [])
        try await home.addChromiumProfile("Default", userData: ".config/chromium", visits: [])
        let custom = ProfileFinder(environment: home.environment(["XDG_CONFIG_HOME": home.home + "/elsewhere/config"]))
        #expect(custom.configHome == home.home + "/elsewhere/config")
        #expect(custom.profiles(of: [.chromium]).profiles.map(\.folder) == [home.home + "/elsewhere/config/chromium/Default"])
        // A relative XDG_CONFIG_HOME is ignored, as the XDG spec says.
        let relative = ProfileFinder(environment: home.environment(["XDG_CONFIG_HOME": "elsewhere/config"]))
        #expect(relative.profiles(of: [.chromium]).profiles.map(\.folder) == [home.home + "/.config/chromium/Default"])
    }

    @Test func aProfileListedTwiceIsReadOnce() async throws {
        let home = try ProfileHome()
        defer { home.remove() }
        try await home.addFirefoxProfile("shared", at: "Profiles/shared", visits: [])
        // The same folder listed again by the XDG home (absolute) and reached through a symlink.
        try FileManager.default.createSymbolicLink(atPath: home.home + "/Profiles/link", withDestinationPath: home.home + "/Profiles/shared")
        try home.writeFile(".config/mozilla/firefox/profiles.ini", Array("""
            [Profile0]
            Name=shared
            IsRelative=0
            Path=\(home.home)/Profiles/shared

            [Profile1]
            Name=link
            IsRelative=0
            Path=\(home.home)/Profiles/link
            """.utf8))
        let profiles = ProfileFinder(environment: home.environment()).profiles(of: [.firefox]).profiles
        #expect(profiles.map(\.description) == ["firefox profile shared"])
    }

    @Test func profilesIniAsFirefoxWritesItAndOddlyWritten() async throws {
        let home = try ProfileHome()
        defer { home.remove() }
        for folder in ["a.default", "b.default", "c.default"] {
            try FileManager.default.createDirectory(atPath: home.home + "/.mozilla/firefox/" + folder, withIntermediateDirectories: true)
            try await HistoryDatabases.write(.firefox, at: home.home + "/.mozilla/firefox/\(folder)/places.sqlite", visits: [])
        }
        // CRLF line ends, comments, blanks around '=', no IsRelative (a relative path), a
        // section without Path, and [Install…] sections, which name profiles already listed.
        let text = "; written by hand\r\n[General]\r\nStartWithLastProfile=1\r\n\r\n[Profile1]\r\nName=b\r\nPath = b.default\r\n"
            + "[Profile0]\r\nName=a\r\nIsRelative=1\r\nPath=a.default\r\nDefault=1\r\n# a comment\r\n[Profile2]\r\nName=nothing\r\n"
            + "[Install4F96D1932A9F858E]\r\nDefault=c.default\r\nLocked=1\r\n"
        try home.writeFile(".mozilla/firefox/profiles.ini", Array(text.utf8))
        let profiles = ProfileFinder(environment: home.environment()).profiles(of: [.firefox]).profiles
        #expect(profiles.map(\.name) == ["b.default", "a.default"])
    }

    @Test func anUnreadableProfileListIsReportedAndTheOthersCount() async throws {
        let home = try ProfileHome()
        defer { home.remove() }
        try FileManager.default.createDirectory(atPath: home.home + "/.mozilla/firefox/profiles.ini", withIntermediateDirectories: true)
        try await home.addChromiumProfile("Default", userData: ".config/chromium", visits: [])
        let search = ProfileFinder(environment: home.environment()).profiles(of: Browser.allCases)
        #expect(search.profiles.map(\.description) == ["chromium profile Default"])
        #expect(search.problems.map(\.kind) == [.unreadable])
        #expect(search.problems.first?.message == "cannot read \"\(home.home)/.mozilla/firefox/profiles.ini\": it is not a regular file")
    }

    @Test func aFolderGivenByTheUserIsToldByItsHistoryFile() async throws {
        let home = try ProfileHome()
        defer { home.remove() }
        let firefox = home.home + "/custom/ff"
        let chromium = home.home + "/custom/cr"
        for folder in [firefox, chromium, home.home + "/custom/empty"] {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        }
        try await HistoryDatabases.write(.firefox, at: firefox + "/places.sqlite", visits: [])
        try await HistoryDatabases.write(.chromium, at: chromium + "/History", visits: [])

        let found = try ProfileFinder.profiles(inFolder: firefox) + ProfileFinder.profiles(inFolder: chromium)
        #expect(found.map(\.description) == ["firefox profile \(firefox)", "chromium-family profile \(chromium)"])
        #expect(found.map(\.databasePath) == [firefox + "/places.sqlite", chromium + "/History"])

        for (folder, why) in [
            (home.home + "/custom/missing", "it does not exist"),
            (firefox + "/places.sqlite", "it is not a folder"),
            (home.home + "/custom/empty", "holds neither places.sqlite (Firefox) nor History (Chromium family)"),
        ] {
            let error = #expect(throws: HistoryError.self) { try ProfileFinder.profiles(inFolder: folder) }
            #expect(error?.kind == .invalidArgument)
            #expect(error?.message.contains(folder) == true && error?.message.contains(why) == true, "\(String(describing: error))")
        }
    }

    @Test func browsersByName() async throws {
        #expect(try Browser(validating: "brave") == .brave)
        let error = #expect(throws: HistoryError.self) { try Browser(validating: "Firefox") }
        #expect(error?.kind == .invalidArgument)
        #expect(error?.message == "unknown browser \"Firefox\": the browsers are firefox, chromium, chrome, brave, vivaldi, edge and all")
    }

    @Test func nothingFoundSaysWhichBrowsersAndWhere() async throws {
        let finder = ProfileFinder(environment: ["HOME": "/nonexistent/home"])
        #expect(finder.profiles(of: Browser.allCases).profiles.isEmpty)
        #expect(finder.nothingFound(for: [.firefox, .brave]).message
            == "no firefox or brave profile with a history found under \"/nonexistent/home\" and \"/nonexistent/home/.config\"; give a profile folder with --profile")
        #expect(finder.nothingFound(for: [.edge]).kind == .noProfile)
    }
}
