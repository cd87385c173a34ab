internal import Localization

/// DBMultiverse's Plasma widget (docs/plasma.md), when Plasma is installed: installed, its build
/// (Plasma 5 or 6) against the Plasma installed here, and added to the desktop or a panel (Plasma
/// records each applet's plugin in its appletsrc).
struct PlasmaWidgetCheck: Sendable {
    static let name = "Plasma widget"
    static let pluginID = "com.nobadi.dbmultiverse"
    static let appletsFile = "plasma-org.kde.plasma.desktop-appletsrc"

    enum Reading: Sendable, Equatable {
        /// No data folder has the widget.
        case notInstalled
        /// The widget's folder, and whether an applet of it is on the desktop or a panel.
        case installed(String, added: Bool)
    }

    /// The installed build and the builds beside it, and the installed Plasma's major version.
    struct BuildReading: Sendable, Equatable {
        var builds: CardBuilds
        var plasma: Int

        init(builds: CardBuilds, plasma: Int) {
            self.builds = builds
            self.plasma = plasma
        }
    }

    let reading: Reading
    /// Nil when the build or the installed Plasma cannot be told.
    let build: BuildReading?

    init(_ reading: Reading, build: BuildReading? = nil) {
        self.reading = reading
        self.build = build
    }

    /// The build installed at `reading`'s folder against the Plasma installed here.
    static func readBuild(_ reading: Reading) -> BuildReading? {
        guard case .installed(let folder, _) = reading, let builds = CardBuilds.read(folder, versions: CardBuilds.plasmaVersion),
              let plasma = DesktopVersions.plasma()
        else { return nil }
        return BuildReading(builds: builds, plasma: plasma)
    }

    /// Nil when Plasma (plasmashell) is not installed (no line then).
    static func read(_ surroundings: Surroundings) -> Reading? {
        guard surroundings.program("plasmashell") != nil else { return nil }
        guard let folder = surroundings.firstData("plasma/plasmoids/" + pluginID, where: Files.isDirectory) else { return .notInstalled }
        let applets = Files.read(surroundings.configHome + "/" + appletsFile, limit: 4 * 1024 * 1024)
            .map { String(decoding: $0, as: UTF8.self) } ?? ""
        let added = applets.split(separator: "\n").contains { $0.filter { $0 != " " } == "plugin=\(pluginID)" }
        return .installed(folder, added: added)
    }

    func result(_ surroundings: Surroundings) -> CheckResult {
        if case .installed(let folder, _) = reading, let build, case .otherBuild(let other) = build.builds.fit(build.plasma) {
            return CheckResult(Self.name, .missing,
                               // TRANSLATORS: doctor: the folder; the build ("Plasma 5"); the version of Plasma installed.
                               gettext("installed in %s is the build for %s, but Plasma %d is installed", surroundings.short(folder), build.builds.installed.describe("Plasma"), build.plasma),
                               // TRANSLATORS: doctor: a command, then the build it chooses ("Plasma 6").
                               fix: build.builds.selectCommand.map { gettext("%s (it points the widget at the build for %s)", $0, other.describe("Plasma")) }
                                   ?? ServiceCheck.installFix)
        }
        switch reading {
        case .notInstalled:
            return CheckResult(Self.name, .missing, gettext("not installed (no %s in the plasma/plasmoids folders)", Self.pluginID),
                               fix: ServiceCheck.installFix)
        case .installed(let folder, added: false):
            return CheckResult(Self.name, .missing, build.map { gettext("installed in %s (the build for Plasma %d), not added", surroundings.short(folder), $0.plasma) }
                                   ?? gettext("installed in %s, not added", surroundings.short(folder)),
                               // TRANSLATORS: doctor: use Plasma's own labels in your language.
                               fix: gettext("right-click the desktop or a panel → Add Widgets… → DBMultiverse"))
        case .installed(let folder, added: true):
            return CheckResult(Self.name, .ok, build.map { gettext("installed in %s (the build for Plasma %d), added to the desktop or a panel", surroundings.short(folder), $0.plasma) }
                                   ?? gettext("installed in %s, added to the desktop or a panel", surroundings.short(folder)))
        }
    }
}
