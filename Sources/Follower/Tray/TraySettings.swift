package import ComicDomain
import Glibc

/// How the notifier's tray item is set up: whether it is shown, and where its icon is.
package struct TraySettings: Sendable, Equatable {
    /// The config file's key: `tray = no` turns the item off.
    static let configKey = "tray"

    /// Whether the notifier shows the tray item.
    package let isEnabled: Bool
    /// Why the config file's value was not understood (the item then stays on), for the log.
    let problem: String?

    /// On, unless `noTrayOption` (`--no-tray`) or the config file's `tray` says no (its yes-or-no
    /// values: `ConfigFile.switchValue`).
    package init(noTrayOption: Bool, config: ConfigFile) {
        guard !noTrayOption else {
            self.init(isEnabled: false, problem: nil)
            return
        }
        let setting = config.switchValue(Self.configKey, default: true)
        self.init(isEnabled: setting.isOn, problem: setting.problem)
    }

    private init(isEnabled: Bool, problem: String?) {
        self.isEnabled = isEnabled
        self.problem = problem
    }

    /// The tray's own icon theme folder of an installation, for `IconThemePath`:
    /// `<prefix>/share/dbmultiverse/icons` when the program runs from `<prefix>/bin` or
    /// `<prefix>/libexec/dbmultiverse` (where the notifier's own executable is installed) and `make
    /// install` put the icon and its theme index there, else "". Hosts find the icon in the
    /// desktop's icon theme when `<prefix>/share` is one of its data directories anyway; with
    /// another prefix, this is how they do.
    static func iconThemePath(executable: String) -> String {
        guard let slash = executable.lastIndex(of: "/"),
              let folder = ["/bin", "/libexec/dbmultiverse"].first(where: { executable[..<slash].hasSuffix($0) })
        else { return "" }
        let icons = String(executable[..<slash].dropLast(folder.count)) + "/share/dbmultiverse/icons"
        let files = ["/hicolor/index.theme", "/hicolor/scalable/apps/\(ChapterNotification.appIcon).svg"]
        return files.allSatisfy { access(icons + $0, R_OK) == 0 } ? icons : ""
    }
}
