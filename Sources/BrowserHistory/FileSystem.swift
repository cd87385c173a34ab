import ComicDomain
import Glibc

/// The few file operations the lookup needs, without trapping and without writing: browsers'
/// folders are only ever read.
enum FileSystem {
    /// `stat` (following symlinks), or nil when the path cannot be reached.
    static func status(_ path: String) -> stat? {
        var status = stat()
        return stat(path, &status) == 0 ? status : nil
    }

    static func isDirectory(_ path: String) -> Bool {
        status(path).map { $0.st_mode & S_IFMT == S_IFDIR } ?? false
    }

    /// Whether `path` exists at all (a dangling symlink counts: it is reported when read).
    static func exists(_ path: String) -> Bool {
        var status = stat()
        return lstat(path, &status) == 0
    }

    /// The names in `directory` (without `.` and `..`), or nil when it cannot be listed.
    static func entries(of directory: String) -> [String]? {
        guard let stream = opendir(directory) else { return nil }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// `realpath`, or nil.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// Opens `path` for reading and checks that it is a regular file (no blocking on a FIFO
    /// planted where a database should be); nil when it does not exist. The caller closes it.
    /// - Throws: `unreadable` when it cannot be opened or is not a regular file.
    static func openRegularFile(_ path: String) throws(HistoryError) -> (fd: Int32, status: stat)? {
        var fd: Int32
        repeat {
            fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        } while fd < 0 && errno == EINTR
        guard fd >= 0 else {
            if errno == ENOENT { return nil }
            throw HistoryError(.unreadable, "cannot read \(quotedPath(path)): \(describe(errno))")
        }
        var status = stat()
        guard fstat(fd, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            let why = status.st_mode == 0 ? describe(errno) : "it is not a regular file"
            close(fd)
            throw HistoryError(.unreadable, "cannot read \(quotedPath(path)): \(why)")
        }
        return (fd, status)
    }

    /// Reads a whole regular file of at most `limit` bytes; nil when it does not exist.
    /// - Throws: `unreadable` when it cannot be read, is not a regular file or is too large.
    static func readSmallFile(_ path: String, limit: Int) throws(HistoryError) -> [UInt8]? {
        guard let (fd, _) = try openRegularFile(path) else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw HistoryError(.unreadable, "cannot read \(quotedPath(path)): \(describe(errno))")
            }
            if count == 0 { return bytes }
            bytes += buffer[..<count]
            if bytes.count > limit {
                throw HistoryError(.unreadable, "cannot read \(quotedPath(path)): it is over \(limit) bytes")
            }
        }
    }

    /// The system's text for `code`, e.g. "Permission denied".
    static func describe(_ code: Int32) -> String {
        strerror(code).map { String(cString: $0) } ?? "error \(code)"
    }
}

/// An errno value carried through `Result`; its description is the system's text for it.
struct Errno: Error, Equatable, CustomStringConvertible {
    let code: Int32
    init(_ code: Int32) { self.code = code }
    var description: String { FileSystem.describe(code) }
}

/// A path for a message: quoted, with control characters escaped so a hostile file name cannot
/// forge a line of output.
func quotedPath(_ path: String) -> String {
    quotedForMessage(path, limit: 1024)
}

/// A name for a line of output: as it is when every character is printable, else quoted and escaped.
func printableName(_ name: String) -> String {
    let plain = name.unicodeScalars.allSatisfy { scalar in
        scalar.value >= 0x20 && !(0x7F...0x9F).contains(scalar.value) && scalar.value != 0x2028 && scalar.value != 0x2029
    }
    return plain && !name.isEmpty ? name : quotedForMessage(name, limit: 1024)
}
