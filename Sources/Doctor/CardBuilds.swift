import Glibc
import JSON

/// The builds of a card (the GNOME Shell extension, the Plasma widget) installed side by side in
/// `<share>/dbmultiverse/cards/`, the one the desktop's folder links to, and select-cards, which
/// chooses it (docs/gnome-shell.md, docs/plasma.md).
struct CardBuilds: Sendable, Equatable {
    /// One build: its folder's name (`gnome-shell-45`, `plasma-6`) and the desktop versions it is
    /// for (GNOME Shell majors, or the Plasma major).
    struct Build: Sendable, Equatable {
        var name: String
        var versions: [Int]

        init(name: String, versions: [Int]) {
            (self.name, self.versions) = (name, versions)
        }

        /// "GNOME 45–51", "Plasma 6": what the build is for, for a reader.
        func describe(_ desktop: String) -> String {
            guard let first = versions.min(), let last = versions.max() else { return desktop }
            return first == last ? "\(desktop) \(first)" : "\(desktop) \(first)–\(last)"
        }
    }

    /// The build the desktop's folder holds.
    var installed: Build
    /// Every build beside it (itself included): one only for an older install's plain folder.
    var all: [Build]
    /// The command that points the folder at another build, when select-cards is installed.
    var selectCommand: String?

    init(installed: Build, all: [Build], selectCommand: String?) {
        self.installed = installed
        self.all = all
        self.selectCommand = selectCommand
    }

    /// How the installed build suits a desktop of major version `version`.
    enum Fit: Sendable, Equatable {
        case fits
        /// Another build here is for that version.
        case otherBuild(Build)
        /// Newer than any build is tested on.
        case untested(newest: Int)
        /// Older than any build supports.
        case tooOld(oldest: Int)
    }

    /// How the installed build suits the desktop select-cards read (its version and the build it
    /// chooses): nil when the version has no major number. Which build fits is select-cards's rule;
    /// whether the desktop loads a build is the versions its metadata lists.
    func fit(_ choice: CardChoice) -> Fit? {
        guard let version = Int(choice.version.prefix { $0 != "." }) else { return nil }
        if choice.build != installed.name, let other = all.first(where: { $0.name == choice.build }) { return .otherBuild(other) }
        if installed.versions.contains(version) { return .fits }
        let known = all.flatMap(\.versions) + installed.versions
        if let newest = known.max(), version > newest { return .untested(newest: newest) }
        return .tooOld(oldest: known.min() ?? version)
    }

    /// The builds of the card at `folder` (the desktop's folder, or the link to a build), each read
    /// by `versions` from its folder; nil when the installed one's versions cannot be read.
    static func read(_ folder: String, versions: (String) -> [Int]?) -> CardBuilds? {
        guard let installedVersions = versions(folder) else { return nil }
        let real = Files.realPath(folder) ?? folder
        let parent = String(real[..<(real.lastIndex(of: "/") ?? real.startIndex)])
        let name = String(real[real.index(after: real.lastIndex(of: "/") ?? real.startIndex)...])
        let installed = Build(name: name, versions: installedVersions)
        // Installed by select-cards: the builds are in <share>/dbmultiverse/cards, the selector in
        // <prefix>/libexec/dbmultiverse.
        guard parent.hasSuffix("/share/dbmultiverse/cards") else { return CardBuilds(installed: installed, all: [installed], selectCommand: nil) }
        // The same card's builds: `gnome-shell-43` beside `gnome-shell-45`, `plasma-5` beside `plasma-6`.
        let card = name[..<(name.lastIndex(of: "-") ?? name.endIndex)] + "-"
        let all = Files.folderNames(parent).filter { $0.hasPrefix(card) }.sorted().compactMap { sibling in
            versions(parent + "/" + sibling).map { Build(name: sibling, versions: $0) }
        }
        let selector = SelectCards.beside(cards: parent)
        let command = Files.isExecutable(selector) ? (access(parent, W_OK) == 0 ? selector : "sudo " + selector) : nil
        return CardBuilds(installed: installed, all: all.isEmpty ? [installed] : all, selectCommand: command)
    }

    /// A GNOME Shell extension's `shell-version` majors, from its metadata.json.
    static func gnomeShellVersions(_ folder: String) -> [Int]? {
        guard let metadata = metadata(folder), case .array(let entries)? = metadata["shell-version"]
        else { return nil }
        let majors = entries.compactMap { entry -> Int? in
            guard case .string(let version) = entry else { return nil }
            return Int(version.prefix { $0 != "." })
        }
        return majors.isEmpty ? nil : majors
    }

    /// A card's metadata.json, nil when it is missing or not JSON: either way its build cannot be told.
    private static func metadata(_ folder: String) -> JSONValue? {
        Files.read(folder + "/metadata.json").flatMap { try? JSONValue.parse($0) }
    }

    /// A Plasma widget's Plasma major: 6 when its metadata.json asks for Plasma 6's API, else 5.
    static func plasmaVersion(_ folder: String) -> [Int]? {
        guard let metadata = metadata(folder), case .object = metadata else { return nil }
        guard case .string(let minimum)? = metadata["X-Plasma-API-Minimum-Version"] else { return [5] }
        return [Int(minimum.prefix { $0 != "." }) ?? 6]
    }
}
