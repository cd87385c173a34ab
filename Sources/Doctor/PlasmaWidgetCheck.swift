import Localization

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
        /// The folder holds another widget (its metadata.json names this id).
        case foreign(String, id: String)
    }

    /// The installed build and the builds beside it, the installed Plasma's major version and the
    /// build select-cards chooses for it.
    struct BuildReading: Sendable, Equatable {
        var builds: CardBuilds
        var plasma: Int
        var chosen: String

        init(builds: CardBuilds, plasma: Int, chosen: String) {
            (self.builds, self.plasma, self.chosen) = (builds, plasma, chosen)
        }
    }

    let reading: Reading
    /// Nil when the build or the installed Plasma cannot be told; why select-cards could not tell.
    let build: Result<BuildReading, SelectCards.NotAnswered>?
    /// What select-cards sees at its place for the widget (nil when it does not answer).
    let place: SelectCards.PlaceAnswer?

    init(_ reading: Reading, build: Result<BuildReading, SelectCards.NotAnswered>? = nil, place: SelectCards.PlaceAnswer? = nil) {
        self.reading = reading
        self.build = build
        self.place = place
    }

    /// What select-cards sees at its place for the widget, when it is not installed.
    static func readPlace(_ reading: Reading, _ surroundings: Surroundings) -> SelectCards.PlaceAnswer? {
        guard case .notInstalled = reading else { return nil }
        return SelectCards.place("plasma", card: nil, surroundings)
    }

    /// The build installed at `reading`'s folder against the Plasma installed here.
    static func readBuild(_ reading: Reading, _ surroundings: Surroundings) -> Result<BuildReading, SelectCards.NotAnswered>? {
        guard case .installed(let folder, _) = reading, let builds = CardBuilds.read(folder, versions: CardBuilds.plasmaVersion) else { return nil }
        switch SelectCards.ask("plasma", card: folder, surroundings) {
        case .success(let choice): return Int(choice.version).map { .success(BuildReading(builds: builds, plasma: $0, chosen: choice.build)) }
        case .failure(let unanswered): return .failure(unanswered)
        case nil: return nil
        }
    }

    /// Nil when Plasma (plasmashell) is not installed (no line then).
    static func read(_ surroundings: Surroundings) -> Reading? {
        guard surroundings.program("plasmashell") != nil else { return nil }
        guard let folder = surroundings.firstData("plasma/plasmoids/" + pluginID, where: Files.isDirectory) else { return .notInstalled }
        if let id = CardPlaceLine.metadataID(folder), id != pluginID { return .foreign(folder, id: id) }
        let applets = Files.read(surroundings.configHome + "/" + appletsFile, limit: 4 * 1024 * 1024)
            .map { String(decoding: $0, as: UTF8.self) } ?? ""
        let added = applets.split(separator: "\n").contains { $0.filter { $0 != " " } == "plugin=\(pluginID)" }
        return .installed(folder, added: added)
    }

    func result(_ surroundings: Surroundings) -> CheckResult {
        // Without select-cards's answer the lines below say why the build cannot be compared.
        let build: BuildReading?, unanswered: String
        switch self.build {
        case .success(let reading)?: (build, unanswered) = (reading, "")
        case .failure(let failure)?: (build, unanswered) = (nil, "; " + failure.description)
        case nil: (build, unanswered) = (nil, "")
        }
        if case .installed(let folder, _) = reading, let build,
           case .otherBuild(let other) = build.builds.fit(CardChoice(version: String(build.plasma), build: build.chosen)) {
            return CheckResult(Self.name, .missing,
                               // TRANSLATORS: doctor: the folder; the build ("Plasma 5"); the version of Plasma installed.
                               gettext("installed in %s is the build for %s, but Plasma %d is installed", surroundings.short(folder), build.builds.installed.describe("Plasma"), build.plasma),
                               // TRANSLATORS: doctor: a command, then the build it chooses ("Plasma 6").
                               fix: build.builds.selectCommand.map { gettext("%s (it points the widget at the build for %s)", $0, other.describe("Plasma")) }
                                   ?? ServiceCheck.installFix)
        }
        switch reading {
        case .notInstalled:
            return CardPlaceLine.missing(Self.name, place: place, surroundings)
                ?? CheckResult(Self.name, .missing, gettext("not installed (no %s in the plasma/plasmoids folders)", Self.pluginID),
                               fix: ServiceCheck.installFix)
        case .foreign(let folder, let id):
            return CardPlaceLine.foreign(Self.name, folder: folder, id: id, surroundings)
        case .installed(let folder, added: false):
            return CheckResult(Self.name, .missing, build.map { gettext("installed in %s (the build for Plasma %d), not added", surroundings.short(folder), $0.plasma) }
                                   ?? gettext("installed in %s, not added", surroundings.short(folder)) + unanswered,
                               // TRANSLATORS: doctor: use Plasma's own labels in your language.
                               fix: gettext("right-click the desktop or a panel → Add Widgets… → DBMultiverse"))
        case .installed(let folder, added: true):
            return CheckResult(Self.name, .ok, build.map { gettext("installed in %s (the build for Plasma %d), added to the desktop or a panel", surroundings.short(folder), $0.plasma) }
                                   ?? gettext("installed in %s, added to the desktop or a panel", surroundings.short(folder)) + unanswered)
        }
    }
}
