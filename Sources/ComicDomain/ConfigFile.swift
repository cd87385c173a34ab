import Glibc

/// The user's small hand-edited settings file, `$XDG_CONFIG_HOME/dbmultiverse/config` (else
/// `~/.config/dbmultiverse/config`): one `key = value` a line, `#` starts a comment line, blank
/// lines are skipped, the last line of a key wins. Keys: `browser`, `language`, `tray`,
/// `import-history`, `sync-folder`, `computer-name`.
///
/// Reading never fails: a missing, unreadable or oversized file, or a line without `=`, is
/// simply no setting (the file is a convenience; the commands say when a value is invalid).
package struct ConfigFile: Sendable, Equatable {
    /// The file's name inside `dbmultiverse/`.
    package static let fileName = "config"
    /// The largest file read; anything longer is ignored as not a settings file.
    static let maxBytes = 16 * 1024

    /// The settings, trimmed of whitespace at both ends; keys as written.
    let values: [String: String]
    /// The desktop session's language as a site language (`SiteLanguage.desktop(environment:)`):
    /// the reader's language when neither a chapter nor the file names one. English for a file
    /// read without an environment.
    var desktopLanguage: SiteLanguage = .english

    /// Settings from `text` (see the type's format).
    init(text: String) {
        var values: [String: String] = [:]
        for rawLine in text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            let line = trimmedWhitespace(rawLine)
            guard !line.isEmpty, !line.hasPrefix("#"), let equals = line.firstIndex(of: "=") else { continue }
            let key = trimmedWhitespace(line[..<equals])
            guard !key.isEmpty else { continue }
            values[key] = trimmedWhitespace(line[line.index(after: equals)...])
        }
        self.values = values
    }

    /// The value of `key`, or nil when it is not set.
    package subscript(key: String) -> String? { values[key] }

    /// `$XDG_CONFIG_HOME/dbmultiverse/config` when that is absolute, else
    /// `$HOME/.config/dbmultiverse/config`; nil without either.
    package static func path(environment: [String: String]) -> String? {
        if let xdg = environment["XDG_CONFIG_HOME"], xdg.hasPrefix("/") { return xdg + "/dbmultiverse/" + fileName }
        if let home = environment["HOME"], home.hasPrefix("/") { return home + "/.config/dbmultiverse/" + fileName }
        return nil
    }

    /// The user's settings (empty when there is no usable file), with the desktop's language.
    /// Read on every call, so an edited file applies at once.
    package static func load(environment: [String: String]) -> ConfigFile {
        var config = path(environment: environment).map { load(path: $0) } ?? ConfigFile(text: "")
        config.desktopLanguage = SiteLanguage.desktop(environment: environment)
        return config
    }

    /// The settings in the file at `path` (empty when it cannot be used).
    package static func load(path: String) -> ConfigFile {
        guard case .success(let fd) = Posix.openAt(AT_FDCWD, path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) else {
            return ConfigFile(text: "")
        }
        defer { close(fd) }
        guard case .success(let status) = Posix.fileStatus(fd), Posix.isRegular(status.st_mode),
              status.st_size <= maxBytes, case .success(let bytes) = Posix.readUpTo(fd, limit: maxBytes)
        else { return ConfigFile(text: "") }
        return ConfigFile(text: String(decoding: bytes, as: UTF8.self))
    }

    /// `key`'s yes-or-no value: `yes`, `true`, `on` or `1` are on, `no`, `false`, `off` or `0` off,
    /// in any case; unset or empty is `defaultValue`. Anything else is `defaultValue` with the
    /// reason it was not understood (for the log).
    package func switchValue(_ key: String, default defaultValue: Bool) -> (isOn: Bool, problem: String?) {
        switch values[key]?.lowercased() {
        case nil, "": (defaultValue, nil)
        case "yes", "true", "on", "1": (true, nil)
        case "no", "false", "off", "0": (false, nil)
        case let other?: (defaultValue, "ignoring \(key) = \(quotedForMessage(other)) in the config file: use yes or no")
        }
    }

    /// The default language of the site commands: `language = …`, else the desktop's
    /// (`desktopLanguage`, English when the site lacks it).
    /// - Throws: `invalidLanguage` when the file names a language the site does not have.
    package func language() throws(ComicError) -> SiteLanguage {
        guard let code = values["language"], !code.isEmpty else { return desktopLanguage }
        do {
            return try SiteLanguage(validating: code)
        } catch {
            throw ComicError(.invalidLanguage, "in the config file: \(error.message)")
        }
    }
}

