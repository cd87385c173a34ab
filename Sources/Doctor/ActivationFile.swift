import Glibc

/// The session bus's activation file for a name: the `.service` file (`[D-BUS Service]`, `Name=`,
/// `Exec=`) the bus starts it from. The bus reads the files of its service folders — those of the
/// XDG base directories, each `dbus-1/services`: `$XDG_RUNTIME_DIR`'s, `$XDG_DATA_HOME`'s (else
/// `~/.local/share`), then each of `$XDG_DATA_DIRS` (else `/usr/local/share:/usr/share`) —
/// and the first folder that names the service wins: a leftover file in `~/.local/share` shadows
/// the package's in `/usr/share`.
struct ActivationFile: Sendable, Equatable {
    let path: String
    /// The `Exec=` line's value.
    let exec: String

    /// The program `Exec=` runs: its first word, without quotes.
    var program: String {
        String(exec.split(separator: " ", omittingEmptySubsequences: true).first ?? "").trimmingQuotes()
    }

    /// The session bus's service folders, in the order it reads them.
    static func serviceFolders(_ surroundings: Surroundings) -> [String] {
        let runtime = surroundings.environment["XDG_RUNTIME_DIR"].flatMap { $0.hasPrefix("/") ? [$0] : nil } ?? []
        return (runtime + [surroundings.dataHome] + surroundings.dataDirectories).map { $0 + "/dbus-1/services" }
    }

    /// The file the bus starts `name` from, or nil when no folder names it.
    static func winning(for name: String, _ surroundings: Surroundings) -> ActivationFile? {
        for folder in serviceFolders(surroundings) {
            // The file named after the service first (as the bus's own files are), then any other.
            let files = [name + ".service"] + Files.fileNames(folder).filter { $0.hasSuffix(".service") && $0 != name + ".service" }.sorted()
            for file in files {
                if let found = read(folder + "/" + file), found.name == name { return ActivationFile(path: folder + "/" + file, exec: found.exec) }
            }
        }
        return nil
    }

    /// The `Name=` and `Exec=` of the `[D-BUS Service]` group of the file at `path`.
    private static func read(_ path: String) -> (name: String, exec: String)? {
        guard let bytes = Files.read(path) else { return nil }
        var inGroup = false, name: String?, exec = ""
        for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
            let text = line.trimmingCharacters(in: " \t\r")
            if text.hasPrefix("[") { inGroup = text == "[D-BUS Service]" }
            guard inGroup, let equals = text.firstIndex(of: "=") else { continue }
            let key = text[..<equals].trimmingCharacters(in: " \t"), value = text[text.index(after: equals)...].trimmingCharacters(in: " \t")
            if key == "Name" { name = value }
            if key == "Exec" { exec = value }
        }
        return name.map { ($0, exec) }
    }

    /// Whether `program` is there to run: an executable file (a name without a slash, on `PATH`).
    func programExists(_ surroundings: Surroundings) -> Bool {
        program.contains("/") ? Files.isExecutable(program) : surroundings.program(program) != nil
    }
}

private extension StringProtocol {
    func trimmingCharacters(in set: String) -> String {
        let blank: (Character) -> Bool = { set.contains($0) }
        guard let first = firstIndex(where: { !blank($0) }), let last = lastIndex(where: { !blank($0) }) else { return "" }
        return String(self[first...last])
    }

    func trimmingQuotes() -> String {
        guard count >= 2, let first, let last, first == last, first == "\"" || first == "'" else { return String(self) }
        return String(dropFirst().dropLast())
    }
}
