import ComicDomain
import Glibc
import Localization

/// What the checks read, besides the bus: the environment (HOME, the XDG folders, PATH), the
/// time, and the desktop's tools. Injected, so each check runs on a made-up home and tools.
package struct Surroundings: Sendable {
    let environment: [String: String]
    /// Unix seconds, now.
    let now: Int64
    let commands: any CommandRunning
    /// What select-cards answered in this run (the card checks ask it the same question).
    let selectCardsAnswers = SelectCards.Answers()

    package init(environment: [String: String], now: Int64, commands: any CommandRunning) {
        self.environment = environment
        self.now = now
        self.commands = commands
    }

    /// The user's home folder ("" when there is none).
    var home: String { Posix.homeFolder(environment: environment) ?? "" }

    /// `$XDG_CONFIG_HOME` when absolute, else `~/.config`.
    var configHome: String { absolute(environment["XDG_CONFIG_HOME"]) ?? home + "/.config" }
    /// `$XDG_DATA_HOME` when absolute, else `~/.local/share`.
    var dataHome: String { absolute(environment["XDG_DATA_HOME"]) ?? home + "/.local/share" }
    /// `$XDG_DATA_DIRS` (its absolute entries), else `/usr/local/share` and `/usr/share`.
    var dataDirectories: [String] { folders(environment["XDG_DATA_DIRS"], default: ["/usr/local/share", "/usr/share"]) }
    /// `$XDG_CONFIG_DIRS` (its absolute entries), else `/etc/xdg`.
    var configDirectories: [String] { folders(environment["XDG_CONFIG_DIRS"], default: ["/etc/xdg"]) }

    /// The first `relativePath` below the user's data folder, then the system's, that `exists`
    /// (the order in which the desktops look), or nil.
    func firstData(_ relativePath: String, where exists: (String) -> Bool) -> String? {
        ([dataHome] + dataDirectories).map { $0 + "/" + relativePath }.first(where: exists)
    }

    /// The program `name` as `PATH` finds it, or nil.
    func program(_ name: String) -> String? { ProcessRunner.find(name, path: environment["PATH"]) }

    /// The config file, as the other commands read it.
    var config: ConfigFile { ConfigFile.load(environment: environment) }
    /// Where the config file is (for messages).
    var configPath: String { ConfigFile.path(environment: environment) ?? "~/.config/dbmultiverse/config" }

    /// `path` with the home folder written `~` (shorter lines; the user knows where home is).
    func short(_ path: String) -> String {
        let home = self.home
        guard !home.isEmpty, home != "/", path.hasPrefix(home + "/") else { return path }
        return "~" + path.dropFirst(home.count)
    }

    /// "3 min ago", "2 h ago", "5 days ago" (or "in …" for a time ahead).
    func relative(_ unixSeconds: Int64) -> String {
        let seconds = now - unixSeconds
        let amount = abs(seconds)
        let ago = seconds >= 0
        // TRANSLATORS: doctor: how long ago or how far ahead (s, min and h are units; keep them short).
        return switch Int(amount) {
        case ..<60: ago ? gettext("%d s ago", Int(amount)) : gettext("in %d s", Int(amount))
        case ..<3600: ago ? gettext("%d min ago", Int(amount / 60)) : gettext("in %d min", Int(amount / 60))
        case ..<(2 * 86_400): ago ? gettext("%d h ago", Int(amount / 3600)) : gettext("in %d h", Int(amount / 3600))
        default: ago ? ngettext("%d day ago", "%d days ago", Int(amount / 86_400)) : ngettext("in %d day", "in %d days", Int(amount / 86_400))
        }
    }

    private func absolute(_ value: String?) -> String? {
        guard let value, value.hasPrefix("/") else { return nil }
        return value
    }

    private func folders(_ value: String?, default defaults: [String]) -> [String] {
        let listed = (value ?? "").split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
        return listed.isEmpty ? defaults : listed
    }
}

/// Small file-system questions the checks ask, without following a symlink where it matters.
enum Files {
    static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    static func isFile(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFREG
    }

    static func isExecutable(_ path: String) -> Bool { isFile(path) && access(path, X_OK) == 0 }

    /// A small text file's bytes (at most `limit`), nil when it cannot be read as a regular file.
    static func read(_ path: String, limit: Int = 64 * 1024) -> [UInt8]? {
        guard case .success(let fd) = Posix.openAt(AT_FDCWD, path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) else { return nil }
        defer { close(fd) }
        guard case .success(let status) = Posix.fileStatus(fd), Posix.isRegular(status.st_mode), status.st_size <= limit,
              case .success(let bytes) = Posix.readUpTo(fd, limit: limit)
        else { return nil }
        return bytes
    }

    /// The names of the entries in `folder` (hidden ones left out), in no order.
    static func fileNames(_ folder: String) -> [String] {
        guard let directory = opendir(folder) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if !name.hasPrefix(".") { names.append(name) }
        }
        return names
    }

    /// The names of the folders in `folder` (hidden ones left out), in no order.
    static func folderNames(_ folder: String) -> [String] {
        fileNames(folder).filter { isDirectory(folder + "/" + $0) }
    }

    /// `path` with every symbolic link resolved, nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = Glibc.realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The target of the symbolic link at `path`, or nil.
    static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer.prefix(count).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// `text` as one shell word: as it is when it is plain, else in single quotes.
func shellWord(_ text: String) -> String {
    let plain = !text.isEmpty && text.unicodeScalars.allSatisfy { scalar in
        scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "/._-+=:@,~%".unicodeScalars.contains(scalar)
    }
    return plain ? text : "'" + text.replacing("'", with: "'\\''") + "'"
}
