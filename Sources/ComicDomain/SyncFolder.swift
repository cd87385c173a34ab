/// The folder a file-sync tool keeps the same on each computer (`sync-folder` in the config file,
/// docs/sync.md): one record per computer, `<machine>.json`, each written only by its computer.
///
/// What is read there is input from other computers: bounded (`ReadingRecord.maxFileBytes`), never
/// followed through a symlink, checked with the entry's rules. The sync tools' own files are not
/// records (`kind(of:)`); their conflict copies are read like any other record and never written.
/// The folder itself is never created: a missing one may be a drive not mounted yet.
package struct SyncFolder: Sendable, Equatable {
    /// What a name in the folder is.
    package enum NameKind: Sendable, Equatable {
        /// A computer's record, `<machine>.json`.
        case record
        /// A sync tool's copy of a record it could not merge (Syncthing's `*.sync-conflict-*`,
        /// Nextcloud's and Dropbox's `(conflicted copy …)`): read like a record, never written.
        case conflictCopy
        /// Anything else: a sync tool's temporary or partial file (Syncthing's `.syncthing.*.tmp`
        /// and `~syncthing~*.tmp`, Nextcloud's `.~*` and `*.part`, Dropbox's `.dropbox*`), our
        /// own files being written (`.<name>.<pid>.<random>.tmp`), other files.
        case ignored
    }

    /// The folder's absolute path, without a trailing slash.
    package let path: String

    /// The folder at `path` (absolute; see `ConfigFile.syncFolder`).
    package init(path: String) {
        self.path = DataFolder(path: path).path
    }

    /// Whether this folder and the data folder `data` are one, or one holds the other: the service
    /// would take its own files for records, or records for its own files.
    package func overlaps(_ data: DataFolder) -> Bool {
        path == data.path || path.hasPrefix(data.path + "/") || data.path.hasPrefix(path + "/")
    }

    /// The name of `machine`'s record.
    package static func recordName(machine: String) -> String { machine + ".json" }

    /// What `name` is. Only `.json` files whose name does not start with `.` or `~` can be records:
    /// every sync tool's temporary and partial files are hidden, start with `~` or end otherwise.
    package static func kind(of name: String) -> NameKind {
        guard name.hasSuffix(".json"), name.utf8.count > ".json".utf8.count, name.utf8.count <= 255,
              let first = name.first, first != ".", first != "~" else { return .ignored }
        let stem = String(name.dropLast(".json".count))
        if ComputerIdentity.isValidMachineID(stem) { return .record }
        // `<machine>.sync-conflict-<date>-<time>-<device>.json` (Syncthing), `<machine> (conflicted
        // copy <date> <time>).json` (Nextcloud), `<machine> (<computer>'s conflicted copy <date>).json` (Dropbox).
        if stem.contains(".sync-conflict-") || stem.contains("conflicted copy") { return .conflictCopy }
        return .ignored
    }

    /// Whether `name` is read as a record (a record or a conflict copy).
    package static func isReadable(_ name: String) -> Bool { kind(of: name) != .ignored }

    /// Reads the record `name` (see `ReadResult`): at most `ReadingRecord.maxFileBytes`, a regular
    /// file (no symlink, FIFO or folder), one valid record.
    package func readRecord(_ name: String) -> ReadResult<ReadingRecord> {
        DataFolder(path: path).readFile(name, limit: ReadingRecord.maxFileBytes) { bytes throws(ComicError) in
            try ReadingRecord.decode(bytes)
        }
    }

    /// The names of the records and conflict copies in the folder, or nil when it cannot be listed
    /// (missing, not a folder, unreadable).
    package func readableNames() -> [String]? {
        Posix.entries(of: path)?.filter(Self.isReadable)
    }

    /// Atomically replaces this computer's record (write aside, fsync, rename; never through a
    /// symlink), mode 0600. Never creates the folder.
    /// - Throws: `storageFailed` (a missing folder too).
    package func write(_ record: ReadingRecord) throws(ComicError) {
        try AtomicFile.replace([(Self.recordName(machine: record.stamp.machine), record.encodeJSON() + [0x0A])], in: path)
    }
}
