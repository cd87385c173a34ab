import Glibc
import JSON

/// The shared storage folder (the iOS "app group", docs/storage.md) and its files.
///
/// Reads are bounded and never follow a symlink at the file itself; writes are atomic
/// (see `AtomicFile`). Nothing here traps on what it finds on disk.
package struct DataFolder: Sendable, Equatable {
    /// The environment variable that overrides the folder.
    package static let environmentVariable = "DBMULTIVERSE_DATA_DIR"
    /// The current chapter, in the iOS app's format.
    package static let chapterDataFile = "currentChapterData.json"
    /// The current chapter's cover (JPEG or PNG, whatever the extension says).
    package static let coverImageFile = "chapterCoverImage.jpg"
    /// The last state a reload was signalled for.
    package static let syncStateFile = "widgetSyncState.json"

    /// The site code's politeness state (last requests, Retry-After deadlines, the feed's validators).
    package static let siteRequestsFile = "siteRequests.json"
    /// The latest page the notifier has announced or seen caught up (`PageAnnouncements`).
    static let announcedPagesFile = "announcedPages.json"
    /// When the browser extension last started its host, per browser family (`BrowserContacts`).
    package static let browserContactsFile = "browserContacts.json"
    /// What the sync folder's rule keeps between runs (`SavedReading`, docs/sync.md).
    static let syncedReadingFile = "syncedReading.json"

    /// Whether `name` is one of the files this program writes in the folder.
    static func isStorageFile(_ name: String) -> Bool {
        if [chapterDataFile, coverImageFile, syncStateFile, siteRequestsFile, announcedPagesFile, browserContactsFile,
            syncedReadingFile].contains(name) {
            return true
        }
        guard name.hasPrefix("chapters-"), name.hasSuffix(".json") else { return false }
        return SiteLanguage(code: String(name.dropFirst("chapters-".count).dropLast(".json".count))) != nil
    }

    /// Absolute path of the folder, without a trailing slash.
    package let path: String

    /// The folder at `path`. A relative path is taken relative to the working directory;
    /// repeated and trailing slashes are dropped.
    package init(path: String) {
        var absolute = path
        if !path.hasPrefix("/"), let cwd = getcwd(nil, 0) {
            absolute = String(cString: cwd) + "/" + path
            free(cwd)
        }
        let components = absolute.split(separator: "/", omittingEmptySubsequences: true)
        let joined = components.joined(separator: "/")
        self.path = absolute.hasPrefix("/") ? "/" + joined : joined
    }

    /// The folder the contract names: `$DBMULTIVERSE_DATA_DIR` if set and non-empty, else
    /// `$XDG_DATA_HOME/dbmultiverse` if `XDG_DATA_HOME` is absolute (the XDG base directory
    /// spec says to ignore a relative one), else `$HOME/.local/share/dbmultiverse` (the home
    /// directory from the password database when `HOME` is unset or relative).
    /// - Throws: `storageFailed` for a relative `$DBMULTIVERSE_DATA_DIR`: each process would take it
    ///   from its own working directory (the service started by D-Bus from `/`, a command from the
    ///   shell's), and the data would be split. It is refused everywhere, as the XDG spec refuses a
    ///   relative `XDG_*` folder; unlike those, it is the user's own explicit choice, so it is an
    ///   error rather than ignored.
    package static func resolve(environment: [String: String]) throws(ComicError) -> DataFolder {
        if let explicit = environment[environmentVariable], !explicit.isEmpty {
            guard explicit.hasPrefix("/") else {
                throw ComicError(.storageFailed, "\(environmentVariable) is \(quotedForMessage(explicit)), a relative path: "
                                 + "set it to an absolute one, or unset it (each program would read it from its own working folder)")
            }
            return DataFolder(path: explicit)
        }
        if let dataHome = environment["XDG_DATA_HOME"], dataHome.hasPrefix("/") {
            return DataFolder(path: dataHome + "/dbmultiverse")
        }
        return DataFolder(path: (Posix.homeFolder(environment: environment) ?? "") + "/.local/share/dbmultiverse")
    }

    /// Full path of `currentChapterData.json`.
    package var chapterDataPath: String { path + "/" + Self.chapterDataFile }
    /// The folder holding this one ("/" for a folder at the root).
    package var parentPath: String {
        guard let slash = path.lastIndex(of: "/"), slash != path.startIndex else { return "/" }
        return String(path[..<slash])
    }
    /// This folder's own name, the last component of `path`.
    package var name: String { path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path }
    /// Full path of `chapterCoverImage.jpg`.
    package var coverImagePath: String { path + "/" + Self.coverImageFile }
    /// Full path of `widgetSyncState.json`.
    var syncStatePath: String { path + "/" + Self.syncStateFile }

    // MARK: Folder

    /// Creates the folder and its missing parents, mode 0700 (the XDG spec's mode for created
    /// data directories). An existing folder is left as it is.
    /// - Throws: `storageFailed` when it (or a parent) exists and is not a directory, or cannot
    ///   be created.
    package func create() throws(ComicError) {
        var prefix = ""
        for component in path.split(separator: "/") {
            prefix += "/" + component
            switch Posix.pathStatus(prefix) {
            case .success(let status):
                guard Posix.isDirectory(status.st_mode) else {
                    throw ComicError(.storageFailed, "\(prefix) exists and is not a directory")
                }
            case .failure(let error) where error.code == ENOENT:
                if mkdir(prefix, 0o700) != 0 {
                    let code = errno
                    // Another process may have created it meanwhile.
                    if code == EEXIST, case .success(let status) = Posix.pathStatus(prefix), Posix.isDirectory(status.st_mode) {
                        continue
                    }
                    throw ComicError(.storageFailed, "cannot create \(prefix): \(Posix.describe(code))")
                }
            case .failure(let error):
                throw ComicError(.storageFailed, "cannot create \(prefix): \(error.text)")
            }
        }
    }

    /// Removes the temporary files (`.<name>.<pid>.<random>.tmp`, see `AtomicFile`) that a writer
    /// killed mid-write left behind: those of the folder's own files whose writer process no
    /// longer exists. A live writer's file (another pid that still runs, or this process) is kept.
    /// Call at start, before writing. Returns the names removed; failures are skipped (best effort).
    @discardableResult
    package func removeStaleTemporaryFiles() -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var removed: [String] = []
        while let entry = readdir(directory) {
            let name = Posix.name(of: entry)
            guard let pid = AtomicFile.writerPID(ofTemporary: name), pid != getpid(), !Self.isRunning(pid) else { continue }
            if unlinkat(dirfd(directory), name, 0) == 0 { removed.append(name) }
        }
        return removed
    }

    /// Whether `pid` is a live process. A zombie (killed, not yet reaped: a service started by
    /// D-Bus activation is reparented, and a container's pid 1 may never reap it) writes nothing
    /// more, so it counts as gone. EPERM means it exists (another user's).
    private static func isRunning(_ pid: pid_t) -> Bool {
        guard kill(pid, 0) == 0 || errno == EPERM else { return false }
        guard case .success(let fd) = Posix.openAt(AT_FDCWD, "/proc/\(pid)/stat", O_RDONLY | O_CLOEXEC) else { return true }
        defer { close(fd) }
        // "pid (comm) S …": the state follows the last ')' (comm may hold anything).
        guard case .success(let bytes) = Posix.readUpTo(fd, limit: 512),
              let close = bytes.lastIndex(of: UInt8(ascii: ")")), close + 2 < bytes.count
        else { return true }
        let state = bytes[close + 2]
        return state != UInt8(ascii: "Z") && state != UInt8(ascii: "X")
    }

    // MARK: Reading

    /// Reads `currentChapterData.json`; see `ReadResult` for the outcomes.
    package func readChapterData() -> ReadResult<ChapterData> {
        read(Self.chapterDataFile) { bytes throws(ComicError) in try ChapterData.decode(bytes) }
    }

    /// Reads `widgetSyncState.json`; see `ReadResult` for the outcomes.
    package func readSyncState() -> ReadResult<SyncState> {
        read(Self.syncStateFile) { bytes throws(ComicError) in try SyncState.decode(bytes) }
    }

    /// Reads `chapters-<language>.json`; see `ReadResult` for the outcomes.
    package func readCatalogue(_ language: SiteLanguage) -> ReadResult<Catalogue> {
        read(Catalogue.fileName(for: language), limit: Catalogue.maxFileBytes) { bytes throws(ComicError) in
            try Catalogue.decode(bytes, language: language)
        }
    }

    /// Reads `announcedPages.json`; see `ReadResult` for the outcomes.
    package func readAnnouncedPages() -> ReadResult<PageAnnouncements> {
        read(Self.announcedPagesFile, limit: PageAnnouncements.maxFileBytes) { bytes throws(ComicError) in
            try PageAnnouncements.decode(bytes)
        }
    }

    /// Reads `browserContacts.json`; see `ReadResult` for the outcomes.
    package func readBrowserContacts() -> ReadResult<BrowserContacts> {
        read(Self.browserContactsFile, limit: BrowserContacts.maxFileBytes) { bytes throws(ComicError) in
            try BrowserContacts.decode(bytes)
        }
    }

    /// Reads another file of the folder (one the site code keeps), decoded by `decode`, with the
    /// same checks as the storage files.
    package func readFile<Value>(_ name: String, limit: Int, decode: ([UInt8]) throws(ComicError) -> Value) -> ReadResult<Value> {
        read(name, limit: limit, decode: decode)
    }

    /// Opens without following a symlink and without blocking (a FIFO would block), checks it is
    /// a regular file of at most `limit` bytes, reads at most one byte more than that (the file
    /// may grow meanwhile), and decodes.
    private func read<Value>(_ name: String, limit: Int = Limits.maxChapterFileBytes,
                             decode: ([UInt8]) throws(ComicError) -> Value) -> ReadResult<Value> {
        let file = path + "/" + name
        let fd: Int32
        switch Posix.openAt(AT_FDCWD, file, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC) {
        case .success(let opened):
            fd = opened
        case .failure(let error) where error.code == ENOENT:
            return .missing
        case .failure(let error) where error.code == ELOOP:
            if case .success(let status) = Posix.pathStatus(file, followLinks: false), status.st_mode & S_IFMT == S_IFLNK {
                return .invalid(reason: "\(file) is a symbolic link, which is not followed")
            }
            return .invalid(reason: "cannot open \(file): \(error.text)")
        case .failure(let error):
            return .invalid(reason: "cannot open \(file): \(error.text)")
        }
        defer { close(fd) }

        switch Posix.fileStatus(fd) {
        case .failure(let error):
            return .invalid(reason: "cannot examine \(file): \(error.text)")
        case .success(let status):
            guard Posix.isRegular(status.st_mode) else {
                return .invalid(reason: "\(file) is \(Posix.fileTypeName(status.st_mode)), not a regular file")
            }
            guard status.st_size <= limit else {
                return .invalid(reason: "\(file) is \(status.st_size) bytes, more than \(limit)")
            }
        }

        let bytes: [UInt8]
        switch Posix.readUpTo(fd, limit: limit + 1) {
        case .success(let read): bytes = read
        case .failure(let error): return .invalid(reason: "cannot read \(file): \(error.text)")
        }
        guard bytes.count <= limit else {
            return .invalid(reason: "\(file) is more than \(limit) bytes")
        }
        do {
            return .valid(try decode(bytes))
        } catch {
            return .invalid(reason: "\(file): \(error.message)")
        }
    }

    // MARK: Writing

    /// Atomically replaces `currentChapterData.json` (mode 0600), creating the folder if needed.
    /// - Throws: `storageFailed`.
    package func writeChapterData(_ data: ChapterData) throws(ComicError) {
        let file = try chapterDataFile(data)
        try create()
        try AtomicFile.replace([file], in: path)
    }

    /// The data's file, with the keys of the stored file this version does not know (a later
    /// version's, another writer's: `otherChapterMembers`), checked against what `readChapterData`
    /// accepts: a write never leaves a file the reader refuses (it would lose the position it
    /// replaced). Should those keys make it too long, they are left out: the position comes first.
    /// - Throws: `storageFailed` when the encoded data is over `Limits.maxChapterFileBytes`.
    private func chapterDataFile(_ data: ChapterData) throws(ComicError) -> (name: String, bytes: [UInt8]) {
        let kept = data.encodeJSON(keeping: otherChapterMembers()) + [0x0A]
        if kept.count <= Limits.maxChapterFileBytes { return (Self.chapterDataFile, kept) }
        let bytes = data.encodeJSON() + [0x0A]
        guard bytes.count <= Limits.maxChapterFileBytes else {
            throw ComicError(.storageFailed, "the chapter data would be \(bytes.count) bytes, more than the \(Limits.maxChapterFileBytes) the reader accepts; nothing was written")
        }
        return (Self.chapterDataFile, bytes)
    }

    /// The members of the stored `currentChapterData.json` whose keys this version does not know,
    /// in their order; none when it holds no JSON object.
    func otherChapterMembers() -> [(key: String, value: JSONValue)] {
        guard case .valid(.object(let members)) = read(Self.chapterDataFile, decode: { bytes throws(ComicError) in
            try JSONObjectReader(bytes: bytes).value
        }) else { return [] }
        return members.filter { !ChapterData.keys.contains($0.key) }
    }

    /// Stores a chapter with its cover (`UpdateChapter`), creating the folder if needed. With a
    /// cover, both new files are written and fsynced before either is renamed into place, cover
    /// first: the data never names a cover that is missing or half written, and a crash leaves the
    /// old pair or the new one, except between the two renames (microseconds apart), when the new
    /// cover would show with the old chapter. An empty cover removes the stored one, then writes
    /// the data (which then names no cover).
    /// - Throws: `coverRejected` or an oversized data file's `storageFailed` (nothing is written),
    ///   or `storageFailed`.
    package func writeChapter(_ data: ChapterData, cover: [UInt8]) throws(ComicError) {
        if !cover.isEmpty { try CoverImage.validate(cover) }
        let dataFile = try chapterDataFile(data)
        try create()
        if cover.isEmpty {
            try removeCover()
            try AtomicFile.replace([dataFile], in: path)
        } else {
            try AtomicFile.replace([(Self.coverImageFile, cover), dataFile], in: path)
        }
    }

    /// Atomically replaces `widgetSyncState.json` (mode 0600), creating the folder if needed.
    /// - Throws: `storageFailed`.
    package func writeSyncState(_ state: SyncState) throws(ComicError) {
        try create()
        try AtomicFile.replace([(Self.syncStateFile, state.encodeJSON() + [0x0A])], in: path)
    }

    /// Atomically replaces `chapters-<language>.json` (mode 0600), creating the folder if needed.
    /// - Throws: `storageFailed`.
    package func writeCatalogue(_ catalogue: Catalogue) throws(ComicError) {
        try writeFile(Catalogue.fileName(for: catalogue.language), bytes: catalogue.encodeJSON() + [0x0A])
    }

    /// Atomically replaces `browserContacts.json` (mode 0600), creating the folder if needed.
    package func writeBrowserContacts(_ contacts: BrowserContacts) throws(ComicError) {
        try writeFile(Self.browserContactsFile, bytes: contacts.encodeJSON() + [0x0A])
    }

    /// Atomically replaces `announcedPages.json` (mode 0600), creating the folder if needed.
    /// - Throws: `storageFailed`.
    package func writeAnnouncedPages(_ announcements: PageAnnouncements) throws(ComicError) {
        try writeFile(Self.announcedPagesFile, bytes: announcements.encodeJSON() + [0x0A])
    }

    /// Atomically replaces another file of the folder (mode 0600), creating the folder if needed.
    /// - Throws: `storageFailed`.
    package func writeFile(_ name: String, bytes: [UInt8]) throws(ComicError) {
        try create()
        try AtomicFile.replace([(name, bytes)], in: path)
    }

    /// Removes `widgetSyncState.json` (after a reload to the placeholder); missing is fine.
    /// - Throws: `storageFailed`.
    package func removeSyncState() throws(ComicError) {
        try AtomicFile.remove(Self.syncStateFile, in: path)
    }

    /// Removes `chapterCoverImage.jpg`; missing is fine.
    /// - Throws: `storageFailed`.
    func removeCover() throws(ComicError) {
        try AtomicFile.remove(Self.coverImageFile, in: path)
    }

    // MARK: Cover lookup

    /// The real absolute path to serve as an entry's image for a stored `coverImagePath`, or nil
    /// (entry without image) when it is empty, cannot be resolved, is not strictly inside the
    /// folder once symlinks are resolved, is not a regular file, or is larger than
    /// `Limits.maxCoverBytes`. A relative path is taken relative to the folder.
    package func resolvedCoverPath(_ coverImagePath: String) -> String? {
        guard !coverImagePath.isEmpty, !coverImagePath.utf8.contains(0) else { return nil }
        let candidate = coverImagePath.hasPrefix("/") ? coverImagePath : path + "/" + coverImagePath
        guard let realFolder = Posix.realPath(path), let real = Posix.realPath(candidate) else { return nil }
        let inside = realFolder == "/" ? "/" : realFolder + "/"
        // Byte comparison: String.hasPrefix compares characters, which is not what paths mean.
        guard real.utf8.count > inside.utf8.count, real.utf8.starts(with: inside.utf8) else { return nil }
        guard case .success(let status) = Posix.pathStatus(real),
              Posix.isRegular(status.st_mode), status.st_size <= Limits.maxCoverBytes
        else { return nil }
        return real
    }
}
