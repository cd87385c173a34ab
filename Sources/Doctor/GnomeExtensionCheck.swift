import Localization

/// DBMultiverse's GNOME Shell extension (docs/gnome-shell.md), when GNOME Shell is installed: where
/// it is installed, which build (43–44's or 45 and later's) against the shell installed here, and
/// whether the user turned it on (`org.gnome.shell enabled-extensions`).
struct GnomeExtensionCheck: Sendable {
    static let name = "GNOME Shell extension"
    static let uuid = "dbmultiverse@nobadi.com"
    static var enableFix: String {
        gettext("gnome-extensions enable %s (or the Extensions app); on Wayland, log in again first if GNOME does not list it yet", uuid)
    }

    struct Reading: Sendable, Equatable {
        /// The extension's folder (the user's first, as GNOME Shell looks), nil when not installed.
        var installed: String?
        /// `gsettings get org.gnome.shell enabled-extensions` as the list, or why it could not be read.
        var enabled: Result<[String], Unreadable>
        /// `disable-user-extensions` is true: extensions in the user's folder do not load.
        var userExtensionsDisabled: Bool
        /// The installed build and the builds beside it, nil when its metadata cannot be read.
        var builds: CardBuilds?
        /// The installed GNOME Shell's version ("48.7") and the build select-cards chooses for it;
        /// nil when the shell does not say its version.
        var shell: Result<CardChoice, SelectCards.NotAnswered>?
        /// The uuid the installed folder's metadata.json gives (another extension's, when it is not ours).
        var uuid: String?
        /// What select-cards sees at its place for the card (nil when it does not answer).
        var place: SelectCards.PlaceAnswer?

        init(installed: String?, enabled: Result<[String], Unreadable>, userExtensionsDisabled: Bool,
                     builds: CardBuilds? = nil, shell: Result<CardChoice, SelectCards.NotAnswered>? = nil,
                     uuid: String? = GnomeExtensionCheck.uuid, place: SelectCards.PlaceAnswer? = nil) {
            (self.installed, self.enabled, self.userExtensionsDisabled) = (installed, enabled, userExtensionsDisabled)
            (self.builds, self.shell, self.uuid, self.place) = (builds, shell, uuid, place)
        }
    }

    struct Unreadable: Error, Sendable, Equatable {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    let reading: Reading

    init(_ reading: Reading) { self.reading = reading }

    /// Nil when GNOME Shell is not installed (no line then).
    static func read(_ surroundings: Surroundings) -> Reading? {
        guard surroundings.program("gnome-shell") != nil else { return nil }
        let installed = surroundings.firstData("gnome-shell/extensions/" + uuid) { Files.isFile($0 + "/metadata.json") }
        let enabled: Result<[String], Unreadable>
        let disabledUser: Bool
        if let output = surroundings.commands.run(["gsettings", "get", "org.gnome.shell", "enabled-extensions"], timeout: .seconds(3)) {
            enabled = output.succeeded ? .success(parseStrings(output.stdout)) : .failure(Unreadable(output.firstErrorLine))
            let user = surroundings.commands.run(["gsettings", "get", "org.gnome.shell", "disable-user-extensions"], timeout: .seconds(3))
            disabledUser = user?.succeeded == true && user?.stdout.hasPrefix("true") == true
        } else {
            enabled = .failure(Unreadable("no gsettings"))
            disabledUser = false
        }
        let builds = installed.flatMap { CardBuilds.read($0, versions: CardBuilds.gnomeShellVersions) }
        return Reading(installed: installed, enabled: enabled, userExtensionsDisabled: disabledUser, builds: builds,
                       shell: builds == nil ? nil : SelectCards.ask("gnome-shell", card: installed, surroundings),
                       uuid: installed.flatMap(CardPlaceLine.metadataID), place: SelectCards.place("gnome-shell", card: installed, surroundings))
    }

