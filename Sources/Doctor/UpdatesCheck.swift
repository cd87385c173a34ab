import Localization

/// Where updates come from (docs/install.md): the project's apt repository, added by the
/// dbmultiverse-apt-source package (or by hand, from the README) as `dbmultiverse.sources` in
/// the folder apt reads its sources from; its address and suite. Without it, apt never hears of a
/// newer version: the line says so. Informational: never an essential.
struct UpdatesCheck: Sendable {
    static let name = "updates"
    static let sourcesFile = "dbmultiverse.sources"
    /// Where the package's README (with the repository's commands) is installed.
    static let readme = "/usr/share/doc/dbmultiverse/README.md"

    enum Reading: Sendable, Equatable {
        /// The repository's file in apt's sources folder: its addresses and suites, and whether
        /// it is turned on (deb822 `Enabled:`, yes unless it says no).
        case repository(file: String, uris: [String], suites: [String], enabled: Bool)
        /// apt's sources folder (named) has no such file.
        case noRepository(folder: String)
        /// No apt on this system (`apt-config` missing or failing).
        case noApt
    }

    let reading: Reading

    init(_ reading: Reading) { self.reading = reading }

    /// Asks apt where it reads its sources (APT_CONFIG and apt.conf.d may move the folder from
    /// /etc/apt/sources.list.d), then reads the repository's file there.
    static func read(_ surroundings: Surroundings) -> Reading {
        guard let answer = surroundings.commands.run(["apt-config", "shell", "FOLDER", "Dir::Etc::sourceparts/d"], timeout: .seconds(3)),
              answer.succeeded, let folder = parseShellAssignment(answer.stdout, name: "FOLDER")
        else { return .noApt }
        let directory = folder.hasSuffix("/") ? folder : folder + "/"
        let file = directory + sourcesFile
        guard let bytes = Files.read(file) else { return .noRepository(folder: directory) }
        let fields = parseFirstStanza(String(decoding: bytes, as: UTF8.self))
        let words = { (key: String) in (fields[key] ?? "").split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init) }
        return .repository(file: file, uris: words("uris"), suites: words("suites"), enabled: fields["enabled"]?.lowercased() != "no")
    }

    /// `NAME='value'` as `apt-config shell` prints it (its single quotes, `'\''` inside).
    static func parseShellAssignment(_ output: String, name: String) -> String? {
        guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix(name + "='") }), line.hasSuffix("'") else { return nil }
        let quoted = line.dropFirst(name.count + 2).dropLast()
        let value = quoted.replacing("'\\''", with: "'")
        return value.isEmpty ? nil : String(value)
    }

    /// The first stanza of a deb822 file: its fields by lower-cased name, continuation lines
    /// joined with a space, comment lines skipped.
    static func parseFirstStanza(_ text: String) -> [String: String] {
        var fields: [String: String] = [:]
        var current: String?
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("#") { continue }
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) {
                if !fields.isEmpty { break } else { continue }
            }
            if line.first == " " || line.first == "\t" {
                if let current { fields[current, default: ""] += " " + trimmed(line) }
                continue
            }
            guard let colon = line.firstIndex(of: ":") else { current = nil; continue }
            let key = line[..<colon].lowercased()
            fields[key] = trimmed(line[line.index(after: colon)...])
            current = key
        }
        return fields
    }

    private static func trimmed(_ text: Substring) -> String {
        let blank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
        return String(text.drop(while: blank).reversed().drop(while: blank).reversed())
    }

    func result(_ surroundings: Surroundings) -> CheckResult {
        switch reading {
        case .repository(let file, let uris, let suites, let enabled):
            let uri = uris.joined(separator: " "), suite = suites.joined(separator: " ")
            guard enabled else {
                return CheckResult(Self.name, .off, // TRANSLATORS: doctor: the apt sources file that is turned off.
                                   gettext("the repository in %s is turned off (Enabled: no)", file),
                                   // TRANSLATORS: doctor: how to turn the repository on again; %s is the sources file.
                                   fix: gettext("remove the Enabled: no line from %s", file))
            }
            // TRANSLATORS: doctor: where updates come from: the repository's address, its suite, the apt sources file.
            return CheckResult(Self.name, .ok, gettext("from %s, suite %s (%s): apt upgrade installs new versions", uri, suite, file))
        case .noRepository:
            return CheckResult(Self.name, .unavailable, gettext("installed without a repository: no updates"),
                               // TRANSLATORS: doctor: how to add the project's apt repository; %s is the README's path.
                               fix: gettext("add the repository as the Install section of %s says", Self.readme))
        case .noApt:
            return CheckResult(Self.name, .unavailable, gettext("no apt on this system: no updates but a new installation"))
        }
    }
}
