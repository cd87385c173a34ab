import ComicDomain
/// Firefox's `profiles.ini`: the list of a Firefox home's profiles, as `[ProfileN]` sections with
/// `Path=` (relative to the home, or absolute) and `IsRelative=`.
struct FirefoxProfileList: Sendable, Equatable {
    /// The file's name in a Firefox home (`~/.mozilla/firefox`, `~/.config/mozilla/firefox`…).
    static let fileName = "profiles.ini"
    /// A real one is a few hundred bytes; anything much larger is not Firefox's.
    static let maximumBytes = 1024 * 1024

    /// The profile folders listed, in the file's order, each once.
    let folders: [String]

    /// Reads the list of the Firefox home `root`, or nil when it has none.
    /// - Throws: `unreadable` when the file exists but cannot be read.
    static func read(root: String) throws(HistoryError) -> FirefoxProfileList? {
        guard let bytes = try FileSystem.readSmallFile(root + "/" + fileName, limit: maximumBytes) else { return nil }
        return FirefoxProfileList(parsing: String(decoding: bytes, as: UTF8.self), root: root)
    }

    /// Parses the file's text. A section without `Path=` is skipped, as Firefox skips it.
    /// Without `IsRelative=`, a path is taken as absolute when it starts with `/`.
    init(parsing text: String, root: String) {
        var folders: [String] = []
        var section: (isProfile: Bool, path: String?, isRelative: Bool?) = (false, nil, nil)
        func finishSection() {
            guard section.isProfile, let path = section.path, !path.isEmpty else { return }
            let relative = section.isRelative ?? !path.hasPrefix("/")
            let folder = relative ? root + "/" + path : path
            if !folders.contains(folder) { folders.append(folder) }
        }
        for rawLine in text.split(omittingEmptySubsequences: true, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) {
            let line = rawLine.trimmingASCIIWhitespace()
            if line.isEmpty || line.hasPrefix(";") || line.hasPrefix("#") { continue }
            if line.hasPrefix("["), line.hasSuffix("]") {
                finishSection()
                let name = line.dropFirst().dropLast()
                section = (name.lowercased().hasPrefix("profile"), nil, nil)
                continue
            }
            guard let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingASCIIWhitespace()
            let value = String(line[line.index(after: equals)...].trimmingASCIIWhitespace())
            switch key {
            case "Path": section.path = value
            case "IsRelative": section.isRelative = value == "1"
            default: break
            }
        }
        finishSection()
        self.folders = folders
    }
}

extension StringProtocol {
    /// Without spaces and tabs at either end.
    func trimmingASCIIWhitespace() -> SubSequence {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) }) else {
            return self[endIndex...]
        }
        return self[first...last]
    }
}
