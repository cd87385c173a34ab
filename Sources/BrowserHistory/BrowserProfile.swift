/// A browser profile folder that holds a history database.
package struct BrowserProfile: Sendable, Hashable, CustomStringConvertible {
    /// How the browser that owns the profile is installed.
    package enum Installation: String, Sendable, Hashable {
        /// A package of the system (or a tarball): its folders under `$HOME` and `$XDG_CONFIG_HOME`.
        case system
        /// A snap, with its folders under `~/snap/<name>/common`.
        case snap
        /// A Flatpak, with its folders under `~/.var/app/<app-id>`.
        case flatpak
    }

    /// Whose profile it is: a browser found where it keeps its profiles, or a folder given by
    /// the user, whose browser is known only by the history file it holds.
    package enum Owner: Sendable, Hashable {
        case browser(Browser, Installation)
        case givenFolder
    }

    package let owner: Owner
    package let format: HistoryFormat
    /// The folder's name (`abcd.default-release`, `Default`, `Profile 2`), or the path given.
    package let name: String
    /// The profile folder.
    package let folder: String

    /// The history database in the folder.
    package var databasePath: String { folder + "/" + format.databaseName }

    /// Who owns it, for a line of output: `firefox`, `brave (flatpak)`, `chromium-family`.
    var ownerLabel: String {
        switch owner {
        case .browser(let browser, .system): browser.rawValue
        case .browser(let browser, let installation): "\(browser.rawValue) (\(installation.rawValue))"
        case .givenFolder: format == .firefox ? "firefox" : "chromium-family"
        }
    }

    /// `firefox profile abcd.default-release`, `chromium (snap) profile Default`.
    package var description: String { "\(ownerLabel) profile \(printableName(name))" }
}
