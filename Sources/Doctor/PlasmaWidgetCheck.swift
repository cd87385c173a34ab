/// DBMultiverse's Plasma widget (DESIGN §15), when Plasma is installed: installed, and added to the
/// desktop or a panel (Plasma records each applet's plugin in its appletsrc).
package struct PlasmaWidgetCheck: Sendable {
    package static let name = "Plasma widget"
    package static let pluginID = "com.nobadi.dbmultiverse"
    static let appletsFile = "plasma-org.kde.plasma.desktop-appletsrc"

    package enum Reading: Sendable, Equatable {
        /// No data folder has the widget.
        case notInstalled
        /// The widget's folder, and whether an applet of it is on the desktop or a panel.
        case installed(String, added: Bool)
    }

    package let reading: Reading

    package init(_ reading: Reading) { self.reading = reading }

    /// Nil when Plasma (plasmashell) is not installed (no line then).
    package static func read(_ surroundings: Surroundings) -> Reading? {
        guard surroundings.program("plasmashell") != nil else { return nil }
        guard let folder = surroundings.firstData("plasma/plasmoids/" + pluginID, where: Files.isDirectory) else { return .notInstalled }
        let applets = Files.read(surroundings.configHome + "/" + appletsFile, limit: 4 * 1024 * 1024)
            .map { String(decoding: $0, as: UTF8.self) } ?? ""
        let added = applets.split(separator: "\n").contains { $0.filter { $0 != " " } == "plugin=\(pluginID)" }
        return .installed(folder, added: added)
    }

    package func result(_ surroundings: Surroundings) -> CheckResult {
        switch reading {
        case .notInstalled:
            return CheckResult(Self.name, .missing, "not installed (no \(Self.pluginID) in the plasma/plasmoids folders)",
                               fix: ServiceCheck.installFix)
        case .installed(let folder, added: false):
            return CheckResult(Self.name, .missing, "installed in \(surroundings.short(folder)), not added",
                               fix: "right-click the desktop or a panel → Add Widgets… → DBMultiverse")
        case .installed(let folder, added: true):
            return CheckResult(Self.name, .ok, "installed in \(surroundings.short(folder)), added to the desktop or a panel")
        }
    }
}
