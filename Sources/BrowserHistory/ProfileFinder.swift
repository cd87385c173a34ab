import ComicDomain
import Glibc

/// Finds browser profiles where the browsers keep them, below the user's home and
/// `$XDG_CONFIG_HOME`: their system, snap and Flatpak installations.
package struct ProfileFinder: Sendable {
    /// The home folder: `$HOME` when absolute, else the password database's.
    package let home: String?
    /// `$XDG_CONFIG_HOME` when absolute (the XDG spec ignores a relative one), else `~/.config`.
    package let configHome: String?

    package init(environment: [String: String]) {
        let home = Posix.homeFolder(environment: environment)
        self.home = home
        self.configHome = environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil } ?? home.map { $0 + "/.config" }
    }

    /// What a search found: the profiles holding a history database, each once, and the
    /// problems met on the way (an unreadable `profiles.ini`), which do not stop it.
    package struct Search: Sendable {
        package var profiles: [BrowserProfile] = []
        package var problems: [HistoryError] = []
    }

    /// Every profile of `browsers` that holds a history database.
    package func profiles(of browsers: [Browser]) -> Search {
        var search = Search()
        var seen = Set<String>()
        for browser in browsers {
            for root in roots(of: browser) {
                let found: [BrowserProfile]
                do {
                    found = try profiles(in: root, of: browser)
                } catch {
                    search.problems.append(error)
                    continue
                }
                for profile in found where seen.insert(Posix.realPath(profile.databasePath) ?? profile.databasePath).inserted {
                    search.profiles.append(profile)
                }
            }
        }
        return search
    }

    /// The error for a search that found nothing: which browsers, and where it looked.
    package func nothingFound(for browsers: [Browser]) -> HistoryError {
        let names = browsers.map(\.rawValue)
        let list = names.count > 1 ? names.dropLast().joined(separator: ", ") + " or " + names[names.count - 1] : names.joined()
        guard let home else {
            return HistoryError(.noProfile, "no \(list) profile can be looked for: no home folder is known (HOME is not set); give a profile folder with --profile")
        }
        let places = [home, configHome].compactMap { $0 }.map(quotedPath).joined(separator: " and ")
        return HistoryError(.noProfile, "no \(list) profile with a history found under \(places); give a profile folder with --profile")
    }

    /// The profile in a folder the user names: the browser is told by the history database it
    /// holds (`places.sqlite` for Firefox, `History` for the Chromium family).
    /// - Throws: `invalidArgument` when the folder does not exist or holds neither file.
    package static func profiles(inFolder folder: String) throws(HistoryError) -> [BrowserProfile] {
        guard FileSystem.isDirectory(folder) else {
            let why = FileSystem.exists(folder) ? "it is not a folder" : "it does not exist"
            throw HistoryError(.invalidArgument, "profile folder \(quotedPath(folder)): \(why)")
        }
        let profiles = HistoryFormat.allCases
            .filter { FileSystem.exists(folder + "/" + $0.databaseName) }
            .map { BrowserProfile(owner: .givenFolder, format: $0, name: folder, folder: folder) }
        guard !profiles.isEmpty else {
            throw HistoryError(.invalidArgument,
                               "profile folder \(quotedPath(folder)) holds neither places.sqlite (Firefox) nor History (Chromium family)")
        }
        return profiles
    }

    // MARK: Where the browsers keep their profiles

    /// A folder holding a browser's profiles: a Firefox home with `profiles.ini`, or a
    /// Chromium-family user-data folder with `Default` and `Profile N`.
    struct Root: Equatable {
        let installation: BrowserProfile.Installation
        let path: String
    }

    func roots(of browser: Browser) -> [Root] {
        guard let home else { return [] }
        var roots: [Root] = []
        func add(_ installation: BrowserProfile.Installation, _ path: String?) {
            if let path { roots.append(Root(installation: installation, path: path)) }
        }
        let flatpak = home + "/.var/app/" + browser.flatpakID
        if let configFolder = browser.chromiumConfigFolder {
            add(.system, configHome.map { $0 + "/" + configFolder })
            if browser == .chromium { add(.snap, home + "/snap/chromium/common/chromium") }
            add(.flatpak, flatpak + "/config/" + configFolder)
        } else {
            // Firefox kept its home in ~/.mozilla until it moved to the XDG config folder; a
            // user upgraded from an older version still has the former.
            add(.system, home + "/.mozilla/firefox")
            add(.system, configHome.map { $0 + "/mozilla/firefox" })
            add(.snap, home + "/snap/firefox/common/.mozilla/firefox")
            add(.snap, home + "/snap/firefox/common/.config/mozilla/firefox")
            add(.flatpak, flatpak + "/.mozilla/firefox")
            add(.flatpak, flatpak + "/config/mozilla/firefox")
        }
        return roots
    }

    /// The profiles below `root` that hold a history database (a profile never used has none).
    func profiles(in root: Root, of browser: Browser) throws(HistoryError) -> [BrowserProfile] {
        let owner = BrowserProfile.Owner.browser(browser, root.installation)
        let folders: [String]
        switch browser.format {
        case .firefox:
            folders = try FirefoxProfileList.read(root: root.path)?.folders ?? []
        case .chromium:
            folders = (Posix.entries(of: root.path) ?? [])
                .filter(Self.isChromiumProfileName)
                .sorted { Self.chromiumProfileOrder($0) < Self.chromiumProfileOrder($1) }
                .map { root.path + "/" + $0 }
        }
        return folders
            .filter { FileSystem.exists($0 + "/" + browser.format.databaseName) }
            .map { BrowserProfile(owner: owner, format: browser.format, name: Self.lastComponent(of: $0), folder: $0) }
    }

    /// `Default` or `Profile N`: the folders a Chromium-family browser makes for its profiles
    /// (`System Profile` and `Guest Profile` keep no history of the user's).
    static func isChromiumProfileName(_ name: String) -> Bool {
        if name == "Default" { return true }
        guard name.hasPrefix("Profile ") else { return false }
        let number = name.dropFirst("Profile ".count)
        return !number.isEmpty && number.count <= 9 && number.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// `Default` first, then `Profile N` by N.
    private static func chromiumProfileOrder(_ name: String) -> Int {
        name == "Default" ? -1 : Int(name.dropFirst("Profile ".count)) ?? Int.max
    }

    private static func lastComponent(of path: String) -> String {
        let trimmed = path.hasSuffix("/") ? String(path.dropLast()) : path
        return trimmed.split(separator: "/").last.map(String.init) ?? trimmed
    }
}