extension ConfigFile {
    /// The key of the sync folder (docs/sync.md).
    package static let syncFolderKey = "sync-folder"

    /// The sync folder: `sync-folder = PATH`, an absolute path or one starting with `~/` (the home
    /// folder `home`); nil when the line is absent or empty. Anything else is nil with the reason
    /// (for the log and doctor): a relative path would depend on the folder a program starts in.
    package func syncFolder(home: String?) -> (folder: SyncFolder?, problem: String?) {
        guard let value = values[Self.syncFolderKey], !value.isEmpty else { return (nil, nil) }
        if value.hasPrefix("/") { return (SyncFolder(path: value), nil) }
        if value == "~" || value.hasPrefix("~/"), let home, home.hasPrefix("/") {
            return (SyncFolder(path: home + value.dropFirst()), nil)
        }
        return (nil, "ignoring \(Self.syncFolderKey) = \(quotedForMessage(value)) in the config file: use an absolute path")
    }

    /// `text` (a config file's) with `key` set to `value`: the last line setting it is replaced in
    /// place and the earlier ones (which it overrode) removed, or the line is added at the end;
    /// every other line is kept as it was. A nil `value` removes the key's lines.
    static func text(_ text: String, setting key: String, to value: String?) -> String {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() } // the final newline
        let setsKey = { (line: String) -> Bool in
            let trimmed = trimmedWhitespace(line)
            guard !trimmed.hasPrefix("#"), let equals = trimmed.firstIndex(of: "=") else { return false }
            return trimmedWhitespace(trimmed[..<equals]) == key
        }
        let last = lines.lastIndex(where: setsKey)
        var result: [String] = []
        for (index, line) in lines.enumerated() {
            if index == last, let value { result.append("\(key) = \(value)") } else if !setsKey(line) { result.append(line) }
        }
        if last == nil, let value { result.append("\(key) = \(value)") }
        return result.isEmpty ? "" : result.joined(separator: "\n") + "\n"
    }

    /// Sets `key` to `value` (nil: removes it) in the user's config file, keeping the rest of the
    /// file: written aside and renamed into place. A config file that is a symlink (a dotfiles
    /// manager's) is kept one: the file it points to is the one rewritten. Returns the path written.
    /// - Throws: `storageFailed` when there is no config folder (no HOME), the file is larger than
    ///   the reader takes or not a regular file, or it cannot be written.
    @discardableResult
    package static func set(_ key: String, to value: String?, environment: [String: String]) throws(ComicError) -> String {
        guard let configured = path(environment: environment) else {
            throw ComicError(.storageFailed, "no config folder: neither XDG_CONFIG_HOME nor HOME is an absolute path")
        }
        let path = Posix.realPath(configured) ?? configured
        var text = ""
        switch Posix.openAt(AT_FDCWD, path, O_RDONLY | O_NONBLOCK | O_CLOEXEC) {
        case .success(let fd):
            defer { close(fd) }
            guard case .success(let status) = Posix.fileStatus(fd), Posix.isRegular(status.st_mode) else {
                throw ComicError(.storageFailed, "\(path) is not a regular file")
            }
            guard status.st_size <= maxBytes, case .success(let bytes) = Posix.readUpTo(fd, limit: maxBytes) else {
                throw ComicError(.storageFailed, "\(path) is larger than \(maxBytes) bytes, or unreadable: not a config file to rewrite")
            }
            text = String(decoding: bytes, as: UTF8.self)
        case .failure(let error) where error.code == ENOENT:
            break
        case .failure(let error):
            throw ComicError(.storageFailed, "cannot read \(path): \(error.text)")
        }
        let folder = DataFolder(path: path).parentPath
        try DataFolder(path: folder).create()
        try AtomicFile.replace([(DataFolder(path: path).name, Array(Self.text(text, setting: key, to: value).utf8))], in: folder)
        return path
    }
}

/// `text` without spaces and tabs at both ends.
private func trimmedWhitespace<Text: StringProtocol>(_ text: Text) -> String {
    let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" }
    guard let first = text.firstIndex(where: { !isBlank($0) }), let last = text.lastIndex(where: { !isBlank($0) }) else { return "" }
    return String(text[first...last])
}
