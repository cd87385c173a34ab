import ComicDomain
import Glibc

/// A private copy of a browser's SQLite database with its `-wal` and `-journal`, in a fresh
/// folder only this user can enter (0700), removed when the copy goes away.
///
/// Why a copy: a running browser holds its database locked (Firefox and Chromium both use
/// SQLite's exclusive locking mode), and opening it with SQLite, even read-only, could create a
/// `-shm`, roll back a hot journal or checkpoint the WAL next to the browser's files.
/// `immutable=1` would avoid that but ignores the `-wal`, where a running Firefox keeps its recent
/// visits. Plain reads of the files take no lock and change nothing; SQLite then applies the WAL
/// (or rolls back a hot journal) when it opens the copy.
///
/// A copy taken while the browser writes may mix two states, so the files' identity, size and
/// times are compared before and after: when anything changed, the copy is taken again.
package struct DatabaseCopy: ~Copyable {
    /// The most bytes copied for one database, with its `-wal` and `-journal`. A history of
    /// years is tens of megabytes; this bounds the disk (often RAM, for a tmpfs `/tmp`) and time.
    package static let maximumBytes: Int64 = 1 << 30
    /// How many times a copy is taken before a database that keeps changing is given up.
    static let attempts = 4
    /// The files SQLite reads beside a database: its write-ahead log and its rollback journal.
    /// (`-shm` is only an index of the WAL, rebuilt from it when the copy is opened.)
    static let companionSuffixes = ["-wal", "-journal"]

    /// The private folder.
    let folder: String
    /// The copy of the database, with its companions beside it under the same name.
    package let path: String
    /// The bytes copied (database and companions), in the copy that was kept.
    let byteCount: Int64

    /// Copies `source` and its companions into a new folder in `temporaryRoot`.
    /// - Throws: `unreadable` (cannot read, not a regular file, cannot write the copy),
    ///   `tooLarge`, or `changing` when every attempt saw the files change.
    package init(of source: String, in temporaryRoot: String) throws(HistoryError) {
        var template = Array((temporaryRoot + "/dbmultiverse-history-XXXXXX").utf8CString)
        guard let created = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw HistoryError(.unreadable, "cannot make a private folder in \(quotedPath(temporaryRoot)) for a copy of \(quotedPath(source)): \(Posix.describe(errno))")
        }
        let folder = String(cString: created)
        let path = folder + "/history.sqlite"
        var byteCount: Int64?
        do {
            for _ in 0..<Self.attempts {
                Self.removeEntries(of: folder)
                byteCount = try Self.copyOnce(source, to: path)
                if byteCount != nil { break }
            }
        } catch {
            Self.removeFolder(folder)
            throw error
        }
        guard let byteCount else {
            Self.removeFolder(folder)
            throw HistoryError(.changing, "\(quotedPath(source)) changed while it was being copied, \(Self.attempts) times: the browser is busy writing it; try again in a moment")
        }
        self.folder = folder
        self.path = path
        self.byteCount = byteCount
    }

    deinit {
        Self.removeFolder(folder)
    }

    /// Copies the database and its companions once; returns the bytes copied, or nil when a file
    /// changed meanwhile.
    private static func copyOnce(_ source: String, to destination: String) throws(HistoryError) -> Int64? {
        var budget = maximumBytes
        var versions: [(path: String, version: FileVersion?)] = []
        for suffix in [""] + companionSuffixes {
            let file = source + suffix
            let version = try copyFile(file, to: destination + suffix, budget: &budget, required: suffix.isEmpty)
            versions.append((file, version))
        }
        for (file, version) in versions where FileVersion(path: file) != version {
            return nil
        }
        return maximumBytes - budget
    }

    /// Copies one file, spending its size from `budget`; returns the version copied, or nil
    /// when the file does not exist (allowed only for a companion).
    private static func copyFile(_ source: String, to destination: String, budget: inout Int64, required: Bool) throws(HistoryError) -> FileVersion? {
        guard let (input, status) = try FileSystem.openRegularFile(source) else {
            if required { throw HistoryError(.unreadable, "cannot read \(quotedPath(source)): \(Posix.describe(ENOENT))") }
            return nil
        }
        defer { close(input) }
        guard Int64(status.st_size) <= budget else { throw tooLarge(source) }
        let output = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard output >= 0 else {
            throw HistoryError(.unreadable, "cannot copy \(quotedPath(source)) to \(quotedPath(destination)): \(Posix.describe(errno))")
        }
        defer { close(output) }
        // One byte over the budget tells a file that grew past it from one that ends there.
        switch copyContents(from: input, to: output, limit: budget + 1) {
        case .success(let copied):
            guard copied <= budget else { throw tooLarge(source) }
            budget -= copied
        case .failure(let error):
            throw HistoryError(.unreadable, "cannot copy \(quotedPath(source)) to \(quotedPath(destination)): \(error.text)")
        }
        return FileVersion(status)
    }

    /// Copies from `input` to `output` until the end of `input` or `limit` bytes; in the kernel
    /// (`sendfile`) where the file systems allow, else through a buffer.
    private static func copyContents(from input: Int32, to output: Int32, limit: Int64) -> Result<Int64, Errno> {
        var copied: Int64 = 0
        var inKernel = true
        var buffer: [UInt8] = []
        while copied < limit {
            let chunk = Int(min(limit - copied, 8 << 20))
            let count: Int
            if inKernel {
                count = sendfile(output, input, nil, chunk)
            } else {
                if buffer.isEmpty { buffer = [UInt8](repeating: 0, count: 1 << 20) }
                count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, min($0.count, chunk)) }
            }
            if count < 0 {
                let code = errno
                if code == EINTR { continue }
                if inKernel, copied == 0, [EINVAL, ENOSYS].contains(code) {
                    inKernel = false
                    continue
                }
                return .failure(Errno(code))
            }
            if count == 0 { break }
            if !inKernel, case .failure(let error) = Posix.writeAll(output, Array(buffer[..<count])) { return .failure(error) }
            copied += Int64(count)
        }
        return .success(copied)
    }

    private static func tooLarge(_ source: String) -> HistoryError {
        HistoryError(.tooLarge, "\(quotedPath(source)) and its journal are over \(maximumBytes >> 20) MiB, more than this command copies")
    }

    private static func removeEntries(of folder: String) {
        for name in Posix.entries(of: folder) ?? [] { unlink(folder + "/" + name) }
    }

    private static func removeFolder(_ folder: String) {
        removeEntries(of: folder)
        rmdir(folder)
    }
}

/// What identifies one state of a file: which file it is, its size, and when its content and
/// metadata last changed. Two equal versions mean no write came in between, as far as the file
/// system's time stamps can tell.
struct FileVersion: Equatable {
    let device: UInt64
    let inode: UInt64
    let size: Int64
    let modified: timespec
    let changed: timespec

    init(_ status: stat) {
        device = UInt64(status.st_dev)
        inode = UInt64(status.st_ino)
        size = Int64(status.st_size)
        modified = status.st_mtim
        changed = status.st_ctim
    }

    /// The version at `path` now, or nil when there is no file.
    init?(path: String) {
        guard case .success(let status) = Posix.pathStatus(path) else { return nil }
        self.init(status)
    }

    static func == (lhs: FileVersion, rhs: FileVersion) -> Bool {
        lhs.device == rhs.device && lhs.inode == rhs.inode && lhs.size == rhs.size
            && lhs.modified.tv_sec == rhs.modified.tv_sec && lhs.modified.tv_nsec == rhs.modified.tv_nsec
            && lhs.changed.tv_sec == rhs.changed.tv_sec && lhs.changed.tv_nsec == rhs.changed.tv_nsec
    }
}
