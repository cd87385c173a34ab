import ComicDomain
import Glibc

/// The file operations the lookup needs beyond ComicDomain's `Posix`, with its errors: browsers'
/// folders are only ever read.
enum FileSystem {
    static func isDirectory(_ path: String) -> Bool {
        guard case .success(let status) = Posix.pathStatus(path) else { return false }
        return Posix.isDirectory(status.st_mode)
    }

    /// Whether `path` exists at all (a dangling symlink counts: it is reported when read).
    static func exists(_ path: String) -> Bool {
        guard case .success = Posix.pathStatus(path, followLinks: false) else { return false }
        return true
    }

    /// Opens `path` for reading and checks that it is a regular file (no blocking on a FIFO
    /// planted where a database should be); nil when it does not exist. The caller closes it.
    /// - Throws: `unreadable` when it cannot be opened or is not a regular file.
    static func openRegularFile(_ path: String) throws(HistoryError) -> (fd: Int32, status: stat)? {
        let fd: Int32
        switch Posix.openAt(AT_FDCWD, path, O_RDONLY | O_CLOEXEC | O_NONBLOCK) {
        case .success(let opened): fd = opened
        case .failure(let error) where error.code == ENOENT: return nil
        case .failure(let error): throw HistoryError(.unreadable, "cannot read \(quotedPath(path)): \(error.text)")
        }
        switch Posix.fileStatus(fd) {
        case .success(let status) where Posix.isRegular(status.st_mode):
            return (fd, status)
        case .success:
            close(fd)
            throw HistoryError(.unreadable, "cannot read \(quotedPath(path)): it is not a regular file")
        case .failure(let error):
            close(fd)
            throw HistoryError(.unreadable, "cannot read \(quotedPath(path)): \(error.text)")
        }
    }

    /// Reads a whole regular file of at most `limit` bytes; nil when it does not exist.
    /// - Throws: `unreadable` when it cannot be read, is not a regular file or is too large.
    static func readSmallFile(_ path: String, limit: Int) throws(HistoryError) -> [UInt8]? {
        guard let (fd, _) = try openRegularFile(path) else { return nil }
        defer { close(fd) }
        // One byte over the limit tells a file that is too large from one that ends there.
        switch Posix.readUpTo(fd, limit: limit + 1) {
        case .success(let bytes) where bytes.count <= limit:
            return bytes
        case .success:
            throw HistoryError(.unreadable, "cannot read \(quotedPath(path)): it is over \(limit) bytes")
        case .failure(let error):
            throw HistoryError(.unreadable, "cannot read \(quotedPath(path)): \(error.text)")
        }
    }
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
