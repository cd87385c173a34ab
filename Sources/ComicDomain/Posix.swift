package import Glibc

/// Thin, non-trapping helpers over the Glibc calls the storage code uses, and the browser host
/// and the history lookup with it.
package enum Posix {
    /// The text of `code`, e.g. "Permission denied".
    package static func describe(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }

    /// `open`/`openat` retried on EINTR; returns the fd or the errno.
    package static func openAt(_ dirfd: Int32, _ path: String, _ flags: Int32, _ mode: mode_t = 0) -> Result<Int32, Errno> {
        while true {
            let fd = openat(dirfd, path, flags, mode)
            if fd >= 0 { return .success(fd) }
            let code = errno
            if code != EINTR { return .failure(Errno(code)) }
        }
    }

    /// `fstat`, or the errno.
    package static func fileStatus(_ fd: Int32) -> Result<stat, Errno> {
        var status = stat()
        guard fstat(fd, &status) == 0 else { return .failure(Errno(errno)) }
        return .success(status)
    }

    /// `stat` (following symlinks) or `lstat`, or the errno.
    package static func pathStatus(_ path: String, followLinks: Bool = true) -> Result<stat, Errno> {
        var status = stat()
        let rc = followLinks ? stat(path, &status) : lstat(path, &status)
        guard rc == 0 else { return .failure(Errno(errno)) }
        return .success(status)
    }

    /// What kind of file `mode` describes, for messages ("a directory", "a FIFO"…).
    static func fileTypeName(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFREG: "a regular file"
        case S_IFDIR: "a directory"
        case S_IFLNK: "a symbolic link"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        default: "not a regular file"
        }
    }

    package static func isRegular(_ mode: mode_t) -> Bool { mode & S_IFMT == S_IFREG }
    package static func isDirectory(_ mode: mode_t) -> Bool { mode & S_IFMT == S_IFDIR }

    /// Reads up to `limit` bytes (fewer at end of file), retrying EINTR and short reads.
    ///
    /// The buffer grows with what is read, from 16 KiB: a limit is a bound, not a size. Allocating
    /// (and zero-filling) the whole limit up front cost every read of a 2 KiB catalogue 1 MiB,
    /// which glibc then kept in the heap of the long-running processes.
    package static func readUpTo(_ fd: Int32, limit: Int) -> Result<[UInt8], Errno> {
        var buffer: [UInt8] = []
        var chunk = 16 * 1024
        while buffer.count < limit {
            let filled = buffer.count
            let wanted = min(chunk, limit - filled)
            buffer.append(contentsOf: repeatElement(0, count: wanted))
            let count = buffer.withUnsafeMutableBytes { raw in
                read(fd, raw.baseAddress.map { $0 + filled }, wanted)
            }
            let code = errno
            buffer.removeSubrange((filled + max(count, 0))...)
            if count < 0 {
                if code == EINTR { continue }
                return .failure(Errno(code))
            }
            if count == 0 { break }
            if count == wanted { chunk *= 2 }
        }
        return .success(buffer)
    }

    /// One `read` of at most `buffer.count` bytes, retrying EINTR: the count read, 0 at end of file.
    package static func readSome(_ fd: Int32, into buffer: inout [UInt8]) -> Result<Int, Errno> {
        while true {
            let count = buffer.withUnsafeMutableBytes { raw in read(fd, raw.baseAddress, raw.count) }
            if count >= 0 { return .success(count) }
            let code = errno
            if code != EINTR { return .failure(Errno(code)) }
        }
    }

    /// Writes all of `bytes`, retrying EINTR and short writes.
    package static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> Result<Void, Errno> {
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { raw in
                write(fd, raw.baseAddress.map { $0 + written }, bytes.count - written)
            }
            if count < 0 {
                let code = errno
                if code == EINTR { continue }
                return .failure(Errno(code))
            }
            written += count
        }
        return .success(())
    }

    /// `fsync`, retrying EINTR.
    static func sync(_ fd: Int32) -> Result<Void, Errno> {
        while fsync(fd) != 0 {
            let code = errno
            if code != EINTR { return .failure(Errno(code)) }
        }
        return .success(())
    }

    /// `realpath`, or nil.
    package static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The name of a directory entry that `readdir` returned.
    static func name(of entry: UnsafeMutablePointer<dirent>) -> String {
        withUnsafeBytes(of: entry.pointee.d_name) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
    }

    /// The names in `directory` (without `.` and `..`), or nil when it cannot be listed.
    package static func entries(of directory: String) -> [String]? {
        guard let stream = opendir(directory) else { return nil }
        defer { closedir(stream) }
        var names: [String] = []
        while let entry = readdir(stream) {
            let name = name(of: entry)
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// The user's home folder: `$HOME` when it is absolute, else the password database's (when
    /// that one is absolute), else nil.
    package static func homeFolder(environment: [String: String]) -> String? {
        if let home = environment["HOME"], home.hasPrefix("/") { return home }
        guard let entry = getpwuid(getuid()), let directory = entry.pointee.pw_dir else { return nil }
        let home = String(cString: directory)
        return home.hasPrefix("/") ? home : nil
    }
}

/// An errno value carried through `Result`.
package struct Errno: Error, Equatable {
    package let code: Int32
    package init(_ code: Int32) { self.code = code }
    package var text: String { Posix.describe(code) }
}