    /// The strings of a GVariant string array as gsettings prints it: `['a@b', "c"]` or `@as []`.
    static func parseStrings(_ text: String) -> [String] {
        var strings: [String] = []
        var current: String?
        var quote: Character = "'"
        var escaped = false
        for character in text {
            if var open = current {
                if escaped {
                    open.append(character)
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == quote {
                    strings.append(open)
                    current = nil
                    continue
                } else {
                    open.append(character)
                }
                current = open
            } else if character == "'" || character == "\"" {
                quote = character
                current = ""
            }
        }
        return strings
    }

    func result(_ surroundings: Surroundings) -> CheckResult {
        guard let folder = reading.installed else {
            return CardPlaceLine.missing(Self.name, place: reading.place, surroundings)
                ?? CheckResult(Self.name, .missing, gettext("not installed (no %s in the gnome-shell/extensions folders)", Self.uuid),
                               fix: ServiceCheck.installFix)
        }
        if let other = reading.uuid, other != Self.uuid { return CardPlaceLine.foreign(Self.name, folder: folder, id: other, surroundings) }
        // TRANSLATORS: doctor: where the card is; the lines below start with it.
        var place = gettext("installed in %s", surroundings.short(folder))
        // Someone's own link (a checkout of the card): which build it holds is theirs to choose.
        var ownLink: String?
        if let answer = reading.place, answer.path == folder, case .otherLink(let target) = answer.place { ownLink = target }
        if let target = ownLink {
            place = CardPlaceLine.ownLink(folder, target: target, surroundings)
        } else if let builds = reading.builds, case .failure(let unanswered) = reading.shell {
            // TRANSLATORS: doctor: the folder; the build ("GNOME 45–51"); why the build that fits is not known.
            place = gettext("installed in %s (the build for %s; %s)", surroundings.short(folder), builds.installed.describe("GNOME"), unanswered.description)
        }
        if ownLink == nil, let builds = reading.builds, case .success(let choice) = reading.shell, let fit = builds.fit(choice) {
            let build = builds.installed.describe("GNOME"), shell = choice.version
            switch fit {
            case .fits:
                // TRANSLATORS: doctor: the folder; the build ("GNOME 45–51"); the shell's version.
                place = gettext("installed in %s (the build for %s; GNOME Shell %s here)", surroundings.short(folder), build, shell)
            case .otherBuild(let other):
                // TRANSLATORS: doctor: the folder; the build ("GNOME 43–44"); the shell's version.
                return CheckResult(Self.name, .missing, gettext("installed in %s is the build for %s, but GNOME Shell %s is installed", surroundings.short(folder), build, shell),
                                   // TRANSLATORS: doctor: a command, then the build it chooses ("GNOME 45–51").
                                   fix: builds.selectCommand.map { gettext("%s (it points the extension at the build for %s)", $0, other.describe("GNOME")) }
                                       ?? ServiceCheck.installFix)
            case .untested(let newest):
                return CheckResult(Self.name, .missing,
                                   // TRANSLATORS: doctor: "installed in …", the shell's version, the newest one tested.
                                   gettext("%s: GNOME Shell %s is newer than the card is tested on (up to %d), so the shell does not load it", place, shell, newest),
                                   fix: gettext("to try it anyway: gsettings set org.gnome.shell disable-extension-version-validation true, then log in again"))
            case .tooOld(let oldest):
                return CheckResult(Self.name, .unavailable, // TRANSLATORS: doctor: "installed in …", the shell's version, the oldest one supported.
                                   gettext("%s: GNOME Shell %s is older than the card supports (%d and later)", place, shell, oldest))
            }
        }
        switch reading.enabled {
        case .failure(let unreadable):
            return CheckResult(Self.name, .unavailable, gettext("%s; whether it is on cannot be read (%s)", place, unreadable.reason),
                               fix: Self.enableFix)
        case .success(let list) where !list.contains(Self.uuid):
            return CheckResult(Self.name, .missing, gettext("%s, not turned on", place), fix: Self.enableFix)
        case .success:
            if reading.userExtensionsDisabled, folder.hasPrefix(surroundings.dataHome + "/") {
                return CheckResult(Self.name, .off, gettext("%s and on, but user extensions are turned off (disable-user-extensions)", place),
                                   fix: "gsettings set org.gnome.shell disable-user-extensions false")
            }
            return CheckResult(Self.name, .ok, gettext("%s, turned on", place))
        }
    }
}
